import Foundation
import StoreKitModel

/// What an account holds, as the App Store's purchase rules need it. The store builds it from
/// its records inside a payment's write; the storefront builds it from the store's entitlements
/// and history, so the sheet quotes what the store will charge.
public struct Holdings: Sendable, Hashable {
    /// Non-consumables the account owns (not refunded).
    public var owned: Set<String>
    /// Auto-renewable subscriptions in force, with their current expiry.
    public var activeSubscriptions: [String: Date]
    /// Subscription groups the account has ever subscribed in: their introductory offers are spent.
    public var groupsSubscribed: Set<String>
    /// What an upgrade now refunds of each subscription in force: the unused part of its period.
    public var upgradeRefunds: [String: Decimal]
    /// Subscriptions in force in a 12-month commitment, with when it ends: they are billed
    /// monthly, and a change that waits for the renewal waits for the commitment's end.
    public var commitmentEnds: [String: Date]

    public init(
        owned: Set<String> = [], activeSubscriptions: [String: Date] = [:], groupsSubscribed: Set<String> = [],
        upgradeRefunds: [String: Decimal] = [:], commitmentEnds: [String: Date] = [:]
    ) {
        self.owned = owned
        self.activeSubscriptions = activeSubscriptions
        self.groupsSubscribed = groupsSubscribed
        self.upgradeRefunds = upgradeRefunds
        self.commitmentEnds = commitmentEnds
    }

    /// How the subscription in force to `productId` is billed.
    public func billingPlan(of productId: String) -> BillingPlanType {
        commitmentEnds[productId] != nil ? .monthly : .upFront
    }

    /// When a change to the subscription in force to `productId` that waits for its renewal
    /// happens: the period's end, or the commitment's.
    public func nextRenewal(of productId: String) -> Date? {
        commitmentEnds[productId] ?? activeSubscriptions[productId]
    }

    /// From StoreKit 2's current entitlements and the account's transactions (any order).
    public init(entitlements: [Entitlement], history: [Transaction], catalog: Catalog, at now: Date) {
        var holdings = Holdings()
        for entitlement in entitlements {
            switch entitlement.type {
            case .nonConsumable:
                holdings.owned.insert(entitlement.productId)
            case .autoRenewable:
                if entitlement.isActive(at: now), let expiry = entitlement.expiresDate {
                    holdings.activeSubscriptions[entitlement.productId] = max(
                        expiry, entitlement.renewal?.gracePeriodExpirationDate ?? expiry)
                    holdings.upgradeRefunds[entitlement.productId] = Self.unusedValue(
                        of: entitlement, expiry: expiry, history: history, at: now)
                    if let commitment = entitlement.renewal?.commitment {
                        holdings.commitmentEnds[entitlement.productId] = commitment.renewalDate
                    }
                }
            case .consumable, .nonRenewing:
                break
            }
        }
        for transaction in history where transaction.state.hasReceipt {
            if let group = catalog.product(id: transaction.productId)?.subscription?.group {
                holdings.groupsSubscribed.insert(group)
            }
        }
        self = holdings
    }

    /// The unused part of what paid for the period in force. The period was paid by the first
    /// transaction of the chain that runs to `expiry`; a later one (bought again) charged nothing.
    private static func unusedValue(of entitlement: Entitlement, expiry: Date, history: [Transaction], at now: Date)
        -> Decimal
    {
        let period = history.filter {
            $0.originalId == entitlement.originalTransactionId && $0.terms?.expirationDate == expiry
                && $0.terms?.revocation == nil  // a refund keeps its expiry, and paid for nothing left
        }
        guard let payer = period.min(by: { $0.purchaseDate < $1.purchaseDate }), let terms = payer.terms else {
            return 0
        }
        return Upgrade.proratedRefund(
            of: terms.price, currency: terms.currency, start: payer.purchaseDate, end: expiry, at: now)
    }

    public func isEligibleForIntroOffer(_ product: Product, plan: BillingPlanType = .upFront) -> Bool {
        guard product.type == .autoRenewable, let subscription = product.subscription,
            subscription.introOffer(for: plan) != nil, let group = subscription.group
        else { return false }
        return !groupsSubscribed.contains(group)
    }
}

/// What buying a product costs an account now, by the App Store's rules. The confirmation
/// sheet shows it; the store charges exactly it.
public struct PurchaseQuote: Sendable, Hashable {
    public enum Basis: Sendable, Hashable {
        /// The price times the quantity.
        case fullPrice
        /// A non-consumable the account owns: delivered again, free ("already purchased").
        case alreadyOwned
        /// This subscription is in force: delivered again, nothing charged, nothing extended.
        case alreadySubscribed(until: Date)
        /// The subscription's introductory offer, which the account is eligible for.
        case introductory(IntroOffer)
        /// Another plan of the group is in force: an upgrade, or a crossgrade of the same duration,
        /// replaces it now at the full price, and the unused part of its period (`refund`) is
        /// refunded.
        case replacesNow(String, refund: Decimal)
        /// A downgrade, a crossgrade of another duration, or the plan in force on another billing
        /// plan: nothing is charged now, and the subscription in force (`from`) renews to this
        /// product and plan at its next renewal (`on`), the end of its commitment when it has one.
        case atNextRenewal(from: String, on: Date)
    }

