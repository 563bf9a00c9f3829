import Crypto
import Foundation
import LocalState
import StoreCore
import StoreEngine
import StoreKitModel
import TestSupport
import Testing

/// Receipts in Apple's format (the ASN.1 receipt inside PKCS#7 signed by the store's key): what
/// goes in comes back out, the store's key is kept across opens, and Apple's rule for which
/// purchases a receipt lists.
@Suite struct ReceiptFormatTests {
    func open(_ fixture: StoreFixture, _ receipt: String?) throws -> ReceiptPayload {
        guard case .valid(let payload) = fixture.store.openReceipt(try #require(receipt)) else {
            throw StoreFailure("the store's own receipt does not open: \(fixture.store.openReceipt(receipt ?? ""))")
        }
        return payload
    }

    /// Receipt dates are to the second, as Apple's are.
    func second(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }

    @Test func aReceiptRoundTripsEveryField() async throws {
        let fixture = try StoreFixture()
        let ads = try await fixture.buy(StoreFixture.removeAds)
        fixture.clock.advance(by: 1.5)
        let monthly = try await fixture.buy(StoreFixture.monthly)
        let payload = try open(fixture, monthly.receipt)
        #expect(payload.environment == .xcode && payload.environment.rawValue == "Xcode")
        #expect(payload.bundleId == "com.example.storefront.demo")
        #expect(payload.account == "alice")
        #expect((payload.appVersion, payload.originalAppVersion) == ("1", "1.0"))
        #expect(payload.creationDate == second(fixture.clock.now()))
        // Apple's device check: SHA-1 of the device identifier, the opaque value and the bundle id's DER.
        let bundleDER = [0x0C, UInt8(payload.bundleId.utf8.count)] + Array(payload.bundleId.utf8)
        let hash = Insecure.SHA1.hash(
            data: ReceiptPayload.deviceIdentifier(account: "alice") + payload.opaqueValue + bundleDER)
        #expect(payload.opaqueValue.count == 16)
        #expect(payload.sha1Hash == Array(hash))
        #expect(payload.inApp.map(\.transactionId) == [ads.transaction.id, monthly.transaction.id])
        let nonConsumable = try #require(payload.inApp.first)
        #expect(nonConsumable.quantity == 1)
        #expect(nonConsumable.productId == StoreFixture.removeAds)
        #expect(nonConsumable.originalTransactionId == ads.transaction.id)
        #expect(nonConsumable.purchaseDate == second(ads.transaction.purchaseDate))
        #expect(nonConsumable.originalPurchaseDate == second(ads.transaction.purchaseDate))
        // Subscription fields are left out of other products, as Apple leaves them.
        #expect(
            nonConsumable.expiresDate == nil && nonConsumable.cancellationDate == nil
                && nonConsumable.webOrderLineItemId == nil)
        #expect(
            nonConsumable.isTrialPeriod == nil && nonConsumable.isInIntroOfferPeriod == nil
                && nonConsumable.promotionalOfferId == nil)
        let subscription = try #require(payload.inApp.last)
        #expect(subscription.expiresDate == second(try #require(monthly.transaction.terms?.expirationDate)))
        #expect(
            subscription.webOrderLineItemId
                == ReceiptPayload.InApp.webOrderLineItemId(transactionId: monthly.transaction.id))
        #expect(subscription.isTrialPeriod == true)  // Premium Monthly's introductory offer is a free week
        #expect(subscription.isInIntroOfferPeriod == false)
    }

    @Test func theKeyAndChainAreKeptWithTheStore() async throws {
        let directory = scratchDirectory("receipt-key")
        let first = try StoreFixture(directory: directory)
        let receipt = try await first.buy(StoreFixture.removeAds).receipt
        let reopened = try StoreFixture(directory: directory)
        #expect(try open(reopened, receipt).inApp.count == 1)
        let key = try await first.store.signing.transactionSigningKey(create: { Data() })
        #expect(try await reopened.store.signing.transactionSigningKey(create: { Data() }) == key)
        #expect(!key.isEmpty)
        #expect(try await reopened.store.signing.signingChain(create: { [] }).count == 3)
    }

    @Test func anotherStoresReceiptIsNotAuthentic() async throws {
        let ours = try StoreFixture()
        let theirs = try StoreFixture()
        let receipt = try #require(try await theirs.buy(StoreFixture.removeAds).receipt)
        #expect(ours.store.openReceipt(receipt) == .invalid(.notAuthenticated))
        #expect(ours.store.openReceipt("") == .invalid(.malformedReceiptData))
        #expect(ours.store.openReceipt(String(repeating: "A", count: 4_000_004)) == .invalid(.malformedReceiptData))
    }

    /// A consumable is listed until the app finishes it; non-consumables, subscriptions and
    /// non-renewing subscriptions are listed for good, finished or not.
    @Test func aFinishedConsumableDropsOutOfTheReceipt() async throws {
        let fixture = try StoreFixture()
        let gems = try await fixture.buy(StoreFixture.gems)
        let ads = try await fixture.buy(StoreFixture.removeAds)
        let monthly = try await fixture.buy(StoreFixture.monthly)
        let pass = try await fixture.buy("com.example.storefront.pass.season")
        #expect(
            try open(fixture, pass.receipt).inApp.map(\.transactionId)
                == [gems, ads, monthly, pass].map(\.transaction.id))
        for bought in [gems, ads, monthly, pass] {
            try await fixture.store.finish(transactionId: bought.transaction.id, account: "alice")
        }
        let listed = try open(fixture, try await fixture.store.currentReceipt(account: "alice")).inApp.map(
            \.transactionId)
        #expect(listed == [ads, monthly, pass].map(\.transaction.id))
        let unfinished = try await fixture.buy(StoreFixture.gems)
        #expect(
            try open(fixture, unfinished.receipt).inApp.map(\.transactionId)
                == [ads, monthly, pass, unfinished].map(\.transaction.id))
        // The receipt the app got before finishing still lists it, so verifying it later works.
        #expect(
            try await fixture.store.verify(
                receipt: try #require(gems.receipt), transactionId: gems.transaction.id,
                productId: StoreFixture.gems, claim: "a") == .verified)
    }

    /// Another device of the account, verifying a consumable the first one verified and finished,
    /// holds a receipt issued after the finish, which no longer lists it: it is told the
    /// transaction was delivered elsewhere, not that the receipt is wrong.
    @Test func aConsumableFinishedElsewhereIsAReplayNotARejection() async throws {
        let fixture = try StoreFixture()
        let gems = try await fixture.buy(StoreFixture.gems)
        let id = gems.transaction.id
        #expect(
            try await fixture.store.verify(
                receipt: try #require(gems.receipt), transactionId: id, productId: StoreFixture.gems, claim: "a")
                == .verified)
        try await fixture.store.finish(transactionId: id, account: "alice")
        let later = try await fixture.store.currentReceipt(account: "alice")
        #expect(try open(fixture, later).inApp.isEmpty)
        guard
            case .replayed = try await fixture.store.verify(
                receipt: later, transactionId: id, productId: StoreFixture.gems, claim: "b")
        else {
            Issue.record("the second device's claim was not a replay")
            return
        }
        #expect(
            try await fixture.store.verify(receipt: later, transactionId: id, productId: StoreFixture.gems, claim: "a")
                == .verified)
        guard
            case .rejected = try await fixture.store.verify(
                receipt: later, transactionId: id, productId: StoreFixture.removeAds, claim: "a"),
            case .rejected = try await fixture.store.verify(
                receipt: later, transactionId: "2000000000000099", productId: StoreFixture.gems, claim: "a")
        else {
            Issue.record("a transaction neither in the receipt nor verified before was accepted")
            return
        }
        // Another account's receipt does not reach this account's claims.
        let kenji = try #require(try await fixture.buy(StoreFixture.removeAds, account: "kenji").receipt)
        guard
            case .rejected = try await fixture.store.verify(
                receipt: kenji, transactionId: id, productId: StoreFixture.gems, claim: "b")
        else {
            Issue.record("another account's receipt was told of alice's claim")
            return
        }
    }
}
