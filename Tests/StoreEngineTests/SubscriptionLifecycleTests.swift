import Foundation
import StoreCore
import StoreEngine
import StoreKitModel
import TestSupport
import Testing

/// The renewal lifecycle as Xcode's test session drives it: auto-renew, billing retry and its
/// grace period, resolving the issue, price increases, and why a subscription expired.
@Suite struct SubscriptionLifecycleTests {
    static let day: TimeInterval = 86_400

    /// Premium Monthly, bought on a fresh account: its free week ends 7 days later.
    func subscribed(_ fixture: StoreFixture) async throws -> String {
        try await fixture.buy(StoreFixture.monthly).transaction.id
    }

    func subscription(_ fixture: StoreFixture) async throws -> Entitlement {
        try #require(
            try await fixture.store.entitlements(account: "alice").first { $0.productId == StoreFixture.monthly })
    }

    func renewals(_ fixture: StoreFixture) async throws -> [Transaction] {
        try await fixture.store.transactions(account: "alice").filter { $0.productId == StoreFixture.monthly }
    }

    @Test func aBillingIssueWithoutGraceLosesAccessUntilResolvedAndRecoveryRenewsFromThen() async throws {
        let fixture = try StoreFixture()
        try await fixture.setControls { $0.billingIssues = true }
        let id = try await subscribed(fixture)
        fixture.clock.advance(by: 8 * Self.day)
        try await fixture.store.scheduler.runDue()
        #expect(try await renewals(fixture).count == 1, "a renewal that could not bill made a transaction")
        let retrying = try await subscription(fixture)
        #expect(retrying.renewal?.isInBillingRetry == true)
        #expect(retrying.renewal?.gracePeriodExpirationDate == nil)
        #expect(!retrying.isActive(at: fixture.clock.now()))
        #expect(retrying.renewal?.willAutoRenew == true)

        let recovered = try #require(try await fixture.store.perform(.resolveIssue(id)).first?.transaction)
        #expect(recovered.purchaseDate == fixture.clock.now())
        #expect(recovered.terms?.price == Decimal(string: "4.99"))
        // A month from 23 January, by the calendar: 31 days.
        #expect(recovered.terms?.expirationDate == fixture.clock.now().addingTimeInterval(31 * Self.day))
        let after = try await subscription(fixture)
        #expect(after.transactionId == recovered.id)
        #expect(after.renewal?.isInBillingRetry == false)
        #expect(after.isActive(at: fixture.clock.now()))
    }

    @Test func theGracePeriodKeepsAccessForSixteenDaysAndRetryingEndsAfterSixty() async throws {
        let fixture = try StoreFixture()
        try await fixture.setControls {
            $0.billingIssues = true
            $0.gracePeriod = true
        }
        let start = fixture.clock.now()
        _ = try await subscribed(fixture)
        try await fixture.pass(8 * Self.day)
        let grace = try await subscription(fixture)
        #expect(grace.renewal?.gracePeriodExpirationDate == start.addingTimeInterval(23 * Self.day))
        #expect(grace.isActive(at: fixture.clock.now()), "access is kept in the grace period")
        try await fixture.pass(16 * Self.day)
        #expect(!(try await subscription(fixture)).isActive(at: fixture.clock.now()))
        #expect(try await subscription(fixture).renewal?.isInBillingRetry == true)
        try await fixture.pass(60 * Self.day)
        let ended = try await subscription(fixture)
        #expect(ended.renewal?.isInBillingRetry == false)
        #expect(ended.renewal?.expirationReason == .billingError)
        #expect(ended.renewal?.willAutoRenew == false)
        #expect(try await renewals(fixture).count == 1)
    }

    @Test func autoRenewOffRunsToThePeriodsEndAndExpiresVoluntarily() async throws {
        let fixture = try StoreFixture()
        let id = try await subscribed(fixture)
        #expect(try await fixture.store.perform(.setAutoRenew(id, false)).isEmpty)
        #expect(try await subscription(fixture).renewal?.willAutoRenew == false)
        #expect(try await subscription(fixture).isActive(at: fixture.clock.now()))
        fixture.clock.advance(by: 8 * Self.day)
        try await fixture.store.scheduler.runDue()
        #expect(try await renewals(fixture).count == 1)
        #expect(try await subscription(fixture).renewal?.expirationReason == .autoRenewDisabled)
        let error = await #expect(throws: StoreFailure.self) {
            try await fixture.store.perform(.setAutoRenew(id, true))
        }
        #expect(error?.message.contains("has expired") == true)
    }

    @Test func turningAutoRenewBackOnKeepsItRenewing() async throws {
        let fixture = try StoreFixture()
        let id = try await subscribed(fixture)
        _ = try await fixture.store.perform(.setAutoRenew(id, false))
        _ = try await fixture.store.perform(.setAutoRenew(id, true))
        fixture.clock.advance(by: 8 * Self.day)
        try await fixture.store.scheduler.runDue()
        #expect(try await renewals(fixture).count == 2)
    }

    @Test func aPriceIncreaseWithoutConsentEndsTheSubscriptionAtThePeriodsEnd() async throws {
        let fixture = try StoreFixture()
        let id = try await subscribed(fixture)
        _ = try await fixture.store.perform(.priceIncrease(id, .request))
        #expect(try await subscription(fixture).renewal?.priceIncreaseStatus == .pending)
        await #expect(throws: StoreFailure.self) { try await fixture.store.perform(.priceIncrease(id, .request)) }
        fixture.clock.advance(by: 8 * Self.day)
        try await fixture.store.scheduler.runDue()
        #expect(try await renewals(fixture).count == 1)
        #expect(try await subscription(fixture).renewal?.expirationReason == .didNotConsentToPriceIncrease)
    }

    @Test func consentRenewsAndDeclineExpires() async throws {
        let agreed = try StoreFixture()
        let id = try await subscribed(agreed)
        _ = try await agreed.store.perform(.priceIncrease(id, .request))
        _ = try await agreed.store.perform(.priceIncrease(id, .consent))
        #expect(try await subscription(agreed).renewal?.priceIncreaseStatus == .agreed)
        agreed.clock.advance(by: 8 * Self.day)
        try await agreed.store.scheduler.runDue()
        #expect(try await renewals(agreed).count == 2)
        #expect(
            try await subscription(agreed).renewal?.priceIncreaseStatus == nil,
            "the renewal took the new price; nothing is pending")

        let declined = try StoreFixture()
        let other = try await subscribed(declined)
        await #expect(throws: StoreFailure.self) { try await declined.store.perform(.priceIncrease(other, .decline)) }
        _ = try await declined.store.perform(.priceIncrease(other, .request))
        _ = try await declined.store.perform(.priceIncrease(other, .decline))
        #expect(try await subscription(declined).renewal?.willAutoRenew == false)
        declined.clock.advance(by: 8 * Self.day)
        #expect(try await subscription(declined).renewal?.expirationReason == .didNotConsentToPriceIncrease)
    }

    @Test func renewalActionsOnTheWrongProductOrAnUnknownIdChangeNothing() async throws {
        let fixture = try StoreFixture()
        let gems = try await fixture.buy(StoreFixture.gems).transaction.id
        let before = try await fixture.store.transactions(account: "alice")
        for action in [
            ManageAction.priceIncrease(gems, .request), .setAutoRenew(gems, false), .forceRenewal(gems),
            .resolveIssue(gems),
        ] {
            let error = await #expect(throws: StoreFailure.self) { try await fixture.store.perform(action) }
            #expect(error?.kind == .conflict, "\(action)")
            #expect(error?.message.contains(gems) == true, "\(action): \(error?.message ?? "")")
        }
        let unknown = await #expect(throws: StoreFailure.self) {
            try await fixture.store.perform(.setAutoRenew("2000000000009999", false))
        }
        #expect(unknown?.kind == .notFound)
        #expect(try await fixture.store.transactions(account: "alice") == before)
    }

    @Test func controlsForBillingIssuesRoundTrip() async throws {
        let fixture = try StoreFixture()
        try await fixture.setControls {
            $0.billingIssues = true
            $0.gracePeriod = true
        }
        let controls = try await fixture.store.controls()
        #expect(controls.billingIssues && controls.gracePeriod)
        var parsed = TestControls()
        try ControlSetting("billing-issues")!.apply("on", to: &parsed, catalog: try StoreFixture.catalog())
        #expect(parsed.billingIssues)
        #expect(ControlSetting("grace-period")!.value(in: controls) == "on")
    }

    /// Xcode's forced renewal is a renewal: with billing issues on it fails to bill as one at the
    /// period's end would, and a second forced renewal (the retry) succeeds.
    @Test func aForcedRenewalWithBillingIssuesEntersBillingRetryNow() async throws {
        let fixture = try StoreFixture()
        try await fixture.setControls {
            $0.billingIssues = true
            $0.gracePeriod = true
        }
        let id = try await subscribed(fixture)
        #expect(
            try await fixture.store.perform(.forceRenewal(id)).isEmpty,
            "a renewal that could not bill made a transaction")
        let failing = try await subscription(fixture)
        #expect(failing.renewal?.isInBillingRetry == true)
        #expect(failing.renewal?.gracePeriodExpirationDate == fixture.clock.now().addingTimeInterval(16 * Self.day))
        #expect(failing.isActive(at: fixture.clock.now()), "the grace period keeps access")
        let renewed = try #require(try await fixture.store.perform(.forceRenewal(id)).first?.transaction)
        #expect(renewed.id != id && renewed.purchaseDate == fixture.clock.now())
        #expect(try await subscription(fixture).renewal?.isInBillingRetry == false)
    }

    @Test func aNewPlanReplacesOneInBillingRetry() async throws {
        let fixture = try StoreFixture()
        try await fixture.setControls { $0.billingIssues = true }
        let id = try await subscribed(fixture)
        fixture.clock.advance(by: 8 * Self.day)
        try await fixture.store.scheduler.runDue()
        try await fixture.setControls { $0.billingIssues = false }
        _ = try await fixture.buy(StoreFixture.plusMonthly)
        let inRetry = try await fixture.store.entitlements(account: "alice").filter {
            $0.renewal?.isInBillingRetry == true
        }
        #expect(inRetry.isEmpty, "the plan in billing retry was left retrying beside its replacement")
        await #expect(throws: StoreFailure.self) { try await fixture.store.perform(.resolveIssue(id)) }
    }
}
