import Foundation
import StoreCore
import StoreEngine
import StoreKitModel
import TestSupport
import Testing

/// The App Store's purchase rules as the simulated store applies them: what the account owns
/// is not charged again, introductory offers, refunds, and renewals that never overlap.
@Suite struct StoreRulesTests {
    static let yearly = "com.example.storefront.premium.yearly"
    static let day: TimeInterval = 86_400

    func terms(_ update: TransactionUpdate) throws -> TransactionTerms {
        try #require(
            update.transaction.terms, "no terms on \(update.transaction.id) (\(update.transaction.state.name))")
    }

    @Test func anOwnedNonConsumableIsDeliveredAgainWithoutACharge() async throws {
        let fixture = try StoreFixture()
        let first = try await fixture.buy(StoreFixture.removeAds)
        #expect(try terms(first).price == Decimal(string: "2.99"))
        let again = try await fixture.buy(StoreFixture.removeAds)
        #expect(again.transaction.state == .restored, "delivered again as a restore is")
        #expect(again.transaction.originalId == first.transaction.id, "no new purchase")
        #expect(try terms(again).price == 0)
        #expect(try terms(again).currency == "USD")
    }

    @Test func quantitiesAboveOneAreForConsumablesOnly() async throws {
        let fixture = try StoreFixture()
        for product in [StoreFixture.removeAds, StoreFixture.monthly, "com.example.storefront.pass.season"] {
            let error = await #expect(throws: StoreFailure.self) {
                try await fixture.store.add(Payment(productId: product, quantity: 2, account: "alice"))
            }
            #expect(error?.kind == .invalid)
            #expect(error?.message.contains("only consumables") == true, "\(error?.message ?? "")")
        }
        #expect(try await fixture.store.transactions(account: "alice").isEmpty, "a refused payment left a transaction")
        #expect(try terms(try await fixture.buy(StoreFixture.gems, quantity: 2)).price == Decimal(string: "1.98"))
    }

    @Test func aFreeTrialRunsItsPeriodFreeThenRenewsAtThePrice() async throws {
        let fixture = try StoreFixture()
        let start = fixture.clock.now()
        let trial = try await fixture.buy(StoreFixture.monthly)
        let trialTerms = try terms(trial)
        #expect(trialTerms.price == 0)
        #expect(
            trialTerms.offer
                == TransactionOffer(
                    type: .introductory, id: nil, paymentMode: .freeTrial,
                    period: SubscriptionPeriod(value: 1, unit: .week)))
        #expect(trialTerms.expirationDate == start.addingTimeInterval(7 * Self.day))
        fixture.clock.advance(by: 7 * Self.day + 1)
        try await fixture.store.scheduler.runDue()
        let renewal = try #require(try await fixture.store.transactions(account: "alice").first)
        #expect(renewal.originalId == trial.transaction.id)
        #expect(
            renewal.purchaseDate == start.addingTimeInterval(7 * Self.day),
            "a renewal starts at the expiry, not when the sweep ran")
        #expect(renewal.terms?.price == Decimal(string: "4.99"))
        #expect(renewal.terms?.offer == nil)
        // The free week, then a month from 22 January by the calendar: 31 days.
        #expect(renewal.terms?.expirationDate == start.addingTimeInterval(38 * Self.day))
    }

    @Test func anIntroductoryOfferIsOncePerGroup() async throws {
        let fixture = try StoreFixture()
        let trial = try await fixture.buy(StoreFixture.monthly)
        _ = try await fixture.store.perform(.expireSubscription(trial.transaction.id))
        fixture.clock.advance(by: 60)
        let again = try await fixture.buy(StoreFixture.monthly)
        #expect(try terms(again).price == Decimal(string: "4.99"))
        #expect(try terms(again).offer == nil)
        // Another product of the same group: its own offer is spent too.
        _ = try await fixture.store.perform(.expireSubscription(again.transaction.id))
        let plus = try await fixture.buy(StoreFixture.plusMonthly)
        #expect(try terms(plus).price == Decimal(string: "9.99"))
        #expect(try terms(plus).offer == nil)
    }

    @Test func payAsYouGoChargesTheOfferPriceForItsPeriodsThenThePrice() async throws {
        let fixture = try StoreFixture()
        try await fixture.setControls { $0.timeRate = .oneRenewalEvery2Seconds }
        let first = try await fixture.buy(StoreFixture.plusMonthly)
        #expect(try terms(first).offer?.paymentMode == .payAsYouGo)
        fixture.clock.advance(by: 7)  // three more periods of 2 s have passed
        try await fixture.store.scheduler.runDue()
        let chain = try await fixture.store.transactions(account: "alice").filter {
            $0.originalId == first.transaction.id
        }.reversed()
        #expect(chain.map { $0.terms?.price } == ["1.99", "1.99", "1.99", "9.99"].map { Decimal(string: $0) })
        #expect(chain.map { $0.terms?.offer?.type } == [.introductory, .introductory, .introductory, nil])
    }

    /// Renewal info names the offer the next renewal takes and its price, period by period:
    /// the introductory price until the offer's last period, then the product's.
    @Test func renewalInfoFollowsAPayAsYouGoOfferToItsLastPeriod() async throws {
        let fixture = try StoreFixture()
        try await fixture.setControls { $0.timeRate = .oneRenewalEvery2Seconds }
        let first = try await fixture.buy(StoreFixture.plusMonthly)
        var seen: [(Decimal?, OfferType?)] = []
        for _ in 0..<4 {
            let status = try #require(
                try await fixture.store.serverAPI.subscriptionStatus(originalTransactionId: first.transaction.id))
            let app = try await fixture.store.entitlements(account: "alice").first {
                $0.productId == StoreFixture.plusMonthly
            }
            #expect(app?.renewal?.renewalOffer == status.renewalOffer)
            seen.append((status.renewalPrice, status.renewalOffer?.type))
            fixture.clock.advance(by: 2)
            try await fixture.store.scheduler.runDue()
        }
        #expect(seen.map(\.0) == ["1.99", "1.99", "9.99", "9.99"].map { Decimal(string: $0) })
        #expect(seen.map(\.1) == [.introductory, .introductory, nil, nil])
    }

    @Test func payUpFrontChargesOnceForTheWholeOffer() async throws {
        let fixture = try StoreFixture()
        let start = fixture.clock.now()
        let yearly = try await fixture.buy(Self.yearly)
        #expect(try terms(yearly).price == Decimal(string: "9.99"))
        #expect(try terms(yearly).offer?.paymentMode == .payUpFront)
        #expect(try terms(yearly).expirationDate == start.addingTimeInterval(90 * Self.day))
    }

    @Test func anActiveSubscriptionBoughtAgainIsNotChargedNorRenewedTwice() async throws {
        let fixture = try StoreFixture()
        try await fixture.setControls { $0.timeRate = .oneRenewalEvery2Seconds }
        let first = try await fixture.buy(StoreFixture.monthly)
        fixture.clock.advance(by: 1)
        let again = try await fixture.buy(StoreFixture.monthly)
        #expect(try terms(again).price == 0)
        #expect(again.transaction.originalId == first.transaction.id)
        #expect(try terms(again).expirationDate == (try terms(first)).expirationDate)
        fixture.clock.advance(by: 2)
        try await fixture.store.scheduler.runDue()
        let renewals = try await fixture.store.transactions(account: "alice").filter {
            $0.purchaseDate > again.transaction.purchaseDate
        }
        #expect(renewals.count == 1, "\(renewals.map(\.id))")
        let entitlements = try await fixture.store.entitlements(account: "alice")
        #expect(entitlements.count == 1)
    }

    @Test func aRefundRevokesWithADateAndAReasonAndTellsTheApp() async throws {
        let fixture = try StoreFixture()
        let gems = try await fixture.buy(StoreFixture.gems)
        fixture.clock.advance(by: 60)
        let updates = try await fixture.store.perform(.refund(gems.transaction.id))
        let revoked = try #require(updates.first?.transaction)
        #expect(revoked.id == gems.transaction.id)
        #expect(revoked.terms?.revocation == Revocation(date: fixture.clock.now(), reason: .other))
        #expect(try await fixture.store.transactions(account: "alice").first?.terms?.revocation != nil)
        await #expect(throws: StoreFailure.self) { try await fixture.store.perform(.refund(gems.transaction.id)) }
        guard case .valid(let payload) = fixture.store.openReceipt(try #require(updates.first?.receipt)) else {
            Issue.record("the refund's receipt does not open")
            return
        }
        #expect(payload.inApp.first { $0.transactionId == gems.transaction.id }?.cancellationDate != nil)
    }

    @Test func aForcedRenewalEndsThePeriodInForceInsteadOfOverlappingIt() async throws {
        let fixture = try StoreFixture()
        let first = try await fixture.buy(Self.yearly)
        fixture.clock.advance(by: Self.day)
        let now = fixture.clock.now()
        let renewed = try #require(
            try await fixture.store.perform(.forceRenewal(first.transaction.id)).first?.transaction)
        #expect(renewed.purchaseDate == now)
        #expect(renewed.terms?.expirationDate == now.addingTimeInterval(365 * Self.day))
        let before = try #require(
            try await fixture.store.transactions(account: "alice").first { $0.id == first.transaction.id })
        #expect(before.terms?.expirationDate == now)
        #expect(try await fixture.store.entitlements(account: "alice").map(\.transactionId) == [renewed.id])
    }
}
