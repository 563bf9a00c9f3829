import Foundation

/// One in-app purchase as the catalog defines it, with prices for every storefront it is sold in.
public struct Product: Sendable, Hashable {
    public let id: String
    public let type: ProductType
    public let title: LocalizedText
    public let description: LocalizedText
    /// Exact prices keyed by storefront id.
    public let prices: [String: Decimal]
    public let unavailableIn: Set<String>
    /// Removed from sale: a products request returns it among the invalid identifiers.
    public let removed: Bool
    public let wallet: WalletGrant?
    public let subscription: SubscriptionInfo?
    /// Family Sharing is on: a purchase is shared with the purchaser's family (non-consumables and
    /// auto-renewable subscriptions only).
    public let familyShareable: Bool
    /// The offer codes of a consumable, a non-consumable or a non-renewing subscription (an
    /// auto-renewable subscription's are in `subscription.offers`).
    public let codeOffers: [OneTimeOffer]

    public init(
        id: String, type: ProductType, title: LocalizedText, description: LocalizedText,
        prices: [String: Decimal], unavailableIn: Set<String> = [], removed: Bool = false,
        wallet: WalletGrant? = nil, subscription: SubscriptionInfo? = nil, familyShareable: Bool = false,
        codeOffers: [OneTimeOffer] = []
    ) {
        self.codeOffers = codeOffers
        self.id = id
        self.type = type
        self.title = title
        self.description = description
        self.prices = prices
        self.unavailableIn = unavailableIn
        self.removed = removed
        self.wallet = wallet
        self.subscription = subscription
        self.familyShareable = familyShareable
    }

    public func isSold(in storefront: String) -> Bool {
        !removed && !unavailableIn.contains(storefront) && prices[storefront] != nil
    }

    /// The one-time offer whose codes include `code`, as typed.
    public func codeOffer(code: String) -> OneTimeOffer? {
        codeOffers.first { $0.has(code: code) }
    }

    /// The one-time offer with the id `id`.
    public func codeOffer(id: String) -> OneTimeOffer? {
        codeOffers.first { $0.id == id }
    }

    /// What one purchase costs in `storefront` with the one-time offer a transaction took;
    /// nil when it took none, or the offer has no price there.
    public func oneTimePrice(of offer: TransactionOffer?, in storefront: String) -> Decimal? {
        guard let offer, offer.paymentMode == .oneTime, let id = offer.id else { return nil }
        return codeOffer(id: id)?.prices[storefront]
    }
}

/// An offer code of a consumable, a non-consumable or a non-renewing subscription, as App Store
/// Connect's "Create offer codes for In-App Purchases" sets one up: a discounted or free price
/// for one purchase, redeemed with a one-time or a custom code, by the kinds of customer it
/// names; "Each customer can redeem one code per offer." Its transaction carries `offerType` 3,
/// the offer's id as `offerIdentifier` and `offerDiscountType` `ONE_TIME` (App Store Server API
/// 1.18), and StoreKit's `Transaction.Offer.PaymentMode.oneTime`.
public struct OneTimeOffer: Sendable, Hashable {
    public let id: String
    /// What one purchase with the offer costs, per storefront; 0 for a free one.
    public let prices: [String: Decimal]
    /// Codes that redeem once, whoever redeems them.
    public let oneTimeCodes: [String]
    /// Codes that each account may redeem once.
    public let customCodes: [String]
    /// How many times in all a custom code may be redeemed; a code not named here has no limit.
    public let customCodeLimits: [String: Int]
    /// Who may redeem it, as App Store Connect's customer eligibility names them.
    public let spenders: Set<SpenderKind>

    public init(
        id: String, prices: [String: Decimal], oneTimeCodes: [String] = [], customCodes: [String] = [],
        customCodeLimits: [String: Int] = [:], spenders: Set<SpenderKind> = Set(SpenderKind.allCases)
    ) {
        self.id = id
        self.prices = prices
        self.oneTimeCodes = oneTimeCodes
        self.customCodes = customCodes
        self.customCodeLimits = customCodeLimits
        self.spenders = spenders
    }

    /// One of the offer's codes, one-time or custom.
    public func has(code: String) -> Bool {
        oneTimeCodes.contains(code) || customCodes.contains(code)
    }

    /// Every code of the offer.
    public var codes: [String] { oneTimeCodes + customCodes }
}

/// Who may redeem an In-App Purchase offer code, as App Store Connect names the choices
/// (`NON_SPENDER`, `ACTIVE_SPENDER`, `CHURNED_SPENDER` in its API): customers who "Never
/// purchased within your app", who "Purchased within your app in the last 30 days", and who
/// "Purchased within your app more than 30 days ago".
public enum SpenderKind: String, Sendable, Hashable, CaseIterable {
    case nonSpender, activeSpender, churnedSpender

    /// How long after a purchase a customer is still an active spender: 30 days, which a time
    /// rate shortens as it does a period of days.
    public static let activeDays = 30
}

/// What one unit of a consumable credits to a wallet balance (`100` × `gems`).
public struct WalletGrant: Sendable, Hashable, Codable {
    public let balance: String
    public let amount: Int

    public init(balance: String, amount: Int) {
        self.balance = balance
        self.amount = amount
    }
}

public struct SubscriptionInfo: Sendable, Hashable {
    /// The group an auto-renewable subscription belongs to; nil for a non-renewing one.
    public let group: String?
    /// The renewal period, or the fixed term of a non-renewing subscription.
    public let period: SubscriptionPeriod
    /// Level of service within the group: 1 is the highest; moving to a lower number is an upgrade.
    public let rank: Int?
    public let introOffer: IntroOffer?
    /// Promotional, offer-code and win-back offers of every billing plan (each says its plan).
    public let offers: [SubscriptionOffer]
    /// A one-year subscription's monthly plan with a 12-month commitment, when it has one.
    public let commitment: CommitmentPlan?

