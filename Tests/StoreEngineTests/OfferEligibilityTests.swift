import Foundation
import StoreCore
import StoreKitModel
import Testing

/// The one eligibility rule (`OfferEligibility`) case by case, on histories built by hand.
@Suite struct OfferEligibilityTests {
    static let month = SubscriptionPeriod(value: 1, unit: .month)
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let day: Double = 86_400

    static func offer(
        _ kind: SubscriptionOffer.Kind, codes: [String] = [], custom: [String] = [], limits: [String: Int] = [:],
        customers: Set<CustomerKind> = Set(CustomerKind.allCases), winBack: WinBackConditions? = nil
    ) -> SubscriptionOffer {
        SubscriptionOffer(
            id: "offer", kind: kind, terms: IntroOffer(paymentMode: .freeTrial, period: month, periods: 1, prices: [:]),
            oneTimeCodes: codes, customCodes: custom, customCodeLimits: limits, customers: customers, winBack: winBack)
    }

    static let product = Product(
        id: "monthly", type: .autoRenewable, title: LocalizedText(["en": "Monthly"]),
        description: LocalizedText(["en": ""]), prices: ["USA": 4.99],
        subscription: SubscriptionInfo(
            group: "premium", period: month, rank: 1,
            introOffer: IntroOffer(paymentMode: .freeTrial, period: month, periods: 1, prices: [:])))

    static func history(_ standing: GroupStanding, redeemed: Set<String> = [], counts: [String: Int] = [:])
        -> OfferHistory
    {
        OfferHistory(groups: ["premium": standing], redeemedCodes: redeemed, codeRedemptions: counts)
    }

    static let never = OfferHistory()
    static let subscribed = history(GroupStanding(status: .subscribed, paidSeconds: 40 * day))
    static let retrying = history(GroupStanding(status: .billingRetry, paidSeconds: 40 * day))
    static func lapsed(daysAgo: Double = 1, paidDays: Double = 40, lastWinBackDaysAgo: Double? = nil) -> OfferHistory {
        history(
            GroupStanding(
                status: .lapsed(since: now.addingTimeInterval(-daysAgo * day)), paidSeconds: paidDays * day,
                lastWinBack: lastWinBackDaysAgo.map { now.addingTimeInterval(-$0 * day) }))
    }

    func verdict(_ offer: SubscriptionOffer, _ history: OfferHistory, code: String? = nil) -> OfferEligibility.Verdict {
        OfferEligibility.verdict(
            for: offer, of: Self.product, code: code, history: history, rate: .realTime, at: Self.now)
    }

    @Test func anIntroductoryOfferIsForThoseWhoNeverSubscribedInTheGroup() {
        #expect(OfferEligibility.introductory(Self.product, history: Self.never) == .eligible)
        #expect(OfferEligibility.introductory(Self.product, history: Self.subscribed) == .ineligible(.introOfferUsed))
        #expect(OfferEligibility.introductory(Self.product, history: Self.lapsed()) == .ineligible(.introOfferUsed))
    }

    @Test func aPromotionalOfferIsForCurrentAndLapsedSubscribers() {
        let promo = Self.offer(.promotional)
        #expect(verdict(promo, Self.never) == .ineligible(.neverSubscribed))
        #expect(verdict(promo, Self.subscribed) == .eligible)
        #expect(verdict(promo, Self.retrying) == .eligible)
        #expect(verdict(promo, Self.lapsed()) == .eligible)
    }

    @Test func aWinBackOfferIsForLapsedSubscribersOnly() {
        let winBack = Self.offer(.winBack)
        #expect(verdict(winBack, Self.never) == .ineligible(.neverSubscribed))
        #expect(verdict(winBack, Self.subscribed) == .ineligible(.subscribedNow))
        #expect(verdict(winBack, Self.retrying) == .ineligible(.billingRetry))
        #expect(verdict(winBack, Self.lapsed()) == .eligible)
    }

    @Test func aWinBackOfferKeepsItsConditionsInMonths() {
        let paid = Self.offer(.winBack, winBack: WinBackConditions(paidMonths: 2))
        #expect(verdict(paid, Self.lapsed(paidDays: 40)) == .ineligible(.paidTooShort(months: 2)))
        #expect(verdict(paid, Self.lapsed(paidDays: 62)) == .eligible, "two calendar months")
        let window = Self.offer(.winBack, winBack: WinBackConditions(monthsSinceLapse: 1...3))
        #expect(verdict(window, Self.lapsed(daysAgo: 10)) == .ineligible(.lapsedTooRecently(months: 1)))
        #expect(verdict(window, Self.lapsed(daysAgo: 45)) == .eligible)
        #expect(verdict(window, Self.lapsed(daysAgo: 100)) == .ineligible(.lapsedTooLongAgo(months: 3)))
        let wait = Self.offer(.winBack, winBack: WinBackConditions(waitMonths: 2))
        #expect(verdict(wait, Self.lapsed(lastWinBackDaysAgo: 30)) == .ineligible(.winBackTooRecent(months: 2)))
        #expect(verdict(wait, Self.lapsed(lastWinBackDaysAgo: 62)) == .eligible)
        #expect(verdict(wait, Self.lapsed()) == .eligible)
    }

