import Foundation
import ServerRecords
import StoreCore
import StoreEngine
import StoreKitModel
import TestSupport
import Testing

/// Offer codes of consumables, non-consumables and non-renewing subscriptions, redeemed as App
/// Store Connect's offer codes for In-App Purchases are: a purchase at the offer's price, with
/// `offerType` code and payment mode `oneTime`, for the kinds of spender the offer names, one code
/// per offer for each customer (products.json's Gems 550, Lifetime Pro and Season Pass offers).
@Suite struct OneTimeOfferCodeTests {
    static let gems550 = "com.example.storefront.gems.550"
    static let season = "com.example.storefront.pass.season"
    static let day: TimeInterval = 86_400

    func redeem(_ fixture: StoreFixture, _ productId: String, code: String, account: String = "lena") async throws
        -> Transaction
    {
        let updates = await fixture.store.updates()
        let started = try await fixture.store.add(
            Payment(productId: productId, account: account, offer: .code(code)), forcing: nil)
        for await update in updates where update.transaction.id == started.id && update.transaction.state != .purchasing
        {
            return update.transaction
        }
        throw StoreFailure("the update stream ended before \(started.id) completed")
    }

    @Test func aConsumablesCodeIsAPurchaseAtTheOffersPrice() async throws {
        let fixture = try StoreFixture()
        let redeemed = try await redeem(fixture, Self.gems550, code: "GEMSWELCOME")
        #expect(redeemed.state == .purchased)
        #expect(redeemed.terms?.price == Decimal(string: "1.99") && redeemed.terms?.currency == "EUR")
        let offer = try #require(redeemed.terms?.offer)
        #expect(offer.type == .code && offer.id == "gems-welcome" && offer.paymentMode == .oneTime)
        #expect(offer.period == nil)
        // A new customer's offer: lena has paid now, so she is no longer one.
        let again = try await redeem(fixture, Self.gems550, code: "GEMS1A2B3C")
        #expect(again.error == .storeKit(.ineligibleForOffer))
        let history = try await fixture.store.offerHistory(account: "lena")
        let verdict = OfferEligibility.verdict(
            for: try #require(fixture.store.catalog.product(id: Self.gems550)?.codeOffers.first), history: history,
            rate: .realTime, at: fixture.clock.now())
        #expect(verdict == .ineligible(.notForSpender(.activeSpender, allowed: [.nonSpender])))
    }

    @Test func aCodeOfAnotherProductOrWithAQuantityIsRefused() async throws {
        let fixture = try StoreFixture()
        let other = try await redeem(fixture, StoreFixture.gems, code: "GEMSWELCOME")
        #expect(other.error == .storeKit(.invalidOfferIdentifier))
        await #expect(throws: StoreFailure.self) {
            _ = try await fixture.store.add(
                Payment(productId: Self.gems550, quantity: 2, account: "lena", offer: .code("GEMSWELCOME")),
                forcing: nil)
        }
    }

    @Test func aFreeNonConsumableCodeGrantsItAndAnOwnedOneKeepsTheCode() async throws {
        let fixture = try StoreFixture()
        let free = try await redeem(fixture, StoreFixture.lifetime, code: "PROFORPRESS")
        #expect(free.state == .purchased && free.terms?.price == 0 && free.terms?.offer?.id == "pro-free")
        #expect(
            try await fixture.store.entitlements(account: "lena").contains { $0.productId == StoreFixture.lifetime })
        // Bought already: delivered again for nothing, and the code is not spent on it.
        _ = try await fixture.buy(StoreFixture.lifetime, account: "kenji")
        let owned = try await redeem(fixture, StoreFixture.lifetime, code: "PROFORPRESS", account: "kenji")
        #expect(owned.terms?.price == 0 && owned.terms?.offer == nil)
        #expect(try await fixture.store.offerHistory(account: "kenji").redeemedCodes.isEmpty)
        #expect(try await fixture.store.offerHistory(account: "lena").redeemedCodes == ["PROFORPRESS"])
    }

    /// Season Pass's offer is for customers who purchased in the app: never-purchased ones may
    /// not redeem it; 30 days after a purchase they are churned spenders, who may.
    @Test func spendersAreCountedFromTheLastPaidPurchase() async throws {
        let fixture = try StoreFixture()
        let new = try await redeem(fixture, Self.season, code: "SEASONBACK")
        #expect(new.error == .storeKit(.ineligibleForOffer))
        _ = try await fixture.buy(StoreFixture.gems, account: "lena")
        fixture.clock.advance(by: 31 * Self.day)
        let history = try await fixture.store.offerHistory(account: "lena")
        #expect(history.spender(rate: .realTime, at: fixture.clock.now()) == .churnedSpender)
        let churned = try await redeem(fixture, Self.season, code: "SEASONBACK")
        #expect(churned.state == .purchased && churned.terms?.price == Decimal(string: "5.99"))
        #expect(churned.terms?.expirationDate == nil, "a non-renewing term is the app's to keep")
        // One code per offer for each customer.
        let twice = try await redeem(fixture, Self.season, code: "SEASONBACK")
        #expect(twice.error == .storeKit(.ineligibleForOffer))
    }
}

/// The rule for offer codes of In-App Purchases, on histories built by hand.
@Suite struct OneTimeOfferEligibilityTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let offer = OneTimeOffer(
        id: "o", prices: ["USA": 1], oneTimeCodes: ["ONCE"], customCodes: ["OPEN", "FEW"],
        customCodeLimits: ["FEW": 2], spenders: [.nonSpender, .activeSpender])

    @Test func spendersCodesAndOneCodePerOffer() {
        let never = OfferHistory()
        #expect(
            OfferEligibility.verdict(for: Self.offer, code: "ONCE", history: never, rate: .realTime, at: Self.now)
                .isEligible)
        let paid = OfferHistory(lastPaidPurchase: Self.now.addingTimeInterval(-86_400))
        #expect(paid.spender(rate: .realTime, at: Self.now) == .activeSpender)
        #expect(OfferEligibility.verdict(for: Self.offer, history: paid, rate: .realTime, at: Self.now).isEligible)
        let churned = OfferHistory(lastPaidPurchase: Self.now.addingTimeInterval(-31 * 86_400))
        #expect(
            OfferEligibility.verdict(for: Self.offer, history: churned, rate: .realTime, at: Self.now)
                == .ineligible(.notForSpender(.churnedSpender, allowed: [.nonSpender, .activeSpender])))
        let spent = OfferHistory(redeemedCodes: ["OPEN"])
        #expect(
            OfferEligibility.verdict(for: Self.offer, code: "FEW", history: spent, rate: .realTime, at: Self.now)
                == .ineligible(.offerRedeemed))
        let taken = OfferHistory(codeRedemptions: ["ONCE": 1, "FEW": 2])
        #expect(
            OfferEligibility.verdict(for: Self.offer, code: "ONCE", history: taken, rate: .realTime, at: Self.now)
                == .ineligible(.codeRedeemed))
        #expect(
            OfferEligibility.verdict(for: Self.offer, code: "FEW", history: taken, rate: .realTime, at: Self.now)
                == .ineligible(.codeLimitReached(2)))
        #expect(
            OfferEligibility.verdict(for: Self.offer, history: taken, rate: .realTime, at: Self.now).isEligible,
            "OPEN is still good")
        // Under an accelerated rate 30 days pass as a month of that rate does.
        let minuteAgo = OfferHistory(lastPaidPurchase: Self.now.addingTimeInterval(-60))
        #expect(minuteAgo.spender(rate: .monthlyRenewalEvery30Seconds, at: Self.now) == .churnedSpender)
    }
}
