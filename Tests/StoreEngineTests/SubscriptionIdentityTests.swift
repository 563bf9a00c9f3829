import Foundation
import ServerRecords
import StoreCore
import StoreEngine
import StoreKitModel
import TestSupport
import Testing

/// One subscription per account and group, with one original transaction id for life, as the
/// App Store keeps it: plan changes, resubscriptions and offers continue it.
@Suite struct SubscriptionIdentityTests {

    func periods(_ fixture: StoreFixture) async throws -> [Transaction] {
        try await fixture.store.transactions(account: "alice").filter { $0.state == .purchased }.reversed()
    }

    @Test func anUpgradeAndADowngradeKeepOneOriginalId() async throws {
        let fixture = try StoreFixture.notifying()
        let first = try await fixture.buy(StoreFixture.monthly).transaction
        let upgrade = try await fixture.buy(StoreFixture.plusMonthly).transaction
        let downgrade = try await fixture.buy(StoreFixture.monthly).transaction
        #expect([upgrade.originalId, downgrade.originalId] == [first.id, first.id])
        #expect(downgrade.state == .restored, "a downgrade starts nothing now")
        let statuses = try await fixture.store.serverAPI.subscriptionStatuses(account: "alice")
        #expect(statuses.map(\.originalTransactionId) == [first.id], "one subscription in the group")
        #expect(statuses.first?.status == .active)
        #expect(statuses.first?.latest.transaction.id == upgrade.id)
        #expect(statuses.first?.renewal.autoRenewProductId == StoreFixture.monthly)
        #expect(statuses.first?.renewal.expirationReason == nil, "the upgraded plan was not cancelled")
        let upgraded = try #require(try await periods(fixture).first { $0.id == first.id })
        #expect(upgraded.terms?.upgrade != nil)
        #expect(upgraded.terms?.expirationDate == first.terms?.expirationDate, "its expiry never changes")
        let wallet = try await fixture.store.entitlements(account: "alice")
        #expect(wallet.map(\.transactionId) == [upgrade.id], "one entry per group: the plan in force")
        let changes = try await fixture.store.notifications.recent(limit: 2)
        #expect(
            changes.map(\.notification.transactionId) == [upgrade.id, upgrade.id], "both tell of the plan in force")
    }

    @Test func aResubscriptionAfterALapseContinuesTheSubscription() async throws {
        let fixture = try StoreFixture()
        let first = try await fixture.buy(StoreFixture.monthly).transaction
        _ = try await fixture.store.perform(.setAutoRenew(first.id, false))
        fixture.clock.advance(by: try #require(first.terms?.expirationDate).timeIntervalSince(fixture.clock.now()) + 60)
        let again = try await fixture.buy(StoreFixture.plusMonthly).transaction
        #expect(again.state == .purchased)
        #expect(again.originalId == first.id)
        #expect(try await fixture.store.serverAPI.subscriptionStatuses(account: "alice").count == 1)
    }

    /// Renewal info names the win-back offers the customer may take, by the one eligibility rule:
    /// none while subscribed, the catalog's once the subscription has lapsed.
    @Test func aLapsedSubscriptionsRenewalInfoNamesItsWinBackOffers() async throws {
        let fixture = try StoreFixture()
        let first = try await fixture.buy(StoreFixture.monthly).transaction
        #expect(
            try await fixture.store.serverAPI.subscriptionStatuses(account: "alice").first?.eligibleWinBackOfferIds
                == nil)
        _ = try await fixture.store.perform(.expireSubscription(first.id))
        fixture.clock.advance(by: 60)
        let lapsed = try #require(try await fixture.store.serverAPI.subscriptionStatuses(account: "alice").first)
        #expect(lapsed.status == .expired)
        #expect(lapsed.eligibleWinBackOfferIds == ["com.example.storefront.premium.comeback"])
    }

    @Test func buyingThePlanInForceAgainCallsOffAWaitingDowngrade() async throws {
        let fixture = try StoreFixture.notifying()
        let plus = try await fixture.buy(StoreFixture.plusMonthly).transaction
        _ = try await fixture.buy(StoreFixture.monthly)
        #expect(
            try await fixture.store.entitlements(account: "alice").first?.renewal?.autoRenewProductId
                == StoreFixture.monthly)
        let again = try await fixture.buy(StoreFixture.plusMonthly).transaction
        #expect(again.state == .restored)
        #expect(again.terms?.price == 0)
        #expect(again.terms?.expirationDate == plus.terms?.expirationDate)
        let inForce = try #require(try await fixture.store.entitlements(account: "alice").first)
        #expect(inForce.transactionId == plus.id)
        #expect(inForce.renewal?.autoRenewProductId == StoreFixture.plusMonthly)
        #expect(
            try await fixture.told() == [
                "SUBSCRIBED/INITIAL_BUY", "DID_CHANGE_RENEWAL_PREF/DOWNGRADE", "DID_CHANGE_RENEWAL_PREF",
            ])
        #expect(try await periods(fixture).map(\.id) == [plus.id], "no period but the one paid for")
    }

    @Test func aRedownloadIsNotAPurchaseAndItsRefundIsThePaidOnes() async throws {
        let fixture = try StoreFixture()
        let paid = try await fixture.buy(StoreFixture.removeAds).transaction
        let again = try await fixture.buy(StoreFixture.removeAds).transaction
        #expect(again.state == .restored)
        #expect(again.originalId == paid.id)
        let history = try await fixture.store.serverAPI.history(
            account: "alice", filter: HistoryFilter(), after: nil, limit: 10)
        #expect(history.transactions.map(\.transaction.id) == [paid.id], "the App Store has one purchase")
        let refunded = try await fixture.store.perform(.refund(again.id))
        #expect(refunded.map(\.transaction.id) == [paid.id])
        #expect(try await fixture.store.entitlements(account: "alice").isEmpty)
    }

    @Test func recoveryInTheGracePeriodKeepsTheRenewalDate() async throws {
        let fixture = try StoreFixture()
        try await fixture.setControls {
            $0.billingIssues = true
            $0.gracePeriod = true
        }
        let first = try await fixture.buy(StoreFixture.monthly).transaction
        let renewalDate = try #require(first.terms?.expirationDate)
        try await fixture.pass(renewalDate.timeIntervalSince(fixture.clock.now()) + 5 * 86_400)
        let retrying = try #require(try await fixture.store.entitlements(account: "alice").first)
        #expect(retrying.renewal?.isInBillingRetry == true)
        #expect(retrying.renewal?.expirationReason == .billingError, "Apple reports intent 2 while retrying")
        try await fixture.setControls { $0.billingIssues = false }
        let recovered = try #require(try await fixture.store.perform(.resolveIssue(first.id)).first?.transaction)
        #expect(recovered.purchaseDate == fixture.clock.now(), "billed when it recovered")
        let expiry = try #require(recovered.terms?.expirationDate)
        let days = expiry.timeIntervalSince(renewalDate) / 86_400
        #expect((28...31).contains(days), "a month from the renewal date, not from the recovery (\(days) days)")
        #expect(recovered.originalId == first.id)
    }
}
