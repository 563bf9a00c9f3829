import Foundation
import StoreKitModel

/// Why an account may not take an offer: the store refuses it with `SKError.ineligibleForOffer`
/// (18), and the sheet, `products --json` and `buy` say this.
public enum IneligibleReason: Sendable, Hashable {
    /// Introductory: the account subscribed in the group before.
    case introOfferUsed
    /// Promotional or win-back: the account never subscribed in the group.
    case neverSubscribed
    /// Win-back: a plan of the group is in force.
    case subscribedNow
    /// Win-back: the subscription ended on a renewal the store is still retrying.
    case billingRetry
    /// Win-back: fewer paid months in the group than the offer asks.
    case paidTooShort(months: Int)
    /// Win-back: the subscription ended fewer months ago than the offer asks.
    case lapsedTooRecently(months: Int)
    /// Win-back: the subscription ended more months ago than the offer allows.
    case lapsedTooLongAgo(months: Int)
    /// Win-back: the account took a win-back offer in the group within the offer's wait.
    case winBackTooRecent(months: Int)
    /// Offer code: for other kinds of customer than this account.
    case notForCustomer(CustomerKind, allowed: Set<CustomerKind>)
    /// Offer code: a one-time code already redeemed, or a custom code this account redeemed.
    case codeRedeemed
    /// Offer code: a custom code redeemed as many times as its limit.
    case codeLimitReached(Int)
    /// In-App Purchase offer code: for other kinds of spender than this account.
    case notForSpender(SpenderKind, allowed: Set<SpenderKind>)
    /// In-App Purchase offer code: the account redeemed a code of this offer already ("Each
    /// customer can redeem one code per offer").
    case offerRedeemed

    /// A stable name for scripts (`products --json`'s `ineligibleReason`).
    public var name: String {
        switch self {
        case .introOfferUsed: "introOfferUsed"
        case .neverSubscribed: "neverSubscribed"
        case .subscribedNow: "subscribedNow"
        case .billingRetry: "billingRetry"
        case .paidTooShort: "paidTooShort"
        case .lapsedTooRecently: "lapsedTooRecently"
        case .lapsedTooLongAgo: "lapsedTooLongAgo"
        case .winBackTooRecent: "winBackTooRecent"
        case .notForCustomer: "notForCustomer"
        case .codeRedeemed: "codeRedeemed"
        case .codeLimitReached: "codeLimitReached"
        case .notForSpender: "notForSpender"
        case .offerRedeemed: "offerRedeemed"
        }
    }

    /// One short English sentence, without a capital or a full stop, to follow "not eligible: ".
    public var message: String {
        switch self {
        case .introOfferUsed:
            "the account has subscribed in this group before; introductory offers are for new subscribers"
        case .neverSubscribed: "the account has never subscribed in this group"
        case .subscribedNow: "a subscription in this group is in force; win-back offers are for lapsed subscribers"
        case .billingRetry: "the subscription is in billing retry, which win-back offers wait out"
        case .paidTooShort(let months): "the offer needs \(Self.months(months)) of paid subscription in this group"
        case .lapsedTooRecently(let months): "the subscription ended less than \(Self.months(months)) ago"
        case .lapsedTooLongAgo(let months): "the subscription ended more than \(Self.months(months)) ago"
        case .winBackTooRecent(let months):
            "the account took a win-back offer in this group less than \(Self.months(months)) ago"
        case .notForCustomer(let kind, let allowed):
            "the code is for \(Self.customers(allowed)) subscribers; this account is \(Self.article(kind)) \(kind.rawValue) subscriber"
        case .codeRedeemed: "the code has already been redeemed"
        case .codeLimitReached(let limit):
            "the code has reached its limit of \(limit) redemption\(limit == 1 ? "" : "s")"
        case .notForSpender(let kind, let allowed):
            "the code is for customers who \(Self.spenders(allowed)); this account \(Self.spender(kind))"
        case .offerRedeemed:
            "the account has redeemed a code of this offer already; each customer redeems one per offer"
        }
    }

    /// What a kind of spender did, as App Store Connect describes it.
    private static func spender(_ kind: SpenderKind) -> String {
        switch kind {
        case .nonSpender: "never purchased within the app"
        case .activeSpender: "purchased within the app in the last \(SpenderKind.activeDays) days"
        case .churnedSpender: "purchased within the app more than \(SpenderKind.activeDays) days ago"
        }
    }

    /// "never purchased within the app or purchased … more than 30 days ago", in App Store Connect's order.
    private static func spenders(_ kinds: Set<SpenderKind>) -> String {
        let names = SpenderKind.allCases.filter(kinds.contains).map(spender)
        guard names.count > 1 else { return names.first ?? "nobody" }
        return names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
    }

    private static func months(_ count: Int) -> String { count == 1 ? "1 month" : "\(count) months" }

    private static func article(_ kind: CustomerKind) -> String { kind == .new ? "a" : "an" }

    /// "new", "new or expired", "new, existing or expired", in the catalog's order.
    private static func customers(_ kinds: Set<CustomerKind>) -> String {
        let names = CustomerKind.allCases.filter(kinds.contains).map(\.rawValue)
        guard names.count > 1 else { return names.first ?? "no" }
        return names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
    }
}