    public init(
        group: String?, period: SubscriptionPeriod, rank: Int?, introOffer: IntroOffer?,
        offers: [SubscriptionOffer] = [], commitment: CommitmentPlan? = nil
    ) {
        self.group = group
        self.period = period
        self.rank = rank
        self.introOffer = introOffer
        self.offers = offers
        self.commitment = commitment
    }

    public func offer(id: String) -> SubscriptionOffer? {
        offers.first { $0.id == id }
    }

    /// The offer-code offer whose codes include `code`, as typed.
    public func offer(code: String) -> SubscriptionOffer? {
        offers.first { $0.kind == .code && $0.has(code: code) }
    }
}

/// An offer beyond the introductory one: promotional (signed by the app's server), an offer
/// code, or win-back (for those whose subscription ended).
public struct SubscriptionOffer: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case promotional, code, winBack

        public var offerType: OfferType {
            switch self {
            case .promotional: .promotional
            case .code: .code
            case .winBack: .winBack
            }
        }
    }

    public let id: String
    public let kind: Kind
    /// What it costs, as an introductory offer's terms say it.
    public let terms: IntroOffer
    /// Offer codes that redeem once, whoever redeems them.
    public let oneTimeCodes: [String]
    /// Offer codes that each account may redeem once.
    public let customCodes: [String]
    /// How many times in all a custom code may be redeemed (App Store Connect's number of
    /// redemptions); a code not named here has no limit.
    public let customCodeLimits: [String: Int]
    /// Offer codes: who may redeem them (a `.storekit` code offer's `eligibility`); all by default.
    public let customers: Set<CustomerKind>
    /// Win-back offers: App Store Connect's customer eligibility; nil for none beyond the lapse.
    public let winBack: WinBackConditions?
    /// The billing plan it is an offer of: App Store Connect sets offers per plan.
    public let billingPlan: BillingPlanType

    public init(
        id: String, kind: Kind, terms: IntroOffer, oneTimeCodes: [String] = [], customCodes: [String] = [],
        customCodeLimits: [String: Int] = [:], customers: Set<CustomerKind> = Set(CustomerKind.allCases),
        winBack: WinBackConditions? = nil, billingPlan: BillingPlanType = .upFront
    ) {
        self.billingPlan = billingPlan
        self.id = id
        self.kind = kind
        self.terms = terms
        self.oneTimeCodes = oneTimeCodes
        self.customCodes = customCodes
        self.customCodeLimits = customCodeLimits
        self.customers = customers
        self.winBack = winBack
    }
}

/// Who an offer code is for, as a `.storekit` code offer's `eligibility` and App Store Connect's
/// customer eligibility name them: never subscribed in the group, subscribed now, or lapsed.
public enum CustomerKind: String, Sendable, Hashable, CaseIterable {
    case new, existing, expired
}

/// A win-back offer's customer eligibility, as App Store Connect sets it: how long the customer
/// paid in the group, how long ago their subscription ended, and how long since their last
/// win-back offer. Months are the store's months, which a time rate shortens as it does a period.
public struct WinBackConditions: Sendable, Hashable {
    /// `customerEligibilityPaidSubscriptionDurationInMonths`.
    public let paidMonths: Int
    /// `customerEligibilityTimeSinceLastSubscribedInMonths`: minimum and maximum.
    public let monthsSinceLapse: ClosedRange<Int>?
    /// `customerEligibilityWaitBetweenOffersInMonths`; nil for no wait.
    public let waitMonths: Int?

    public init(paidMonths: Int = 0, monthsSinceLapse: ClosedRange<Int>? = nil, waitMonths: Int? = nil) {
        self.paidMonths = paidMonths
        self.monthsSinceLapse = monthsSinceLapse
        self.waitMonths = waitMonths
    }
}

public struct IntroOffer: Sendable, Hashable {
    /// `SKProductDiscount.PaymentMode`, and StoreKit's `Transaction.Offer.PaymentMode.oneTime`
    /// ("A payment mode for a consumable, non-consumable, or non-renewing subscription offer that
    /// indicates a one-time purchase"), which only a transaction's offer has.
    public enum PaymentMode: String, Sendable, Hashable, Codable, CaseIterable {
        case freeTrial, payAsYouGo, payUpFront, oneTime

        /// The modes a subscription's offer is written with.
        public static let subscriptionModes: [PaymentMode] = [.freeTrial, .payAsYouGo, .payUpFront]
    }

    public let paymentMode: PaymentMode
    public let period: SubscriptionPeriod
    public let periods: Int
    /// Offer prices per storefront; empty for a free trial.
    public let prices: [String: Decimal]

    public init(paymentMode: PaymentMode, period: SubscriptionPeriod, periods: Int, prices: [String: Decimal]) {
        self.paymentMode = paymentMode
        self.period = period
        self.periods = periods
        self.prices = prices
    }
}

public struct SubscriptionGroup: Sendable, Hashable {
    public let id: String
    public let title: LocalizedText

    public init(id: String, title: LocalizedText) {
        self.id = id
        self.title = title
    }
}

extension SubscriptionOffer {
    /// One of the offer's codes, one-time or custom.
    public func has(code: String) -> Bool {
        oneTimeCodes.contains(code) || customCodes.contains(code)
    }
}
