import Foundation

/// How an auto-renewable subscription is paid (StoreKit's `Product.SubscriptionInfo.BillingPlanType`):
/// the whole period up front, or, for a one-year subscription, in twelve monthly payments with a
/// 12-month commitment.
public enum BillingPlanType: String, Sendable, Hashable, CaseIterable, Codable {
    case upFront
    case monthly

    /// The name the App Store Server API and its notifications give it (`billingPlanType`,
    /// `renewalBillingPlanType`).
    public var serverName: String {
        switch self {
        case .upFront: "BILLED_UPFRONT"
        case .monthly: "MONTHLY"
        }
    }
}

/// A one-year subscription's second billing plan: twelve monthly payments the customer commits
/// to. Cancelling stops the next commitment, never the payments left in this one.
public struct CommitmentPlan: Sendable, Hashable {
    /// Payments in one commitment.
    public static let totalBillingPeriods = 12
    /// What each payment grants.
    public static let billingPeriod = SubscriptionPeriod(value: 1, unit: .month)
    /// Storefronts where Apple does not offer the plan: the United States and Singapore.
    public static let unavailableStorefronts: Set<String> = ["USA", "SGP"]

    /// The monthly price per storefront.
    public let prices: [String: Decimal]
    /// The plan's own introductory offer; its periods are the commitment's first payments.
    public let introOffer: IntroOffer?

    public init(prices: [String: Decimal], introOffer: IntroOffer? = nil) {
        self.prices = prices
        self.introOffer = introOffer
    }

    public func isOffered(in storefront: String) -> Bool {
        !Self.unavailableStorefronts.contains(storefront) && prices[storefront] != nil
    }

    /// What the twelve payments of a commitment total: the first ones at `offer`'s price (one
    /// payment per offer period, nothing for a free trial), the rest at the monthly price; nil
    /// where the plan is not offered.
    public func commitmentPrice(in storefront: String, offer: IntroOffer? = nil) -> Decimal? {
        guard isOffered(in: storefront), let monthly = prices[storefront] else { return nil }
        let offered = min(offer?.periods ?? 0, Self.totalBillingPeriods)
        let offerPayment = offer.map { $0.paymentMode == .freeTrial ? 0 : $0.prices[storefront] ?? monthly } ?? monthly
        return offerPayment * Decimal(offered) + monthly * Decimal(Self.totalBillingPeriods - offered)
    }
}

/// Where a payment stands in its commitment (StoreKit's `Transaction.CommitmentInfo`, the App
/// Store Server API's `TransactionCommitmentInfo`).
public struct TransactionCommitment: Sendable, Hashable {
    /// This payment's place, 1 to `totalBillingPeriods`.
    public let billingPeriodNumber: Int
    public let totalBillingPeriods: Int
    /// What the whole commitment costs: the sum of its payments.
    public let price: Decimal
    /// When the whole commitment ends; access follows each payment's own expiry instead.
    public let expirationDate: Date

    public init(billingPeriodNumber: Int, totalBillingPeriods: Int, price: Decimal, expirationDate: Date) {
        self.billingPeriodNumber = billingPeriodNumber
        self.totalBillingPeriods = totalBillingPeriods
        self.price = price
        self.expirationDate = expirationDate
    }

    /// "payment 4 of 12".
    public var progress: String { "payment \(billingPeriodNumber) of \(totalBillingPeriods)" }
}

extension SubscriptionInfo {
    /// The billing plans a buyer in `storefront` may choose, up front first.
    public func billingPlans(in storefront: String) -> [BillingPlanType] {
        commitment?.isOffered(in: storefront) == true ? [.upFront, .monthly] : [.upFront]
    }

    /// The introductory offer of `plan`.
    public func introOffer(for plan: BillingPlanType) -> IntroOffer? {
        plan == .monthly ? commitment?.introOffer : introOffer
    }
}

extension Product {
    /// What one payment of `plan` costs in `storefront`: the product's price up front, the
    /// monthly price on the commitment plan; nil where that plan is not sold.
    public func billingPrice(_ plan: BillingPlanType, in storefront: String) -> Decimal? {
        switch plan {
        case .upFront: return prices[storefront]
        case .monthly:
            guard isSold(in: storefront), let commitment = subscription?.commitment,
                commitment.isOffered(in: storefront)
            else { return nil }
            return commitment.prices[storefront]
        }
    }

    /// Why `plan` cannot be bought in `storefront`; nil when it can.
    public func billingPlanProblem(_ plan: BillingPlanType, in storefront: String) -> String? {
        guard plan == .monthly else { return nil }
        guard type == .autoRenewable, let commitment = subscription?.commitment else {
            return "\(id) has no monthly plan with a 12-month commitment; only its up-front price can be paid"
        }
        if CommitmentPlan.unavailableStorefronts.contains(storefront) {
            return
                "Apple does not offer monthly plans with a 12-month commitment in \(storefront) (not in the United States or Singapore); pay up front, or choose another storefront"
        }
        guard commitment.prices[storefront] != nil else {
            return "\(id) has no monthly price in \(storefront); pay up front, or choose another storefront"
        }
        return nil
    }
}

extension SubscriptionOffer {
    /// This offer, set on `plan`.
    public func onPlan(_ plan: BillingPlanType) -> SubscriptionOffer {
        SubscriptionOffer(
            id: id, kind: kind, terms: terms, oneTimeCodes: oneTimeCodes, customCodes: customCodes,
            customCodeLimits: customCodeLimits, customers: customers, winBack: winBack, billingPlan: plan)
    }
}
