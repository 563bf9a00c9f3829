import Foundation
import ServerRecords
import StoreCore
import StoreEngine
import StoreKitModel
import TestSupport
import Testing

/// A refund revokes a transaction with a date and a reason and changes nothing else it says: a
/// subscription's expiration date stays what it was, and the revocation alone ends its access.
@Suite struct RefundTests {
    static let day: TimeInterval = 86_400

    @Test func aRefundKeepsTheExpiryAndEndsTheSubscription() async throws {
        let fixture = try StoreFixture()
        fixture.store.outbox.setURLs(["http://127.0.0.1:9/notifications"])
        let bought = try await fixture.buy(StoreFixture.monthly)
        let expiry = try #require(bought.transaction.terms?.expirationDate)
        fixture.clock.advance(by: 3600)
        let refunded = try #require(try await fixture.store.perform(.refund(bought.transaction.id)).first?.transaction)
        #expect(refunded.terms?.expirationDate == expiry, "the period's end is a fact of the purchase")
        #expect(refunded.terms?.revocation == Revocation(date: fixture.clock.now(), reason: .other))
        let stored = try #require(try await fixture.store.transactions(account: "alice").first)
        #expect(stored.terms?.expirationDate == expiry)

        // Revoked, so no longer in force, though its expiry is ahead.
        #expect(try await fixture.store.entitlements(account: "alice").isEmpty)
        let status = try #require(
            try await fixture.store.serverAPI.subscriptionStatus(originalTransactionId: refunded.originalId))
        #expect(status.status == .revoked)
        #expect(status.renewal.willAutoRenew == false)
        await #expect(throws: StoreFailure.self) {
            try await fixture.store.perform(.setAutoRenew(refunded.id, true))
        }
        // Bought again: a new period at its price, not "already subscribed" to the refunded one; the
        // account's subscription in the group keeps its original id.
        let again = try await fixture.buy(StoreFixture.monthly)
        #expect(again.transaction.originalId == refunded.originalId)
        #expect(again.transaction.terms?.price == Decimal(string: "4.99"))

        // Its old expiry passing neither renews nor expires the refunded subscription again.
        fixture.clock.advance(by: expiry.timeIntervalSince(fixture.clock.now()) + 1)
        try await fixture.store.scheduler.runDue()
        try await fixture.store.scheduler.runDue()
        let chain = try await fixture.store.transactions(account: "alice").filter {
            $0.originalId == refunded.originalId
        }
        #expect(chain.map(\.id) == [again.transaction.id, refunded.id], "nothing renewed the refunded period")
        let told = try await fixture.store.notifications.recent(limit: 100).map(\.notification)
        #expect(told.map(\.event.type) == [.subscribed, .refund, .subscribed])
    }

    /// A prorated refund revokes the transaction as a full one does, keeping the share it gave
    /// back; servers hear REFUND as for any refund (Apple has no other type for it); a reversal
    /// takes the share away with the revocation.
    @Test func aProratedRefundKeepsItsShare() async throws {
        let fixture = try StoreFixture.notifying()
        let gems = try await fixture.buy(StoreFixture.gems).transaction.id
        let share = try #require(RefundPercentage(text: "25.5"))
        let updates = try await fixture.store.perform(.refund(gems, reason: .other, percentage: share))
        #expect(updates.first?.transaction.terms?.revocation?.percentage == share)
        let stored = try #require(try await fixture.store.transactions(account: "alice").first)
        #expect(stored.terms?.revocation?.percentage == share)
        let journaled = try await fixture.store.journal(account: "alice", after: 0, limit: 10)
        #expect(journaled.last?.update.transaction.terms?.revocation?.percentage == share)
        #expect(try await fixture.told() == ["ONE_TIME_CHARGE", "REFUND"])
        let reversed = try await fixture.store.perform(.reverseRefund(gems))
        #expect(reversed.first?.transaction.terms?.revocation == nil)
    }

    @Test func aRefundForAnIssueWithTheAppSaysSo() async throws {
        let fixture = try StoreFixture()
        let gems = try await fixture.buy(StoreFixture.gems)
        let updates = try await fixture.store.perform(.refund(gems.transaction.id, reason: .developerIssue))
        #expect(updates.first?.transaction.terms?.revocation?.reason == .developerIssue)
        let stored = try #require(try await fixture.store.transactions(account: "alice").first)
        #expect(stored.terms?.revocation?.reason == .developerIssue)
    }

    /// In a currency with three decimals the upgrade refunds to the fils: two thirds of 1.500 KWD
    /// is 0.999, where rounding to hundredths would give 0.99.
    @Test func anUpgradeInDinarsRefundsToTheFils() async throws {
        let fixture = try StoreFixture(catalog: try KuwaitCatalog.catalog())
        let account = KuwaitCatalog.account
        let trial = try await fixture.buy(StoreFixture.monthly, account: account)
        fixture.clock.advance(
            by: try #require(trial.transaction.terms?.expirationDate).timeIntervalSince(fixture.clock.now()) + 1)
        try await fixture.store.scheduler.runDue()
        let paid = try #require(try await fixture.store.transactions(account: account).first)
        #expect(paid.terms?.price == Decimal(string: "1.5"))
        #expect(paid.terms?.currency == "KWD")
        let start = paid.purchaseDate
        let end = try #require(paid.terms?.expirationDate)
        fixture.clock.advance(by: end.timeIntervalSince(start) / 3 - fixture.clock.now().timeIntervalSince(start))
        let upgrade = try await fixture.buy(StoreFixture.plusMonthly, account: account)
        #expect(upgrade.transaction.terms?.price == Decimal(string: "2.99"))
        let replaced = try #require(try await fixture.store.transactions(account: account).first { $0.id == paid.id })
        #expect(replaced.terms?.upgrade?.refund == Decimal(string: "0.999"))
    }

    @Test func aDinarPurchaseChargesThePriceTimesTheQuantity() async throws {
        let fixture = try StoreFixture(catalog: try KuwaitCatalog.catalog())
        let bought = try await fixture.buy(StoreFixture.gems, account: KuwaitCatalog.account, quantity: 3)
        #expect(bought.transaction.terms?.price == Decimal(string: "3.75"))
        #expect(bought.transaction.terms?.currency == "KWD")
    }
}