    @Test func winBackMonthsFollowTheTimeRate() {
        // At one renewal every 2 seconds a month is 2 seconds: 40 days lapsed is far beyond 3 months.
        let window = Self.offer(.winBack, winBack: WinBackConditions(monthsSinceLapse: 0...3))
        let fast = OfferEligibility.verdict(
            for: window, of: Self.product, history: Self.lapsed(daysAgo: 40), rate: .oneRenewalEvery2Seconds,
            at: Self.now)
        #expect(fast == .ineligible(.lapsedTooLongAgo(months: 3)))
    }

    @Test func anOfferCodeIsForTheKindsOfCustomerItNames() {
        let forNew = Self.offer(.code, custom: ["HELLO"], customers: [.new])
        #expect(verdict(forNew, Self.never, code: "HELLO") == .eligible)
        #expect(
            verdict(forNew, Self.subscribed, code: "HELLO")
                == .ineligible(.notForCustomer(.existing, allowed: [.new])))
        let forLapsed = Self.offer(.code, custom: ["BACK"], customers: [.expired])
        #expect(verdict(forLapsed, Self.lapsed(), code: "BACK") == .eligible)
        #expect(
            verdict(forLapsed, Self.never, code: "BACK") == .ineligible(.notForCustomer(.new, allowed: [.expired])))
        let forCurrent = Self.offer(.code, custom: ["STAY"], customers: [.existing])
        #expect(verdict(forCurrent, Self.subscribed, code: "STAY") == .eligible)
        #expect(verdict(forCurrent, Self.retrying, code: "STAY") == .eligible)
    }

    @Test func aOneTimeCodeRedeemsOnceAndACustomCodeOncePerAccountUpToItsLimit() {
        let codes = Self.offer(.code, codes: ["ONCE"], custom: ["MANY", "FEW"], limits: ["FEW": 2])
        #expect(verdict(codes, Self.never, code: "ONCE") == .eligible)
        #expect(
            verdict(codes, Self.history(GroupStanding(), counts: ["ONCE": 1]), code: "ONCE")
                == .ineligible(.codeRedeemed))
        #expect(verdict(codes, Self.history(GroupStanding(), counts: ["MANY": 500]), code: "MANY") == .eligible)
        #expect(
            verdict(codes, Self.history(GroupStanding(), redeemed: ["MANY"], counts: ["MANY": 1]), code: "MANY")
                == .ineligible(.codeRedeemed))
        #expect(verdict(codes, Self.history(GroupStanding(), counts: ["FEW": 1]), code: "FEW") == .eligible)
        #expect(
            verdict(codes, Self.history(GroupStanding(), counts: ["FEW": 2]), code: "FEW")
                == .ineligible(.codeLimitReached(2)))
        // Without a code: eligible while any of its codes is still good for the account.
        #expect(verdict(codes, Self.history(GroupStanding(), counts: ["ONCE": 1])) == .eligible)
    }

    @Test func eachReasonHasAStableNameAndAnEnglishSentence() {
        let reasons: [IneligibleReason] = [
            .introOfferUsed, .neverSubscribed, .subscribedNow, .billingRetry, .paidTooShort(months: 1),
            .lapsedTooRecently(months: 2), .lapsedTooLongAgo(months: 3), .winBackTooRecent(months: 1),
            .notForCustomer(.existing, allowed: [.new, .expired]), .codeRedeemed, .codeLimitReached(5),
        ]
        #expect(Set(reasons.map(\.name)).count == reasons.count)
        #expect(
            IneligibleReason.notForCustomer(.existing, allowed: [.new, .expired]).message
                == "the code is for new or expired subscribers; this account is an existing subscriber")
        #expect(IneligibleReason.paidTooShort(months: 1).message.contains("1 month of paid"))
    }

    @Test func aStandingIsReadFromTheAccountsTransactions() throws {
        let catalog = Catalog(
            bundleId: "b", languages: ["en"], defaultStorefront: "USA",
            storefronts: [Storefront(id: "USA", currency: "USD", locale: "en_US")], accounts: [],
            subscriptionGroups: [SubscriptionGroup(id: "premium", title: LocalizedText(["en": "Premium"]))],
            products: [Self.product])
        let start = Self.now.addingTimeInterval(-90 * Self.day)
        func transaction(_ id: String, start: Date, days: Double, price: Decimal, offer: OfferType? = nil)
            -> Transaction
        {
            var transaction = Transaction(
                id: id, originalId: "1", payment: Payment(productId: "monthly", account: "alice"),
                state: .purchased, purchaseDate: start)
            transaction.terms = TransactionTerms(
                price: price, currency: "USD", expirationDate: start.addingTimeInterval(days * Self.day),
                offer: offer.map { TransactionOffer(type: $0, id: "x", paymentMode: .freeTrial, period: Self.month) })
            return transaction
        }
        let history = OfferHistory(
            entitlements: [],
            history: [
                transaction("1", start: start, days: 30, price: 0, offer: .introductory),
                transaction("2", start: start.addingTimeInterval(30 * Self.day), days: 30, price: 4.99),
                transaction("3", start: start.addingTimeInterval(60 * Self.day), days: 20, price: 0, offer: .winBack),
            ], catalog: catalog, at: Self.now)
        let standing = history.standing(in: "premium")
        #expect(standing.status == .lapsed(since: start.addingTimeInterval(80 * Self.day)))
        #expect(standing.paidSeconds == 30 * Self.day)
        #expect(standing.lastWinBack == start.addingTimeInterval(60 * Self.day))
        #expect(standing.customer == .expired)
        #expect(history.standing(in: "other").status == .never)
    }
}
