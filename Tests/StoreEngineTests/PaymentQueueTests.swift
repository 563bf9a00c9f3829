import AppSide
import Foundation
import LocalState
import StoreCore
import StoreEngine
import StoreKitModel
import TestSupport
import Testing

@Suite struct PaymentQueueTests {
    @Test func successfulPurchaseIsPurchasedWithSixteenDigitIdAndReceipt() async throws {
        let fixture = try StoreFixture()
        let update = try await fixture.buy(StoreFixture.gems, quantity: 3, order: "order-1")
        #expect(update.transaction.state == .purchased)
        #expect(update.transaction.id.count == 16 && update.transaction.id.allSatisfy(\.isNumber))
        #expect(update.transaction.originalId == update.transaction.id)
        #expect(update.transaction.quantity == 3)
        #expect(update.transaction.payment.applicationUsername == "order-1")
        #expect(update.receipt != nil)
    }

    @Test(arguments: [
        (PaymentOutcome.cancel, StoreError.storeKit(.paymentCancelled)),
        (.fail(.clientInvalid), .storeKit(.clientInvalid)),
        (.fail(.paymentMethodBindingConfigurationRequired), .storeKit(.paymentMethodBindingConfigurationRequired)),
        (.network(.timedOut), .network(.timedOut)),
    ])
    func forcedOutcomeFailsWithItsError(outcome: PaymentOutcome, error: StoreError) async throws {
        let fixture = try StoreFixture()
        try await fixture.setControls { $0.nextOutcome = outcome }
        let update = try await fixture.buy(StoreFixture.gems)
        #expect(update.transaction.state == .failed)
        #expect(update.transaction.error == error)
        #expect(update.receipt == nil)
        // The next outcome is one-shot.
        #expect(try await fixture.buy(StoreFixture.gems).transaction.state == .purchased)
    }

