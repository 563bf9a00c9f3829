import AppSide
import Foundation
import LocalState
import StoreCore
import StoreEngine
import StoreKitModel
import TestSupport
import Testing

/// The store rules where they meet each other: an offer kept across Ask to Buy and interrupted
/// purchases, a billing retry that auto-renew off ends, a replaced plan that a forced renewal
/// must not bring back, and a purchase update that arrives after its refund.
@Suite struct StoreRuleEdgeCaseTests {
    func buy(_ fixture: StoreFixture, _ offer: PaymentOffer?, account: String = "alice") async throws
        -> TransactionUpdate
    {
        let updates = await fixture.store.updates()
        let started = try await fixture.store.add(
            Payment(productId: StoreFixture.monthly, applicationUsername: "o", account: account, offer: offer))
        for await update in updates where update.transaction.id == started.id && update.transaction.state != .purchasing
        { return update }
        throw StoreFailure("no outcome")
    }

    @Test func aDeclinedAskToBuyGivesItsOfferCodeBack() async throws {
        let fixture = try StoreFixture()
        let asked = try await buy(fixture, .code("FREEMONTH01"), account: "kid")
        #expect(asked.transaction.state == .deferred)
        _ = try await fixture.store.perform(.declineAskToBuy(asked.transaction.id))
        #expect(try await buy(fixture, .code("FREEMONTH01")).transaction.terms?.offer?.type == .code)
    }

    @Test func aResolvedInterruptedPurchaseKeepsItsOffer() async throws {
        let fixture = try StoreFixture()
        try await fixture.setControls { $0.nextOutcome = .interrupted }
        let interrupted = try await buy(fixture, .code("FREEMONTH02"))
        #expect(interrupted.transaction.state == .failed)
        let resolved = try #require(
            try await fixture.store.perform(.resolveIssue(interrupted.transaction.id)).first?.transaction)
        #expect(resolved.terms?.offer?.type == .code)
        #expect(resolved.terms?.price == 0)
    }

    @Test func autoRenewOffDuringBillingRetryEndsIt() async throws {
        let fixture = try StoreFixture()
        try await fixture.setControls { $0.billingIssues = true }
        let id = try await fixture.buy(StoreFixture.monthly).transaction.id
        fixture.clock.advance(by: 8 * 86_400)
        try await fixture.store.scheduler.runDue()
        _ = try await fixture.store.perform(.setAutoRenew(id, false))
        let ended = try #require(try await fixture.store.entitlements(account: "alice").first)
        #expect(ended.renewal?.isInBillingRetry == false)
        #expect(ended.renewal?.expirationReason == .autoRenewDisabled)
    }

    /// The account has one subscription in the group: renewing it through a period an upgrade
    /// replaced renews the plan in force, never the replaced plan.
    @Test func aForcedRenewalDoesNotBringBackAReplacedPlan() async throws {
        let fixture = try StoreFixture()
        let monthly = try await fixture.buy(StoreFixture.monthly).transaction.id
        _ = try await fixture.buy(StoreFixture.plusMonthly)  // an upgrade: the monthly plan ends now
        let renewed = try await fixture.store.perform(.forceRenewal(monthly))
        #expect(renewed.map(\.transaction.productId) == [StoreFixture.plusMonthly])
        #expect(renewed.map(\.transaction.originalId) == [monthly])
    }

    @Test func aPurchaseUpdateArrivingAfterItsRefundGrantsNothing() async throws {
        let fixture = try StoreFixture()
        let state = StateDirectory(url: fixture.directory)
        let (ledger, _) = try AppLedger(state: state).bound(to: fixture.store.storeId())
        let observer = PurchaseObserver(
            store: fixture.store, ledger: ledger, catalog: try StoreFixture.catalog(), clock: fixture.clock)
        let bought = try await fixture.buy(StoreFixture.gems)
        let refund = try #require(try await fixture.store.perform(.refund(bought.transaction.id)).first)
        _ = try await observer.handle(refund)
        #expect(try ledger.balances(account: "alice")["gems", default: 0] == 0)
        _ = try await observer.handle(bought)  // the purchase, published late
        #expect(try ledger.balances(account: "alice")["gems", default: 0] == 0, "a refunded purchase was credited")
    }
}
