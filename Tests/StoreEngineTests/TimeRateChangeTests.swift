import Foundation
import StoreCore
import StoreEngine
import StoreKitModel
import TestSupport
import Testing

/// A new time rate applies to the periods in force, as Xcode's does: what is left of each is
/// measured in the new rate, and a 12-month commitment's end follows.
@Suite struct TimeRateChangeTests {
    static let month = CommitmentPlan.billingPeriod

    func latest(_ fixture: StoreFixture, _ account: String) async throws -> Transaction {
        try #require(try await fixture.store.transactions(account: account).first)
    }

    @Test func aFasterRateShortensThePeriodInForce() async throws {
        let fixture = try StoreFixture()
        let bought = try await fixture.buy(StoreFixture.monthly).transaction
        let expiry = try #require(bought.terms?.expirationDate)
        fixture.clock.advance(by: expiry.timeIntervalSince(bought.purchaseDate) / 2)
        try await fixture.setControls { $0.timeRate = .oneRenewalEvery10Seconds }
        let now = fixture.clock.now()
        let rescaled = try #require(try await latest(fixture, "alice").terms?.expirationDate)
        #expect(abs(rescaled.timeIntervalSince(now) - 5) < 0.5, "half a month left is half of ten seconds")
    }

    @Test func aSlowerRateLengthensThePeriodInForce() async throws {
        let fixture = try StoreFixture()
        try await fixture.setControls { $0.timeRate = .monthlyRenewalEvery5Minutes }
        let bought = try await fixture.buy(StoreFixture.monthly).transaction
        // The first period is the product's free week: 3 minutes here, 15 at monthly-1h.
        #expect(bought.terms?.expirationDate == bought.purchaseDate.addingTimeInterval(180))
        fixture.clock.advance(by: 90)
        try await fixture.setControls { $0.timeRate = .monthlyRenewalEveryHour }
        let rescaled = try #require(try await latest(fixture, "alice").terms?.expirationDate)
        #expect(rescaled == fixture.clock.now().addingTimeInterval(450))
    }

    @Test func theSameRateChangesNothing() async throws {
        let fixture = try StoreFixture()
        let bought = try await fixture.buy(StoreFixture.monthly).transaction
        fixture.clock.advance(by: 3_600)
        try await fixture.setControls { $0.latencyMilliseconds = 5 }
        #expect(try await latest(fixture, "alice").terms?.expirationDate == bought.terms?.expirationDate)
    }

    @Test func aCommitmentsEndFollowsTheNewRate() async throws {
        let fixture = try StoreFixture()
        let first = try await fixture.buy(StoreFixture.yearly, account: "lena", plan: .monthly).transaction
        fixture.clock.advance(by: 86_400)
        let rate = TimeRate.oneRenewalEvery2Seconds
        try await fixture.setControls { $0.timeRate = rate }
        var payment = try await latest(fixture, "lena")
        #expect(payment.id == first.id)
        let expiry = try #require(payment.terms?.expirationDate)
        let commitmentEnd = try #require(payment.terms?.commitment?.expirationDate)
        #expect(expiry > fixture.clock.now() && expiry.timeIntervalSince(fixture.clock.now()) < 2)
        #expect(commitmentEnd == rate.end(of: Self.month, periods: 11, from: expiry))
        for number in 2...12 {
            let end = try #require(payment.terms?.expirationDate)
            fixture.clock.advance(by: end.timeIntervalSince(fixture.clock.now()) + 0.5)
            try await fixture.store.scheduler.runDue()
            payment = try await latest(fixture, "lena")
            #expect(payment.terms?.commitment?.billingPeriodNumber == number)
            let length = try #require(payment.terms?.expirationDate).timeIntervalSince(payment.purchaseDate)
            #expect(abs(length - 2) < 0.001, "payment \(number) lasts a month at the new rate")
            #expect(try #require(payment.terms?.expirationDate) <= commitmentEnd.addingTimeInterval(0.001))
        }
        #expect(payment.terms?.expirationDate == commitmentEnd, "the last month ends with the commitment")
    }
}
