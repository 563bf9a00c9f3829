import Foundation
import ServerRecords
import StoreCore
import StoreEngine
import StoreKitModel
import TestSupport
import Testing

/// A price increase has a price: the renewal after consent (or after one that needs none)
/// charges it, and a declined one ends the subscription at its period's end for good.
@Suite struct PriceIncreaseTests {
    /// Alice's monthly subscription, past its free trial: its paid period in force.
    func paying(_ fixture: StoreFixture) async throws -> Transaction {
        let trial = try await fixture.buy(StoreFixture.monthly).transaction
        fixture.clock.advance(by: try #require(trial.terms?.expirationDate).timeIntervalSince(fixture.clock.now()) + 1)
        try await fixture.store.scheduler.runDue()
        return try #require(try await fixture.store.transactions(account: "alice").first)
    }

    func renewOnce(_ fixture: StoreFixture, after period: Transaction) async throws -> Transaction? {
        let expiry = try #require(period.terms?.expirationDate)
        fixture.clock.advance(by: expiry.timeIntervalSince(fixture.clock.now()) + 1)
        try await fixture.store.scheduler.runDue()
        return try await fixture.store.transactions(account: "alice").first { $0.purchaseDate == expiry }
    }

    @Test func afterConsentTheRenewalChargesTheNewPrice() async throws {
        let fixture = try StoreFixture()
        let period = try await paying(fixture)
        #expect(period.terms?.price == Decimal(string: "4.99"))
        let price = try #require(Decimal(string: "5.99"))
        _ = try await fixture.store.perform(.priceIncrease(period.id, .request, PriceIncreaseTerms(price: price)))
        let pending = try #require(try await fixture.store.entitlements(account: "alice").first?.renewal)
        #expect(pending.priceIncreaseStatus == .pending)
        #expect(pending.renewalPrice == price)
        _ = try await fixture.store.perform(.priceIncrease(period.id, .consent))
        let renewal = try #require(try await renewOnce(fixture, after: period))
        #expect(renewal.terms?.price == price)
        let next = try #require(try await renewOnce(fixture, after: renewal))
        #expect(next.terms?.price == price, "the new price stays")
    }

    @Test func anIncreaseWithoutConsentAppliesAndIsTold() async throws {
        let fixture = try StoreFixture.notifying()
        let period = try await paying(fixture)
        _ = try await fixture.store.perform(
            .priceIncrease(period.id, .request, PriceIncreaseTerms(price: nil, needsConsent: false)))
        let renewal = try #require(try await fixture.store.entitlements(account: "alice").first?.renewal)
        #expect(renewal.priceIncreaseStatus == .agreed)
        #expect(renewal.renewalPrice == Decimal(string: "5.49"), "a tenth more, rounded up to the cent")
        let told = try #require(try await fixture.store.notifications.recent(limit: 1).first)
        #expect(told.notification.event == NotificationEvent(.priceIncrease, .accepted))
        #expect(try await renewOnce(fixture, after: period)?.terms?.price == Decimal(string: "5.49"))
    }

    @Test func aDeclinedIncreaseExpiresAndCannotBeRenewed() async throws {
        let fixture = try StoreFixture()
        let period = try await paying(fixture)
        _ = try await fixture.store.perform(.priceIncrease(period.id, .request))
        _ = try await fixture.store.perform(.priceIncrease(period.id, .decline))
        let error = await #expect(throws: StoreFailure.self) {
            try await fixture.store.perform(.forceRenewal(period.id))
        }
        #expect(error?.message.contains("declined the price increase") == true)
        #expect(try await renewOnce(fixture, after: period) == nil)
        let ended = try #require(try await fixture.store.entitlements(account: "alice").first)
        #expect(ended.renewal?.expirationReason == .didNotConsentToPriceIncrease)
        #expect(ended.renewal?.willAutoRenew == false)
    }

    @Test func anIncreaseMustRaiseThePrice() async throws {
        let fixture = try StoreFixture()
        let period = try await paying(fixture)
        let error = await #expect(throws: StoreFailure.self) {
            try await fixture.store.perform(
                .priceIncrease(period.id, .request, PriceIncreaseTerms(price: Decimal(string: "3.99"))))
        }
        #expect(error?.message.contains("is not above 4.99 USD") == true)
        #expect(PriceIncreaseTerms(priceText: "1.2.3", needsConsent: true) == nil)
        #expect(PriceIncreaseTerms(priceText: "-1", needsConsent: true) == nil)
        #expect(PriceIncreaseTerms(priceText: "5.99", needsConsent: false)?.price == Decimal(string: "5.99"))
    }
}
