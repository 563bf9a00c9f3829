import AppSide
import Foundation
import LocalState
import SQLiteStore
import StoreCore
import StoreEngine
import StoreKitModel
import TestSupport
import Testing

/// Promotional offers signed as Apple's `SKPaymentDiscount`, offer codes and win-back offers, each
/// refused with the SKError StoreKit gives for the real cause.
@Suite struct OfferTests {
    static let promo = "com.example.storefront.premium.halfprice"
    static let winBack = "com.example.storefront.premium.comeback"

    /// Buys with `offer`, as the app does: its order id is what the signature covers.
    func buy(_ fixture: StoreFixture, offer: PaymentOffer?, account: String = "alice", order: String = "order-1")
        async throws -> TransactionUpdate
    {
        let updates = await fixture.store.updates()
        let started = try await fixture.store.add(
            Payment(productId: StoreFixture.monthly, applicationUsername: order, account: account, offer: offer))
        for await update in updates where update.transaction.id == started.id && update.transaction.state != .purchasing
        { return update }
        throw StoreFailure("no outcome for \(started.id)")
    }

    func signed(_ fixture: StoreFixture, offer: String = promo, order: String = "order-1", at date: Date? = nil) throws
        -> PaymentDiscount
    {
        try PromotionalOfferSigner.sign(
            offerId: offer, productId: StoreFixture.monthly, applicationUsername: order,
            catalog: try StoreFixture.catalog(), at: date ?? fixture.clock.now())
    }

    /// A fixture whose account had Premium Monthly, now expired: eligible for promotional and win-back offers.
    func lapsed() async throws -> StoreFixture {
        let fixture = try StoreFixture()
        let first = try await fixture.buy(StoreFixture.monthly)
        _ = try await fixture.store.perform(.expireSubscription(first.transaction.id))
        fixture.clock.advance(by: 60)
        return fixture
    }

