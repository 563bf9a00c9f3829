import AppSide
import Foundation
import StoreCore
import StoreKitModel
import TestSupport
import Testing

/// A refund the App Store reverses (REFUND_REVERSED): the app gives back what the refund took,
/// once, whether it hears the reversal as an update or finds it at launch.
@Suite struct RefundReversalAppTests {
    @Test func aReversedRefundGivesTheConsumablesCreditBackOnce() async throws {
        let fixture = try StoreFixture()
        let app = try AppSideTests.App(fixture)
        let (bought, _) = try await app.buy(StoreFixture.gems, quantity: 3)
        let id = bought.transaction.id
        let refund = try #require(try await fixture.store.perform(.refund(id)).first)
        #expect(
            try await app.observer.handle(refund) == [.revoked(transactionId: id, balance: "gems", amount: 300)])
        #expect(try app.ledger.balances(account: "alice") == ["gems": 0])
        let reversal = try #require(try await fixture.store.perform(.reverseRefund(id)).first)
        #expect(
            try await app.observer.handle(reversal) == [.reinstated(transactionId: id, balance: "gems", amount: 300)])
        #expect(try app.ledger.balances(account: "alice") == ["gems": 300])
        #expect(try app.ledger.deliveryCount(transactionId: id) == 1)
        let again = try await app.observer.handle(reversal)
        #expect(again.first == .delivered(transactionId: id, firstTime: false), "the reversal heard twice")
        #expect(try app.ledger.balances(account: "alice") == ["gems": 300])
        // A second refund of the same transaction is acted on again.
        let second = try #require(try await fixture.store.perform(.refund(id)).first)
        #expect(
            try await app.observer.handle(second) == [.revoked(transactionId: id, balance: "gems", amount: 300)])
        #expect(try app.ledger.balances(account: "alice") == ["gems": 0])
    }

    @Test func aReversalFoundAtLaunchUnlocksWhatTheRefundWithdrew() async throws {
        let fixture = try StoreFixture()
        let app = try AppSideTests.App(fixture)
        let (bought, _) = try await app.buy(StoreFixture.removeAds)
        let id = bought.transaction.id
        _ = try await fixture.store.perform(.refund(id))
        // Both happen while the app is not running: it acts on each at its next launches.
        #expect(
            try await app.observer.reconcileRevocations(account: "alice") == [
                .revoked(transactionId: id, balance: nil, amount: 0)
            ])
        #expect(try app.ledger.deliveryCount(transactionId: id) == 0)
        _ = try await fixture.store.perform(.reverseRefund(id))
        #expect(
            try await app.observer.reconcileRevocations(account: "alice") == [
                .reinstated(transactionId: id, balance: nil, amount: 0)
            ])
        #expect(try app.ledger.deliveryCount(transactionId: id) == 1)
        #expect(try await app.observer.reconcileRevocations(account: "alice") == [], "acted on once")
    }

    /// A purchase update published late, after the refund was acted on, carries no reversal:
    /// it grants nothing.
    @Test func aLatePurchaseUpdateIsNotAReversal() async throws {
        let fixture = try StoreFixture()
        let app = try AppSideTests.App(fixture)
        let (bought, _) = try await app.buy(StoreFixture.gems)
        let id = bought.transaction.id
        let refund = try #require(try await fixture.store.perform(.refund(id)).first)
        _ = try await app.observer.handle(refund)
        _ = try await app.observer.handle(bought)
        #expect(try app.ledger.balances(account: "alice") == ["gems": 0])
    }
}
