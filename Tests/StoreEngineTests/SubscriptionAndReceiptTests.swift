import AppSide
import Foundation
import LocalState
import StoreCore
import StoreEngine
import StoreKitModel
import TestSupport
import Testing

@Suite struct SubscriptionAndReceiptTests {
    @Test func subscriptionRenewsEachPeriodUnderTheTimeRate() async throws {
        let fixture = try StoreFixture()
        try await fixture.setControls { $0.timeRate = .oneRenewalEvery2Seconds }
        let first = try await fixture.buy(StoreFixture.monthly)
        fixture.clock.advance(by: 5)  // two full periods of 2 s have passed
        try await fixture.store.scheduler.runDue()
        let chain = try await fixture.store.transactions(account: "alice").filter {
            $0.originalId == first.transaction.id
        }
        #expect(chain.count == 3)
        #expect(Set(chain.map(\.id)).count == 3)
        #expect(chain.allSatisfy { $0.state == .purchased })
    }

    @Test func expiredSubscriptionStopsRenewing() async throws {
        let fixture = try StoreFixture()
        try await fixture.setControls { $0.timeRate = .oneRenewalEvery2Seconds }
        let first = try await fixture.buy(StoreFixture.monthly)
        _ = try await fixture.store.perform(.expireSubscription(first.transaction.id))
        fixture.clock.advance(by: 10)
        try await fixture.store.scheduler.runDue()
        #expect(try await fixture.store.transactions(account: "alice").count == 1)
    }

    @Test func restoreCreatesNewTransactionsForRestorableProductsOnly() async throws {
        let fixture = try StoreFixture()
        #expect(try await fixture.store.restore(account: "alice").isEmpty)
        let ads = try await fixture.buy(StoreFixture.removeAds)
        _ = try await fixture.buy(StoreFixture.gems)
        let monthly = try await fixture.buy(StoreFixture.monthly)
        let restored = try await fixture.store.restore(account: "alice")
        #expect(restored.count == 2)
        #expect(restored.allSatisfy { $0.transaction.state == .restored && $0.receipt != nil })
        #expect(Set(restored.map(\.transaction.originalId)) == [ads.transaction.id, monthly.transaction.id])
        #expect(restored.allSatisfy { !Set([ads.transaction.id, monthly.transaction.id]).contains($0.transaction.id) })
        // One receipt, built after the restore's commit, lists every restored transaction and
        // comes with each of them (not one per update, each listing those restored before it).
        #expect(Set(restored.map(\.receipt)).count == 1)
        guard case .valid(let payload) = fixture.store.openReceipt(try #require(restored.first?.receipt)) else {
            Issue.record("the restore's receipt does not open")
            return
        }
        #expect(Set(restored.map(\.transaction.id)).isSubset(of: Set(payload.inApp.map(\.transactionId))))
    }

    @Test func restoreFailsWithAForcedNetworkError() async throws {
        let fixture = try StoreFixture()
        try await fixture.setControls { $0.nextOutcome = .network(.notConnectedToInternet) }
        await #expect(throws: StoreError.network(.notConnectedToInternet)) {
            try await fixture.store.restore(account: "alice")
        }
    }

    @Test func receiptVerifiesOnceAndRefusesReplayAndTampering() async throws {
        let fixture = try StoreFixture()
        let update = try await fixture.buy(StoreFixture.gems)
        let receipt = try #require(update.receipt)
        let id = update.transaction.id
        #expect(
            try await fixture.store.verify(
                receipt: receipt, transactionId: id, productId: StoreFixture.gems, claim: "a") == .verified)
        // The same claim retried (the app crashed before recording the answer) is answered again.
        #expect(
            try await fixture.store.verify(
                receipt: receipt, transactionId: id, productId: StoreFixture.gems, claim: "a") == .verified)
        let replay = try await fixture.store.verify(
            receipt: receipt, transactionId: id, productId: StoreFixture.gems, claim: "b")
        guard case .replayed(let reason) = replay else {
            Issue.record("replay accepted: \(replay)")
            return
        }
        #expect(reason.contains("replayed"))
        let wrongProduct = try await fixture.store.verify(
            receipt: receipt, transactionId: id, productId: StoreFixture.removeAds, claim: "c")
        guard case .rejected = wrongProduct else {
            Issue.record("wrong product accepted")
            return
        }
        var bytes = Array(try #require(Data(base64Encoded: receipt)))
        bytes[bytes.count / 2] ^= 0x01
        let tampered = Data(bytes).base64EncodedString()
        let result = try await fixture.store.verify(
            receipt: tampered, transactionId: id, productId: StoreFixture.gems, claim: "d")
        #expect(
            result == .rejected(status: .notAuthenticated, reason: VerifyStatus.notAuthenticated.meaning)
                || result == .rejected(status: .malformedReceiptData, reason: VerifyStatus.malformedReceiptData.meaning)
        )
        #expect(
            try await fixture.store.verify(
                receipt: "not base64!", transactionId: id, productId: StoreFixture.gems, claim: "e")
                == .rejected(status: .malformedReceiptData, reason: VerifyStatus.malformedReceiptData.meaning))
    }

    @Test func verificationFailureInjection() async throws {
        let fixture = try StoreFixture()
        let update = try await fixture.buy(StoreFixture.gems)
        let receipt = try #require(update.receipt)
        try await fixture.setControls { $0.verificationFailure = .unreachable }
        guard
            case .retryLater = try await fixture.store.verify(
                receipt: receipt, transactionId: update.transaction.id, productId: StoreFixture.gems, claim: "a")
        else {
            Issue.record("unreachable server did not ask to retry")
            return
        }
        try await fixture.setControls { $0.verificationFailure = .status(.sandboxReceiptSentToProduction) }
        #expect(
            try await fixture.store.verify(
                receipt: receipt, transactionId: update.transaction.id, productId: StoreFixture.gems, claim: "a")
                == .rejected(
                    status: .sandboxReceiptSentToProduction, reason: VerifyStatus.sandboxReceiptSentToProduction.meaning
                ))
    }

    @Test func buyingAnOwnedNonConsumableAgainSucceeds() async throws {
        let fixture = try StoreFixture()
        _ = try await fixture.buy(StoreFixture.removeAds)
        #expect(try await fixture.buy(StoreFixture.removeAds).transaction.state == .restored)
    }

    @Test func finishingAPurchasingTransactionIsRefused() async throws {
        let fixture = try StoreFixture()
        try await fixture.setControls { $0.latencyMilliseconds = 60_000 }
        let purchasing = try await fixture.store.add(Payment(productId: StoreFixture.gems, account: "alice"))
        await #expect(throws: StoreFailure.self) {
            try await fixture.store.finish(transactionId: purchasing.id, account: "alice")
        }
    }
}