    @Test func aSignedPromotionalOfferAppliesForItsPeriodsThenThePrice() async throws {
        let fixture = try await lapsed()
        try await fixture.setControls { $0.timeRate = .oneRenewalEvery2Seconds }
        let bought = try await buy(fixture, offer: .promotional(try signed(fixture)))
        #expect(bought.transaction.state == .purchased, "\(String(describing: bought.transaction.error))")
        #expect(
            bought.transaction.terms?.offer
                == TransactionOffer(
                    type: .promotional, id: Self.promo, paymentMode: .payAsYouGo,
                    period: SubscriptionPeriod(value: 1, unit: .month)))
        #expect(bought.transaction.terms?.price == Decimal(string: "2.50"))
        fixture.clock.advance(by: 7)
        try await fixture.store.scheduler.runDue()
        let first = try #require(try await fixture.store.transactions(account: "alice").last)
        #expect(bought.transaction.originalId == first.id, "a resubscription continues the subscription")
        let chain = try await fixture.store.transactions(account: "alice").filter {
            $0.originalId == first.id && $0.purchaseDate >= bought.transaction.purchaseDate
        }.reversed()
        #expect(chain.map { $0.terms?.price } == ["2.50", "2.50", "2.50", "4.99"].map { Decimal(string: $0) })
    }

    @Test func eachWrongPromotionalOfferFailsWithItsSKError() async throws {
        let fixture = try await lapsed()
        let good = try signed(fixture)
        func failure(_ discount: PaymentDiscount, order: String = "order-1", account: String = "alice") async throws
            -> StoreError?
        {
            try await buy(fixture, offer: .promotional(discount), account: account, order: order).transaction.error
        }
        let missing = PaymentDiscount(
            identifier: Self.promo, keyIdentifier: good.keyIdentifier, nonce: "", signature: good.signature,
            timestamp: good.timestamp)
        #expect(try await failure(missing) == .storeKit(.missingOfferParams))
        #expect(
            try await failure(try signed(fixture, offer: "com.example.storefront.premium.nope"))
                == .storeKit(.invalidOfferIdentifier))
        let otherKey = PaymentDiscount(
            identifier: Self.promo, keyIdentifier: "OTHERKEY01", nonce: good.nonce, signature: good.signature,
            timestamp: good.timestamp)
        #expect(try await failure(otherKey) == .storeKit(.invalidSignature))
        #expect(
            try await failure(good, order: "another-order") == .storeKit(.invalidSignature),
            "the signature covers the order id")
        let old = try signed(fixture, at: fixture.clock.now().addingTimeInterval(-2 * 86_400))
        #expect(try await failure(old) == .storeKit(.invalidSignature))
        #expect(
            try await failure(try signed(fixture, order: "x"), order: "x", account: "kenji")
                == .storeKit(.ineligibleForOffer),
            "an account that never subscribed in the group")
        #expect(try await failure(good) == nil, "the good one still goes through")
        #expect(try await failure(good) == .storeKit(.invalidSignature), "a nonce is good once")
    }

    @Test func anOfferWithoutAPriceInTheStorefrontIsAnInvalidOfferPrice() async throws {
        let base = try StoreFixture.catalog()
        let products = base.products.map { product -> Product in
            guard product.id == StoreFixture.monthly, let subscription = product.subscription else { return product }
            let promo = try! #require(subscription.offer(id: Self.promo))
            let unpriced = SubscriptionOffer(
                id: promo.id, kind: .promotional,
                terms: IntroOffer(
                    paymentMode: .payAsYouGo, period: promo.terms.period, periods: 3, prices: ["JPN": 400]))
            return Product(
                id: product.id, type: product.type, title: product.title, description: product.description,
                prices: product.prices,
                subscription: SubscriptionInfo(
                    group: subscription.group, period: subscription.period, rank: subscription.rank,
                    introOffer: subscription.introOffer, offers: [unpriced]))
        }
        let catalog = Catalog(
            bundleId: base.bundleId, languages: base.languages, defaultStorefront: base.defaultStorefront,
            storefronts: base.storefronts,
            accounts: base.accounts, subscriptionGroups: base.subscriptionGroups, products: products,
            settings: base.settings)
        let clock = ManualClock()
        let store = try SimulatedStore(
            catalog: catalog,
            database: StoreDatabase(
                storage: SQLiteStorage.store(in: StateDirectory(url: scratchDirectory("offer-price")))), clock: clock)
        let updates = await store.updates()
        _ = try await store.add(Payment(productId: StoreFixture.monthly, account: "alice"))
        let discount = try PromotionalOfferSigner.sign(
            offerId: Self.promo, productId: StoreFixture.monthly, applicationUsername: "o", catalog: catalog,
            at: clock.now())
        let started = try await store.add(
            Payment(
                productId: StoreFixture.monthly, applicationUsername: "o", account: "alice",
                offer: .promotional(discount)))
        for await update in updates where update.transaction.id == started.id && update.transaction.state != .purchasing
        {
            #expect(update.transaction.error == .storeKit(.invalidOfferPrice))
            return
        }
    }

    @Test func offerCodesRedeemOnceAndCustomCodesOncePerAccount() async throws {
        let fixture = try StoreFixture()
        let first = try await buy(fixture, offer: .code("FREEMONTH01"))
        #expect(first.transaction.terms?.offer?.type == .code)
        #expect(first.transaction.terms?.price == 0)
        #expect(
            try await buy(fixture, offer: .code("FREEMONTH01"), account: "kenji").transaction.error
                == .storeKit(.ineligibleForOffer))
        #expect(
            try await buy(fixture, offer: .code("NOSUCHCODE"), account: "kenji").transaction.error
                == .storeKit(.invalidOfferIdentifier))
        #expect(
            try await buy(fixture, offer: .code("STOREFRONT2026"), account: "kenji").transaction.state == .purchased)
        #expect(try await buy(fixture, offer: .code("STOREFRONT2026"), account: "lena").transaction.state == .purchased)
        #expect(
            try await buy(fixture, offer: .code("STOREFRONT2026"), account: "kenji").transaction.error
                == .storeKit(.ineligibleForOffer))
    }

    @Test func aWinBackOfferIsForThoseWhoseSubscriptionEnded() async throws {
        let fresh = try StoreFixture()
        #expect(try await buy(fresh, offer: .winBack(Self.winBack)).transaction.error == .storeKit(.ineligibleForOffer))
        let active = try StoreFixture()
        _ = try await active.buy(StoreFixture.monthly)
        #expect(
            try await buy(active, offer: .winBack(Self.winBack)).transaction.error == .storeKit(.ineligibleForOffer))
        let lapsed = try await lapsed()
        let back = try await buy(lapsed, offer: .winBack(Self.winBack))
        #expect(back.transaction.terms?.offer?.type == .winBack)
        #expect(back.transaction.terms?.price == 0)
        // A month from 15 January, by the calendar: 31 days.
        #expect(back.transaction.terms?.expirationDate == lapsed.clock.now().addingTimeInterval(31 * 86_400))
    }

    /// On the plan in force, an offer waits for the next renewal: the paid period runs its course.
    @Test func anOfferTakenOnThePlanInForceStartsAtTheNextRenewal() async throws {
        let fixture = try StoreFixture()
        try await fixture.setControls { $0.timeRate = .oneRenewalEvery2Seconds }
        let trial = try await fixture.buy(StoreFixture.monthly)
        let expiry = try #require(trial.transaction.terms?.expirationDate)
        let promo = try await buy(fixture, offer: .promotional(try signed(fixture)))
        #expect(promo.transaction.state == .restored, "\(String(describing: promo.transaction.error))")
        #expect(promo.transaction.originalId == trial.transaction.id)
        #expect(promo.transaction.terms?.price == 0, "nothing is charged before the renewal")
        // No period starts before the renewal: the copy carries the period in force, its offer included.
        #expect(promo.transaction.terms?.expirationDate == expiry)
        #expect(promo.transaction.terms?.offer == trial.transaction.terms?.offer)
        let inForce = try #require(try await fixture.store.entitlements(account: "alice").first)
        #expect(inForce.transactionId == trial.transaction.id)
        #expect(inForce.expiresDate == expiry, "the period in force was cut short")
        fixture.clock.advance(by: expiry.timeIntervalSince(fixture.clock.now()) + 6.5)  // four renewals
        try await fixture.store.scheduler.runDue()
        let renewals = try await fixture.store.transactions(account: "alice").filter {
            $0.originalId == trial.transaction.id && $0.id != trial.transaction.id && $0.state == .purchased
        }
        #expect(
            renewals.reversed().map { $0.terms?.price } == ["2.50", "2.50", "2.50", "4.99"].map { Decimal(string: $0) })
        #expect(renewals.last?.purchaseDate == expiry)
        #expect(renewals.last?.terms?.offer?.type == .promotional)
    }
}
