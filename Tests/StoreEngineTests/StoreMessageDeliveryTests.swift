import Foundation
import StoreCore
import StoreEngine
import StoreKitModel
import TestSupport
import Testing

/// StoreKit's messages the App Store sends an account (a generic one, a win-back offer's) and the
/// purchases customers start on the App Store: kept in the store per account, each given once to
/// the first app of the account that takes it, across a reopen.
@Suite struct StoreMessageDeliveryTests {
    static let comeback = "com.example.storefront.premium.comeback"

    /// Alice subscribed, turned auto-renew off and the subscription ended: she may win it back.
    static func lapse(_ fixture: StoreFixture, account: String = "alice") async throws {
        let bought = try await fixture.buy(StoreFixture.monthly, account: account).transaction
        _ = try await fixture.store.perform(.setAutoRenew(bought.id, false))
        _ = try await fixture.store.perform(.expireSubscription(bought.id))
        fixture.clock.advance(by: 60)
    }

    @Test func aGenericMessageWaitsForItsAccountAndIsGivenOnce() async throws {
        let fixture = try StoreFixture()
        #expect(try await fixture.store.perform(.sendMessage(account: "alice", reason: .generic)).isEmpty)
        #expect(try await fixture.store.takeMessages(account: "kenji").isEmpty, "another account's app gets nothing")
        let taken = try await fixture.store.takeMessages(account: "alice")
        #expect(taken.map(\.reason) == [.generic])
        #expect(taken.first?.productId == nil && taken.first?.offerId == nil)
        #expect(try await fixture.store.takeMessages(account: "alice").isEmpty, "given once")
    }

    @Test func aPendingMessageAndIntentOutliveTheStoreAndAreStillGivenOnce() async throws {
        let fixture = try StoreFixture()
        _ = try await fixture.store.perform(.sendMessage(account: "alice", reason: .generic))
        _ = try await fixture.store.perform(
            .purchaseIntent(account: "alice", productId: StoreFixture.removeAds, offerId: nil))
        let reopened = try StoreFixture(directory: fixture.directory)
        #expect(try await reopened.store.takeMessages(account: "alice").map(\.reason) == [.generic])
        let intents = try await reopened.store.takePurchaseIntents(account: "alice")
        #expect(intents.map(\.productId) == [StoreFixture.removeAds])
        #expect(intents.first?.offerId == nil)
        let again = try StoreFixture(directory: fixture.directory)
        #expect(try await again.store.takeMessages(account: "alice").isEmpty)
        #expect(try await again.store.takePurchaseIntents(account: "alice").isEmpty)
    }

