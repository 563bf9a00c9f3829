import Foundation
import StoreCore
import StoreEngine
import StoreKitModel
import TestSupport
import Testing

/// One plan per subscription group: an upgrade replaces the plan now, a downgrade or a crossgrade
/// to another duration waits for its renewal.
@Suite struct SubscriptionGroupTests {
    static let day: TimeInterval = 86_400
    static let yearly = "com.example.storefront.premium.yearly"

    func active(_ fixture: StoreFixture) async throws -> [Entitlement] {
        try await fixture.store.entitlements(account: "alice").filter { $0.isActive(at: fixture.clock.now()) }
    }

    @Test func anUpgradeReplacesThePlanNowAtItsFullPrice() async throws {
        let fixture = try StoreFixture()
        _ = try await fixture.buy(StoreFixture.monthly)
        fixture.clock.advance(by: Self.day)
        let upgrade = try await fixture.buy(StoreFixture.plusMonthly)
        #expect(upgrade.transaction.terms?.price == Decimal(string: "9.99"), "the group's introductory offer was spent")
        // A month from 16 January, by the calendar: 31 days.
        #expect(upgrade.transaction.terms?.expirationDate == fixture.clock.now().addingTimeInterval(31 * Self.day))
        #expect(try await active(fixture).map(\.productId) == [StoreFixture.plusMonthly])
    }

    @Test func anUpgradeRefundsTheUnusedPartOfThePaidPeriod() async throws {
        let fixture = try StoreFixture()
        let trial = try await fixture.buy(StoreFixture.monthly)
        fixture.clock.advance(
            by: try #require(trial.transaction.terms?.expirationDate).timeIntervalSince(fixture.clock.now()) + 1)
        try await fixture.store.scheduler.runDue()
        let paid = try #require(try await fixture.store.transactions(account: "alice").first)
        #expect(paid.terms?.price == Decimal(string: "4.99"))
        fixture.clock.advance(by: 15.5 * Self.day - 1)  // half the month from 22 January, 31 days
        _ = try await fixture.buy(StoreFixture.plusMonthly)

        let replaced = try #require(try await fixture.store.transactions(account: "alice").first { $0.id == paid.id })
        #expect(
            replaced.terms?.upgrade
                == Upgrade(date: fixture.clock.now(), refund: try #require(Decimal(string: "2.49"))),
            "half of 4.99, rounded down to the cent")
        #expect(replaced.terms?.expirationDate == paid.terms?.expirationDate, "a period's expiry never changes")
        let upgrade = try #require(try await fixture.store.transactions(account: "alice").first)
        #expect(upgrade.originalId == trial.transaction.id, "an upgrade continues the subscription")
        let trialNow = try #require(
            try await fixture.store.transactions(account: "alice").first { $0.id == trial.transaction.id })
        #expect(trialNow.terms?.upgrade == nil, "only the period in force is replaced")
    }

    @Test func aProratedRefundNeverExceedsWhatWasPaid() {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let end = start.addingTimeInterval(30 * Self.day)
        let refund = { (paid: String, currency: String, at: TimeInterval) in
            Upgrade.proratedRefund(
                of: Decimal(string: paid)!, currency: currency, start: start, end: end, at: start.addingTimeInterval(at)
            )
        }
        #expect(refund("4.99", "USD", 0) == Decimal(string: "4.99"))
        #expect(refund("4.99", "USD", 10 * Self.day) == Decimal(string: "3.32"))
        #expect(refund("160", "JPY", 10 * Self.day) == 106, "no minor unit in yen")
        #expect(refund("4.99", "USD", 30 * Self.day) == 0)
        #expect(refund("4.99", "USD", 31 * Self.day) == 0)
        #expect(refund("0", "USD", Self.day) == 0, "a free trial refunds nothing")
        #expect(refund("4.99", "USD", -Self.day) == Decimal(string: "4.99"), "never more than was paid")
    }