    @Test func storeRulesChooseTheErrorCode() async throws {
        let fixture = try StoreFixture()
        #expect(try await fixture.buy("com.example.unknown").transaction.error == .storeKit(.paymentInvalid))
        #expect(try await fixture.buy(StoreFixture.removed).transaction.error == .storeKit(.paymentInvalid))
        #expect(
            try await fixture.buy(StoreFixture.lifetime, account: "wei").transaction.error
                == .storeKit(.storeProductNotAvailable))
        #expect(
            try await fixture.buy(StoreFixture.gems, account: "restricted").transaction.error
                == .storeKit(.paymentNotAllowed))
        try await fixture.setControls { $0.paymentsAllowed = false }
        #expect(try await fixture.buy(StoreFixture.gems).transaction.error == .storeKit(.paymentNotAllowed))
    }

    @Test func askToBuyDefersUntilApprovedOrDeclined() async throws {
        let fixture = try StoreFixture()
        let deferred = try await fixture.buy(StoreFixture.removeAds, account: "kid")
        #expect(deferred.transaction.state == .deferred)
        await #expect(throws: StoreFailure.self) {
            try await fixture.store.finish(transactionId: deferred.transaction.id, account: "kid")
        }
        let approved = try await fixture.store.perform(.approveAskToBuy(deferred.transaction.id))
        #expect(approved.first?.transaction.state == .purchased)
        let second = try await fixture.buy(StoreFixture.gems, account: "kid")
        let declined = try await fixture.store.perform(.declineAskToBuy(second.transaction.id))
        #expect(declined.isEmpty, "the app is sent nothing for a decline")
    }

    /// Xcode's interrupted-purchases switch: every purchase is interrupted, not the next one
    /// only, and each resolves; a one-shot outcome still comes first.
    @Test func everyPurchaseIsInterruptedWhileInterruptedPurchasesIsOn() async throws {
        let fixture = try StoreFixture()
        try await fixture.setControls { $0.interruptedPurchases = true }
        for _ in 0..<2 {
            let failed = try await fixture.buy(StoreFixture.gems)
            #expect(failed.transaction.state == .failed)
            let resolved = try await fixture.store.perform(.resolveIssue(failed.transaction.id))
            #expect(resolved.map(\.transaction.state) == [.purchased])
        }
        try await fixture.setControls { $0.nextOutcome = .cancel }
        let cancelled = try await fixture.buy(StoreFixture.gems)
        await #expect(throws: StoreFailure.self) {
            try await fixture.store.perform(.resolveIssue(cancelled.transaction.id))
        }
        try await fixture.setControls { $0.interruptedPurchases = false }
        #expect(try await fixture.buy(StoreFixture.gems).transaction.state == .purchased)
    }

    @Test func interruptedPurchaseFailsThenResolvesAsNewPurchase() async throws {
        let fixture = try StoreFixture()
        try await fixture.setControls { $0.nextOutcome = .interrupted }
        let failed = try await fixture.buy(StoreFixture.removeAds, order: "o-7")
        #expect(failed.transaction.state == .failed)
        try await fixture.store.finish(transactionId: failed.transaction.id, account: "alice")
        let resolved = try await fixture.store.perform(.resolveIssue(failed.transaction.id))
        #expect(resolved.count == 1)
        #expect(resolved[0].transaction.state == .purchased)
        #expect(resolved[0].transaction.payment.applicationUsername == "o-7")
        await #expect(throws: StoreFailure.self) {
            try await fixture.store.perform(.resolveIssue(failed.transaction.id))
        }
    }

    @Test func unfinishedTransactionsAreRedeliveredAfterReopening() async throws {
        let first = try StoreFixture()
        let bought = try await first.buy(StoreFixture.gems)
        let failed = try await { () async throws -> TransactionUpdate in
            try await first.setControls { $0.nextOutcome = .fail(.unknown) }
            return try await first.buy(StoreFixture.gems)
        }()
        let reopened = try StoreFixture(directory: first.directory)
        let redelivered = try await reopened.store.unfinished(account: "alice").map(\.transaction.id)
        #expect(Set(redelivered) == [bought.transaction.id, failed.transaction.id])
        try await reopened.store.finish(transactionId: bought.transaction.id, account: "alice")
        try await reopened.store.finish(transactionId: failed.transaction.id, account: "alice")
        #expect(try await reopened.store.unfinished(account: "alice").isEmpty)
    }

    @Test func theOpeningControlsAreTheStoredOnes() async throws {
        let first = try StoreFixture()
        #expect(first.store.openingControls == (try await first.store.controls()))
        try await first.setControls {
            $0.askToBuy = true
            $0.storefront = "JPN"
            $0.account = "bob"
        }
        let reopened = try StoreFixture(directory: first.directory)
        #expect(reopened.store.openingControls == (try await first.store.controls()))
        #expect(reopened.store.openingControls.storefront == "JPN" && reopened.store.openingControls.account == "bob")
    }

    @Test func quantityOutsideOneToTenIsRefused() async throws {
        let fixture = try StoreFixture()
        await #expect(throws: StoreFailure.self) {
            _ = try await fixture.store.add(Payment(productId: StoreFixture.gems, quantity: 11, account: "alice"))
        }
    }
}

/// An app finishes only its account's own transactions: another account's is not found, and
/// stays unfinished for its own app to deliver.
@Suite struct FinishOwnershipTests {
    @Test func anotherAccountsTransactionIsNotFinished() async throws {
        let fixture = try StoreFixture()
        let bought = try await fixture.buy(StoreFixture.gems)
        let refused = await #expect(throws: StoreFailure.self) {
            try await fixture.store.finish(transactionId: bought.transaction.id, account: "kid")
        }
        #expect(refused?.kind == .notFound && refused?.message.contains("kid has no transaction") == true)
        #expect(try await fixture.store.unfinished(account: "alice").map(\.transaction.id) == [bought.transaction.id])
        try await fixture.store.finish(transactionId: bought.transaction.id, account: "alice")
        #expect(try await fixture.store.unfinished(account: "alice").isEmpty)
    }
}