    @Test func onlyAGenericMessageCanBeSent() async throws {
        let fixture = try StoreFixture()
        for reason in [StoreMessageReason.billingIssue, .priceIncreaseConsent, .winBackOffer] {
            await #expect {
                _ = try await fixture.store.perform(.sendMessage(account: "alice", reason: reason))
            } throws: { error in
                (error as? StoreFailure)?.kind == .invalid
                    && (error as? StoreFailure)?.message.contains("generic") == true
            }
        }
        await #expect {
            _ = try await fixture.store.perform(.sendMessage(account: "mallory", reason: .generic))
        } throws: { error in
            (error as? StoreFailure)?.kind == .notFound && (error as? StoreFailure)?.message.contains("alice") == true
        }
    }

    @Test func theWinBackMessageComesOnceWhenTheAccountBecomesEligible() async throws {
        let fixture = try StoreFixture()
        let bought = try await fixture.buy(StoreFixture.monthly).transaction
        #expect(try await fixture.store.takeMessages(account: "alice").isEmpty, "subscribed: not eligible")
        _ = try await fixture.store.perform(.setAutoRenew(bought.id, false))
        _ = try await fixture.store.perform(.expireSubscription(bought.id))
        fixture.clock.advance(by: 60)
        let taken = try await fixture.store.takeMessages(account: "alice")
        #expect(taken.map(\.reason) == [.winBackOffer])
        #expect(taken.first?.productId == StoreFixture.monthly)
        #expect(taken.first?.offerId == Self.comeback)
        #expect(try await fixture.store.takeMessages(account: "alice").isEmpty, "once for the lapse")
        // Reopened, the lapse is the same: no second message.
        let reopened = try StoreFixture(directory: fixture.directory)
        #expect(try await reopened.store.takeMessages(account: "alice").isEmpty)
    }

    @Test func theWinBackMessageComesAgainAfterTheNextLapse() async throws {
        let fixture = try StoreFixture()
        try await Self.lapse(fixture)
        #expect(try await fixture.store.takeMessages(account: "alice").count == 1)
        try await Self.lapse(fixture)
        #expect(try await fixture.store.takeMessages(account: "alice").map(\.reason) == [.winBackOffer])
    }

    @Test func theSandboxSwitchSuppressesTheWinBackMessage() async throws {
        let fixture = try StoreFixture()
        var controls = try await fixture.store.controls()
        #expect(controls.winBackMessages, "on by default, as the App Store sends it")
        controls.winBackMessages = false
        try await fixture.store.setControls(controls)
        try await Self.lapse(fixture)
        #expect(try await fixture.store.takeMessages(account: "alice").isEmpty)
        // Turned back on while still eligible, the message comes (the sheet shows at the next launch).
        controls.winBackMessages = true
        try await fixture.store.setControls(controls)
        #expect(try await fixture.store.takeMessages(account: "alice").map(\.reason) == [.winBackOffer])
        // The switch survives a reopen, as every control does.
        controls.winBackMessages = false
        try await fixture.store.setControls(controls)
        let reopened = try StoreFixture(directory: fixture.directory)
        #expect(try await !reopened.store.controls().winBackMessages)
    }

    @Test func aPurchaseIntentWithAWinBackOfferNeedsAnEligibleAccount() async throws {
        let fixture = try StoreFixture()
        let intent = ManageAction.purchaseIntent(
            account: "alice", productId: StoreFixture.monthly, offerId: Self.comeback)
        await #expect {
            _ = try await fixture.store.perform(intent)
        } throws: { error in
            (error as? StoreFailure)?.kind == .conflict
                && (error as? StoreFailure)?.message.contains("never subscribed") == true
        }
        await #expect {
            _ = try await fixture.store.perform(
                .purchaseIntent(
                    account: "alice", productId: StoreFixture.monthly,
                    offerId: "com.example.storefront.premium.halfprice"))
        } throws: { error in (error as? StoreFailure)?.kind == .invalid }
        await #expect {
            _ = try await fixture.store.perform(
                .purchaseIntent(account: "alice", productId: "com.example.nothing", offerId: nil))
        } throws: { error in (error as? StoreFailure)?.kind == .notFound }
        // Lifetime Pro is not sold in China mainland, where wei buys: the App Store does not promote it there.
        await #expect {
            _ = try await fixture.store.perform(
                .purchaseIntent(account: "wei", productId: StoreFixture.lifetime, offerId: nil))
        } throws: { error in
            (error as? StoreFailure)?.kind == .conflict && (error as? StoreFailure)?.message.contains("CHN") == true
        }
        try await Self.lapse(fixture)
        _ = try await fixture.store.perform(intent)
        let taken = try await fixture.store.takePurchaseIntents(account: "alice")
        #expect(taken.map(\.productId) == [StoreFixture.monthly] && taken.map(\.offerId) == [Self.comeback])
        // The app buys with the intent's offer: the win-back offer applies.
        let bought = try await fixture.store.add(
            Payment(productId: StoreFixture.monthly, account: "alice", offer: .winBack(Self.comeback)))
        #expect(bought.state == .purchasing)
    }

    @Test func clearingAnAccountForgetsItsMessagesAndIntents() async throws {
        let fixture = try StoreFixture()
        for account in ["alice", "kenji"] {
            _ = try await fixture.store.perform(.sendMessage(account: account, reason: .generic))
            _ = try await fixture.store.perform(
                .purchaseIntent(account: account, productId: StoreFixture.gems, offerId: nil))
        }
        _ = try await fixture.store.perform(.clearAccount("alice"))
        #expect(try await fixture.store.takeMessages(account: "alice").isEmpty)
        #expect(try await fixture.store.takePurchaseIntents(account: "alice").isEmpty)
        #expect(try await fixture.store.takeMessages(account: "kenji").count == 1)
        _ = try await fixture.store.perform(.sendMessage(account: "kenji", reason: .generic))
        _ = try await fixture.store.perform(.resetToDefaults)
        #expect(try await fixture.store.takeMessages(account: "kenji").isEmpty)
        #expect(try await fixture.store.takePurchaseIntents(account: "kenji").isEmpty)
    }
}