    @Test func aDowngradeChargesNothingNowAndRenewsToTheNewPlan() async throws {
        let fixture = try StoreFixture()
        let plus = try await fixture.buy(StoreFixture.plusMonthly)
        let expiry = try #require(plus.transaction.terms?.expirationDate)
        let downgrade = try await fixture.buy(StoreFixture.monthly)
        #expect(downgrade.transaction.state == .restored, "the payment completes as a copy in the subscription")
        #expect(downgrade.transaction.originalId == plus.transaction.id)
        #expect(downgrade.transaction.terms?.price == 0)
        // StoreKit answers a downgrade with the period in force: the copy carries its expiry.
        #expect(downgrade.transaction.terms?.expirationDate == expiry)
        let inForce = try await active(fixture)
        #expect(inForce.map(\.productId) == [StoreFixture.plusMonthly], "two plans of one group in force")
        #expect(inForce.first?.renewal?.autoRenewProductId == StoreFixture.monthly)

        fixture.clock.advance(by: expiry.timeIntervalSince(fixture.clock.now()) + 1)
        try await fixture.store.scheduler.runDue()
        let renewal = try #require(try await fixture.store.transactions(account: "alice").first)
        #expect(renewal.productId == StoreFixture.monthly)
        #expect(renewal.originalId == plus.transaction.id, "the chain continues in the new plan")
        #expect(renewal.purchaseDate == expiry)
        #expect(renewal.terms?.price == Decimal(string: "4.99"))
        #expect(try await active(fixture).map(\.productId) == [StoreFixture.monthly])
    }

    @Test func aCrossgradeToAnotherDurationWaitsForTheRenewal() async throws {
        let fixture = try StoreFixture()
        _ = try await fixture.buy(StoreFixture.monthly)
        let yearly = try await fixture.buy(Self.yearly)
        #expect(yearly.transaction.terms?.price == 0)
        #expect(try await active(fixture).first?.renewal?.autoRenewProductId == Self.yearly)
    }

    /// A restore gives each subscription's latest period: not a plan an upgrade replaced, nor
    /// the copy a downgrade completed with.
    @Test func aRestoreListsOnlyThePlanInForce() async throws {
        let fixture = try StoreFixture()
        _ = try await fixture.buy(StoreFixture.monthly)
        let plus = try await fixture.buy(StoreFixture.plusMonthly)
        _ = try await fixture.buy(Self.yearly)
        let restored = try await fixture.store.restore(account: "alice")
        #expect(restored.map(\.transaction.productId) == [StoreFixture.plusMonthly])
        #expect(restored.first?.transaction.terms?.expirationDate == plus.transaction.terms?.expirationDate)
    }

    @Test func buyingThePlanInForceAgainCallsOffAWaitingDowngrade() async throws {
        let fixture = try StoreFixture()
        _ = try await fixture.buy(StoreFixture.plusMonthly)
        _ = try await fixture.buy(StoreFixture.monthly)
        let again = try await fixture.buy(StoreFixture.plusMonthly)
        #expect(again.transaction.terms?.price == 0)
        let plan = try #require(try await active(fixture).first)
        #expect(plan.productId == StoreFixture.plusMonthly)
        #expect(plan.renewal?.autoRenewProductId == StoreFixture.plusMonthly)
    }

    @Test func theQuoteSaysWhatTheStoreWillDo() throws {
        let catalog = try StoreFixture.catalog()
        let monthly = try #require(catalog.product(id: StoreFixture.monthly))
        let plus = try #require(catalog.product(id: StoreFixture.plusMonthly))
        let renews = Date(timeIntervalSince1970: 1_900_000_000)
        let onMonthly = Holdings(activeSubscriptions: [StoreFixture.monthly: renews], groupsSubscribed: ["premium"])
        #expect(
            PurchaseRules.quote(plus, quantity: 1, storefront: "USA", holdings: onMonthly, catalog: catalog).basis
                == .replacesNow(StoreFixture.monthly, refund: 0))
        let onPlus = Holdings(activeSubscriptions: [StoreFixture.plusMonthly: renews], groupsSubscribed: ["premium"])
        let down = PurchaseRules.quote(monthly, quantity: 1, storefront: "USA", holdings: onPlus, catalog: catalog)
        #expect(down.basis == .atNextRenewal(from: StoreFixture.plusMonthly, on: renews))
        #expect(down.price == 0)
    }
}