    public let basis: Basis
    /// Charged now, in the storefront's currency; nil where the product is not sold.
    public let price: Decimal?
    /// What a subscription renews at after this purchase's period (and its offer) ends: a
    /// month's payment on the monthly plan.
    public let renewalPrice: Decimal?
    /// How it is billed.
    public let plan: BillingPlanType
    /// On the monthly plan, what the twelve payments of the commitment total.
    public let commitmentPrice: Decimal?

    public init(
        basis: Basis, price: Decimal?, renewalPrice: Decimal?, plan: BillingPlanType = .upFront,
        commitmentPrice: Decimal? = nil
    ) {
        self.basis = basis
        self.price = price
        self.renewalPrice = renewalPrice
        self.plan = plan
        self.commitmentPrice = commitmentPrice
    }
}

/// The App Store's rules for a purchase, apart from any store: what may be bought how often,
/// and what it costs an account with given holdings.
public enum PurchaseRules {
    /// Quantities above 1 are for consumables only; nil when `quantity` is allowed.
    public static func quantityProblem(_ quantity: Int, for product: Product) -> String? {
        guard quantity > 1, product.type != .consumable else { return nil }
        return
            "quantity \(quantity): only consumables can be bought more than one at a time, and \(product.id) is \(product.type.label(in: .english).lowercased())"
    }

    /// `plan`: the billing plan chosen; where the product has no such plan, the quote has no
    /// price (as where the product is not sold).
    public static func quote(
        _ product: Product, quantity: Int, storefront: String, holdings: Holdings, catalog: Catalog,
        plan: BillingPlanType = .upFront
    ) -> PurchaseQuote {
        let unit =
            product.type == .autoRenewable ? product.billingPrice(plan, in: storefront) : product.prices[storefront]
        let renewal = product.type == .autoRenewable ? unit : nil
        let free: Decimal? = unit.map { _ in 0 }
        func subscription(_ basis: PurchaseQuote.Basis, _ price: Decimal?, offer: IntroOffer? = nil) -> PurchaseQuote {
            PurchaseQuote(
                basis: basis, price: price, renewalPrice: renewal, plan: plan,
                commitmentPrice: plan == .monthly
                    ? product.subscription?.commitment?.commitmentPrice(in: storefront, offer: offer) : nil)
        }
        switch product.type {
        case .nonConsumable where holdings.owned.contains(product.id):
            return PurchaseQuote(basis: .alreadyOwned, price: free, renewalPrice: nil)
        case .autoRenewable:
            if let expiry = holdings.activeSubscriptions[product.id] {
                guard holdings.billingPlan(of: product.id) == plan else {
                    // The plan in force on the other billing plan: it switches at the renewal.
                    let on = holdings.nextRenewal(of: product.id) ?? expiry
                    return subscription(.atNextRenewal(from: product.id, on: on), free)
                }
                return subscription(.alreadySubscribed(until: expiry), free)
            }
            if let change = groupChange(to: product, holdings: holdings, catalog: catalog) {
                if case .atNextRenewal = change { return subscription(change, free) }
                return subscription(change, unit)
            }
            if let offer = product.subscription?.introOffer(for: plan),
                holdings.isEligibleForIntroOffer(product, plan: plan)
            {
                let price: Decimal? = offer.paymentMode == .freeTrial ? free : offer.prices[storefront]
                return subscription(.introductory(offer), price, offer: offer)
            }
            return subscription(.fullPrice, unit)
        default:
            break
        }
        return PurchaseQuote(basis: .fullPrice, price: unit.map { $0 * Decimal(quantity) }, renewalPrice: renewal)
    }
}

extension PurchaseRules {
    /// Apple's rule for moving within a subscription group: a higher level (a lower rank number)
    /// at once; the same level at once when the durations match, else at renewal; a lower
    /// level at renewal. Nil when no other plan of the group is in force.
    static func groupChange(to product: Product, holdings: Holdings, catalog: Catalog) -> PurchaseQuote.Basis? {
        guard let subscription = product.subscription, let group = subscription.group else { return nil }
        for (otherId, expiry) in holdings.activeSubscriptions.sorted(by: { $0.key < $1.key })
        where otherId != product.id {
            guard let other = catalog.product(id: otherId)?.subscription, other.group == group else { continue }
            let rank = subscription.rank ?? 0
            let otherRank = other.rank ?? 0
            if rank < otherRank || (rank == otherRank && subscription.period == other.period) {
                return .replacesNow(otherId, refund: holdings.upgradeRefunds[otherId] ?? 0)
            }
            return .atNextRenewal(from: otherId, on: holdings.nextRenewal(of: otherId) ?? expiry)
        }
        return nil
    }
}

extension IntroOffer {
    /// When the first transaction of an offer that starts at `start` ends at `rate`: after the
    /// whole offer when paid at once (a free trial, pay up front), one period when paid as you go.
    public func firstTermEnd(at rate: TimeRate, from start: Date) -> Date {
        rate.end(of: period, periods: paymentMode == .payAsYouGo ? 1 : periods, from: start)
    }

    /// What the first transaction of the offer charges in `storefront`: nothing for a free
    /// trial; nil where the offer has no price there.
    public func firstPayment(in storefront: String) -> Decimal? {
        paymentMode == .freeTrial ? 0 : prices[storefront]
    }
}
