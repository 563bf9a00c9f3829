import Foundation
import StoreKitModel

/// Where an account stands in one subscription group, as the App Store grants offers by it.
public struct GroupStanding: Sendable, Hashable {
    public enum Status: Sendable, Hashable {
        /// Never subscribed in the group.
        case never
        /// A plan of the group is in force (its billing grace period included).
        case subscribed
        /// The subscription ended on a failed renewal the store is still retrying.
        case billingRetry
        /// Subscribed once; the last plan ended then.
        case lapsed(since: Date)
    }

    public var status: Status
    /// How long the account has had paid service in the group (free periods not counted).
    public var paidSeconds: Double
    /// When the account last took a win-back offer in the group.
    public var lastWinBack: Date?

    public init(status: Status = .never, paidSeconds: Double = 0, lastWinBack: Date? = nil) {
        self.status = status
        self.paidSeconds = paidSeconds
        self.lastWinBack = lastWinBack
    }

    /// The kind of customer an offer code's `eligibility` names.
    public var customer: CustomerKind {
        switch status {
        case .never: .new
        case .subscribed, .billingRetry: .existing
        case .lapsed: .expired
        }
    }
}

/// What the account's past says about the offers it may take: its standing in each group, and
/// the offer codes redeemed. The store builds it from its records inside a payment's write; the
/// storefront and `products --json` build it from the store's entitlements and history, so they
/// show as eligible exactly what the store accepts.
public struct OfferHistory: Sendable, Hashable {
    public var groups: [String: GroupStanding]
    /// Offer codes this account has redeemed.
    public var redeemedCodes: Set<String>
    /// How many times each code has been redeemed, by any account.
    public var codeRedemptions: [String: Int]
    /// When the account last paid for something in the app (a purchase or a renewal that
    /// charged it), which makes it an active or a churned spender for offer codes of In-App
    /// Purchases; nil when it never has.
    public var lastPaidPurchase: Date?

    public init(
        groups: [String: GroupStanding] = [:], redeemedCodes: Set<String> = [], codeRedemptions: [String: Int] = [:],
        lastPaidPurchase: Date? = nil
    ) {
        self.groups = groups
        self.redeemedCodes = redeemedCodes
        self.codeRedemptions = codeRedemptions
        self.lastPaidPurchase = lastPaidPurchase
    }

    /// From StoreKit 2's current entitlements and the account's transactions (any order).
    public init(
        entitlements: [Entitlement], history: [Transaction], catalog: Catalog, at now: Date,
        redeemedCodes: Set<String> = [], codeRedemptions: [String: Int] = [:]
    ) {
        var groups: [String: GroupStanding] = [:]
        var lastEnd: [String: Date] = [:]
        var lastPaid: Date?
        for transaction in history where transaction.state.hasReceipt {
            if let terms = transaction.terms, terms.price > 0, terms.ownership == .purchased {
                lastPaid = max(lastPaid ?? transaction.purchaseDate, transaction.purchaseDate)
            }
            guard let group = catalog.product(id: transaction.productId)?.subscription?.group else { continue }
            var standing = groups[group] ?? GroupStanding()
            let terms = transaction.terms
            let end = terms.flatMap(Self.serviceEnd) ?? transaction.purchaseDate
            lastEnd[group] = max(lastEnd[group] ?? end, end)
            if let terms, terms.price > 0 {
                standing.paidSeconds += max(0, end.timeIntervalSince(transaction.purchaseDate))
            }
            if terms?.offer?.type == .winBack {
                standing.lastWinBack = max(standing.lastWinBack ?? transaction.purchaseDate, transaction.purchaseDate)
            }
            standing.status = .lapsed(since: lastEnd[group] ?? end)
            groups[group] = standing
        }
        for entitlement in entitlements where entitlement.type == .autoRenewable {
            guard let group = catalog.product(id: entitlement.productId)?.subscription?.group else { continue }
            var standing = groups[group] ?? GroupStanding()
            if entitlement.isActive(at: now) {
                standing.status = .subscribed
            } else if entitlement.renewal?.isInBillingRetry == true, standing.status != .subscribed {
                standing.status = .billingRetry
            }
            groups[group] = standing
        }
        self.init(
            groups: groups, redeemedCodes: redeemedCodes, codeRedemptions: codeRedemptions, lastPaidPurchase: lastPaid)
    }

    /// The kind of customer an In-App Purchase's offer code names this account at `now`: never
    /// paid in the app, paid within the last 30 days (as `rate` runs days), or before.
    public func spender(rate: TimeRate, at now: Date) -> SpenderKind {
        guard let lastPaidPurchase else { return .nonSpender }
        let active = rate.end(of: SubscriptionPeriod(value: SpenderKind.activeDays, unit: .day), from: lastPaidPurchase)
        return now < active ? .activeSpender : .churnedSpender
    }

    /// When a transaction's service ended or ends: its expiry, brought forward by a refund or an
    /// upgrade that ended it early.
    private static func serviceEnd(_ terms: TransactionTerms) -> Date? {
        guard let expiry = terms.expirationDate else { return nil }
        return [expiry, terms.revocation?.date, terms.upgrade?.date].compactMap { $0 }.min()
    }

    public func standing(in group: String?) -> GroupStanding {
        group.flatMap { groups[$0] } ?? GroupStanding()
    }
}
