import Foundation
import ServerRecords
import StoreCore
import StoreEngine
import StoreKitModel
import TestSupport
import Testing

/// Which App Store Server Notification each store event writes to the outbox, in the event's
/// own commit, and how the outbox schedules Apple's retries.
@Suite struct ServerNotificationTests {
    static let day: TimeInterval = 86_400
    static let url = StoreFixture.notificationURL

    @Test func withoutAURLNothingIsWritten() async throws {
        let fixture = try StoreFixture()
        _ = try await fixture.buy(StoreFixture.monthly)
        #expect(try await fixture.told().isEmpty)
        #expect(try await fixture.store.notifications.requestTest() == nil)
    }

    /// ONE_TIME_CHARGE is a sandbox notification at Apple; every other type is sent everywhere.
    @Test func aOneTimeChargeIsNotSentInProduction() {
        #expect(!NotificationEvent(.oneTimeCharge).isSent(in: .production))
        for environment in [StoreEnvironment.sandbox, .xcode, .localTesting] {
            #expect(NotificationEvent(.oneTimeCharge).isSent(in: environment))
        }
        #expect(NotificationEvent(.subscribed, .initialBuy).isSent(in: .production))
        #expect(NotificationEvent(.refund).isSent(in: .production))
    }

    @Test func purchasesTellWhatWasBought() async throws {
        let fixture = try StoreFixture.notifying()
        _ = try await fixture.buy(StoreFixture.gems)
        _ = try await fixture.buy(StoreFixture.removeAds)
        _ = try await fixture.buy(StoreFixture.removeAds)  // owned: delivered again, nothing charged
        _ = try await fixture.buy(StoreFixture.monthly)
        _ = try await fixture.buy(StoreFixture.plusMonthly)  // a higher level: replaces it now
        _ = try await fixture.buy(StoreFixture.monthly)  // a lower level: waits for the renewal
        #expect(
            try await fixture.told() == [
                "ONE_TIME_CHARGE", "ONE_TIME_CHARGE", "SUBSCRIBED/INITIAL_BUY", "DID_CHANGE_RENEWAL_PREF/UPGRADE",
                "DID_CHANGE_RENEWAL_PREF/DOWNGRADE",
            ])
        let downgrade = try #require(try await fixture.store.notifications.recent(limit: 1).first)
        let plus = try #require(
            try await fixture.store.transactions(account: "alice").first { $0.productId == StoreFixture.plusMonthly })
        #expect(
            downgrade.notification.transactionId == plus.id,
            "a downgrade tells of the plan in force, which renews to it")
        #expect(downgrade.pending[Self.url] != nil, "due at the URL")
    }

    @Test func aSubscriptionsLifeIsToldStepByStep() async throws {
        let fixture = try StoreFixture.notifying()
        let id = try await fixture.buy(StoreFixture.monthly).transaction.id
        fixture.clock.advance(by: 8 * Self.day)
        try await fixture.store.scheduler.runDue()
        _ = try await fixture.store.perform(.priceIncrease(id, .request))
        _ = try await fixture.store.perform(.priceIncrease(id, .consent))
        _ = try await fixture.store.perform(.setAutoRenew(id, false))
        _ = try await fixture.store.perform(.setAutoRenew(id, true))
        _ = try await fixture.store.perform(.setAutoRenew(id, false))
        try await fixture.store.scheduler.runDue()
        fixture.clock.advance(by: 31 * Self.day)
        try await fixture.store.scheduler.runDue()
        try await fixture.store.scheduler.runDue()
        #expect(
            try await fixture.told() == [
                "SUBSCRIBED/INITIAL_BUY", "DID_RENEW", "PRICE_INCREASE/PENDING", "PRICE_INCREASE/ACCEPTED",
                "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED", "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_ENABLED",
                "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED", "EXPIRED/VOLUNTARY",
            ])
        _ = try await fixture.buy(StoreFixture.monthly)
        #expect(try await fixture.told().last == "SUBSCRIBED/RESUBSCRIBE")
    }

    @Test func billingIssuesGraceAndRecoveryAreTold() async throws {
        let fixture = try StoreFixture.notifying()
        try await fixture.setControls {
            $0.billingIssues = true
            $0.gracePeriod = true
        }
        let id = try await fixture.buy(StoreFixture.monthly).transaction.id
        try await fixture.store.scheduler.runDue()
        fixture.clock.advance(by: 8 * Self.day)
        try await fixture.store.scheduler.runDue()
        fixture.clock.advance(by: 17 * Self.day)
        try await fixture.store.scheduler.runDue()
        _ = try await fixture.store.perform(.resolveIssue(id))
        let recovered = try #require(try await fixture.store.transactions(account: "alice").first)
        _ = try await fixture.store.perform(.refund(recovered.id))
        #expect(
            try await fixture.told() == [
                "SUBSCRIBED/INITIAL_BUY", "DID_FAIL_TO_RENEW/GRACE_PERIOD", "GRACE_PERIOD_EXPIRED",
                "DID_RENEW/BILLING_RECOVERY", "REFUND",
            ])
    }

    @Test func billingRetryThatRunsOutExpiresOnce() async throws {
        let fixture = try StoreFixture.notifying()
        try await fixture.setControls { $0.billingIssues = true }
        _ = try await fixture.buy(StoreFixture.monthly)
        try await fixture.store.scheduler.runDue()
        fixture.clock.advance(by: 8 * Self.day)
        try await fixture.store.scheduler.runDue()
        fixture.clock.advance(by: 61 * Self.day)
        try await fixture.store.scheduler.runDue()
        try await fixture.store.scheduler.runDue()
        #expect(try await fixture.told() == ["SUBSCRIBED/INITIAL_BUY", "DID_FAIL_TO_RENEW", "EXPIRED/BILLING_RETRY"])
    }

    @Test func failedAttemptsAreRetriedOnApplesScheduleThenGivenUp() async throws {
        let fixture = try StoreFixture.notifying()
        _ = try await fixture.buy(StoreFixture.gems)
        var waits: [TimeInterval] = []
        for _ in 0..<6 {
            let due = try #require(
                try await fixture.store.notifications.dueDeliveries(
                    at: fixture.clock.now(), urls: [Self.url], limit: 10
                ).first)
            try await fixture.store.notifications.recordAttempts([
                (
                    SendAttempt(
                        url: due.url, date: fixture.clock.now(), result: .timedOut, httpStatus: nil, detail: nil), due
                )
            ])
            guard let next = try await fixture.store.notifications.nextDeliveryDue(after: fixture.clock.now()) else {
                break
            }
            waits.append(next.timeIntervalSince(fixture.clock.now()))
            fixture.clock.advance(by: next.timeIntervalSince(fixture.clock.now()))
        }
        #expect(
            waits.map { ($0 / 3600).rounded() } == [1, 12, 24, 48, 72], "five retries, 1, 12, 24, 48 and 72 hours apart"
        )
        #expect(
            try await fixture.store.notifications.nextDeliveryDue(after: fixture.clock.now()) == nil,
            "given up after the fifth retry"
        )
        let record = try #require(try await fixture.store.notifications.recent(limit: 1).first)
        #expect(record.attempts.count == 6)
        #expect(record.pending.isEmpty)
    }

    @Test func aSuccessEndsDeliveryAndSendNowMakesRetriesDue() async throws {
        let fixture = try StoreFixture.notifying()
        try await fixture.setControls { $0.timeRate = .oneRenewalEvery2Seconds }
        _ = try await fixture.buy(StoreFixture.gems)
        _ = try await fixture.buy(StoreFixture.gems)
        let due = try await fixture.store.notifications.dueDeliveries(
            at: fixture.clock.now(), urls: [Self.url], limit: 10)
        #expect(due.count == 2)
        try await fixture.store.notifications.recordAttempts([
            (
                SendAttempt(url: Self.url, date: fixture.clock.now(), result: .success, httpStatus: 200, detail: nil),
                due[0]
            )
        ])
        try await fixture.store.notifications.recordAttempts([
            (
                SendAttempt(
                    url: Self.url, date: fixture.clock.now(), result: .unsuccessfulHTTPResponseCode, httpStatus: 500,
                    detail: "HTTP 500"), due[1]
            )
        ])
        let next = try #require(try await fixture.store.notifications.nextDeliveryDue(after: fixture.clock.now()))
        #expect(
            abs(next.timeIntervalSince(fixture.clock.now()) - 2.0 / 720) < 0.001, "an hour under 2 s a month is 2/720 s"
        )
        #expect(
            try await fixture.store.notifications.dueDeliveries(at: fixture.clock.now(), urls: [Self.url], limit: 10)
                .isEmpty)
        #expect(try await fixture.store.notifications.sendPendingNow() == 1)
        let again = try await fixture.store.notifications.dueDeliveries(
            at: fixture.clock.now(), urls: [Self.url], limit: 10)
        #expect(again.map(\.notification.uuid) == [due[1].notification.uuid], "the same notification, the same UUID")
        #expect(again.first?.attempts == 1)
    }

    @Test func aPayloadIsKeptOnceSigned() async throws {
        let fixture = try StoreFixture.notifying()
        _ = try await fixture.buy(StoreFixture.gems)
        let uuid = try #require(
            try await fixture.store.notifications.dueDeliveries(at: fixture.clock.now(), urls: [Self.url], limit: 1)
                .first?
                .notification.uuid)
        #expect(try await fixture.store.notifications.keepSignedPayloads([uuid: "first"]) == [uuid: "first"])
        #expect(try await fixture.store.notifications.keepSignedPayloads([uuid: "second"]) == [uuid: "first"])
        #expect(try await fixture.store.notifications.record(uuid)?.notification.signedPayload == "first")
    }

    @Test func historyFiltersAndPages() async throws {
        let fixture = try StoreFixture.notifying()
        for _ in 0..<5 { _ = try await fixture.buy(StoreFixture.gems) }
        _ = try await fixture.buy(StoreFixture.gems, account: "kenji")
        _ = try await fixture.store.notifications.requestTest()
        let now = fixture.clock.now()
        var filter = NotificationFilter(startDate: now.addingTimeInterval(-60), endDate: now.addingTimeInterval(60))
        let first = try await fixture.store.notifications.history(filter, after: nil, limit: 4)
        #expect(first.records.count == 4 && first.hasMore)
        let rest = try await fixture.store.notifications.history(
            filter, after: first.records.last?.notification.sequence, limit: 4)
        #expect(rest.records.count == 3 && !rest.hasMore)
        filter.account = "kenji"
        #expect(try await fixture.store.notifications.history(filter, after: nil, limit: 20).records.count == 1)
        filter.account = nil
        filter.type = .test
        #expect(try await fixture.store.notifications.history(filter, after: nil, limit: 20).records.count == 1)
        filter.type = nil
        filter.onlyFailures = true
        #expect(
            try await fixture.store.notifications.history(filter, after: nil, limit: 20).records.count == 7,
            "none delivered yet")
    }

    @Test func aRefundRequestWaitsForTheAppStoresDecision() async throws {
        let fixture = try StoreFixture.notifying()
        let gems = try await fixture.buy(StoreFixture.gems).transaction.id
        let ads = try await fixture.buy(StoreFixture.removeAds).transaction.id
        #expect(try await fixture.store.perform(.requestRefund(gems)).isEmpty)
        await #expect(throws: StoreFailure.self) { try await fixture.store.perform(.requestRefund(gems)) }
        _ = try await fixture.store.perform(.declineRefund(gems))
        await #expect(throws: StoreFailure.self) { try await fixture.store.perform(.declineRefund(gems)) }
        _ = try await fixture.store.perform(.requestRefund(ads))
        _ = try await fixture.store.perform(.refund(ads))
        await #expect(throws: StoreFailure.self) { try await fixture.store.perform(.declineRefund(ads)) }
        await #expect(throws: StoreFailure.self) { try await fixture.store.perform(.requestRefund(ads)) }
        // Consumption data is asked for a consumable and a subscription, not for a non-consumable.
        #expect(
            try await fixture.told() == [
                "ONE_TIME_CHARGE", "ONE_TIME_CHARGE", "CONSUMPTION_REQUEST", "REFUND_DECLINED", "REFUND",
            ])
        let entitled = try await fixture.store.entitlements(account: "alice").map(\.productId)
        #expect(!entitled.contains(StoreFixture.removeAds), "granted: refunded")
    }

    @Test func autoRenewTurnedOffDuringBillingRetryExpiresAtOnce() async throws {
        let fixture = try StoreFixture.notifying()
        try await fixture.setControls { $0.billingIssues = true }
        let id = try await fixture.buy(StoreFixture.monthly).transaction.id
        try await fixture.store.scheduler.runDue()
        fixture.clock.advance(by: 8 * Self.day)
        try await fixture.store.scheduler.runDue()
        _ = try await fixture.store.perform(.setAutoRenew(id, false))
        try await fixture.store.scheduler.runDue()
        #expect(
            try await fixture.told() == [
                "SUBSCRIBED/INITIAL_BUY", "DID_FAIL_TO_RENEW", "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED",
                "EXPIRED/VOLUNTARY",
            ])
    }

    @Test func aURLWithABacklogDoesNotHideTheOthersDueDeliveries() async throws {
        let fixture = try StoreFixture()
        fixture.store.outbox.setURLs(["http://127.0.0.1:9/hangs"])
        for _ in 0..<10 { _ = try await fixture.buy(StoreFixture.gems) }
        fixture.store.outbox.setURLs(["http://127.0.0.1:9/hangs", "http://127.0.0.1:9/works"])
        _ = try await fixture.buy(StoreFixture.gems)
        let due = try await fixture.store.notifications.dueDeliveries(
            at: fixture.clock.now(), urls: fixture.store.outbox.urls, limit: 4)
        #expect(due.filter { $0.url.hasSuffix("hangs") }.count == 4)
        #expect(
            due.filter { $0.url.hasSuffix("works") }.count == 1, "read although 11 older ones wait for the other URL")
    }
}
