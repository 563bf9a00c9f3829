import Foundation
import StoreKitModel

/// The App Store's rule for who may take an offer, apart from any store: the purchase sheet
/// offers, `products --json` reports and the store accepts exactly what it says.
///
/// - introductory: accounts that never subscribed in the group;
/// - promotional: accounts that have or had a subscription in the group;
/// - win-back: accounts whose subscription in the group ended (not in billing retry), within the
///   offer's conditions (months paid, months since it ended, months since the last win-back offer);
/// - offer codes: the kinds of customer the offer names (new, existing, expired); a one-time code
///   once, a custom code once per account and at most its limit in all;
/// - offer codes of consumables, non-consumables and non-renewing subscriptions: the kinds of
///   spender the offer names (never purchased in the app, in the last 30 days, or before), one
///   code per offer for each customer, and each code's limit as above.
public enum OfferEligibility {
    public enum Verdict: Sendable, Hashable {
        case eligible
        case ineligible(IneligibleReason)

        public var isEligible: Bool { self == .eligible }

        public var reason: IneligibleReason? {
            if case .ineligible(let reason) = self { return reason }
            return nil
        }
    }

    public static func introductory(_ product: Product, history: OfferHistory) -> Verdict {
        history.standing(in: product.subscription?.group).status == .never ? .eligible : .ineligible(.introOfferUsed)
    }

    /// Whether the account may take `offer` of `product` now; for an offer code, redeemed with
    /// `code` (nil: with any of its codes the account may still redeem).
    public static func verdict(
        for offer: SubscriptionOffer, of product: Product, code: String? = nil, history: OfferHistory,
        rate: TimeRate, at now: Date
    ) -> Verdict {
        let standing = history.standing(in: product.subscription?.group)
        switch offer.kind {
        case .promotional:
            return standing.status == .never ? .ineligible(.neverSubscribed) : .eligible
        case .winBack:
            return winBack(offer.winBack, standing: standing, rate: rate, at: now)
        case .code:
            guard offer.customers.contains(standing.customer) else {
                return .ineligible(.notForCustomer(standing.customer, allowed: offer.customers))
            }
            let codes = code.map { [$0] } ?? offer.oneTimeCodes + offer.customCodes
            let verdicts = codes.map { codeVerdict($0, of: offer, history: history) }
            return verdicts.first(where: \.isEligible) ?? verdicts.first ?? .ineligible(.codeRedeemed)
        }
    }

    static func winBack(_ conditions: WinBackConditions?, standing: GroupStanding, rate: TimeRate, at now: Date)
        -> Verdict
    {
        let since: Date
        switch standing.status {
        case .never: return .ineligible(.neverSubscribed)
        case .subscribed: return .ineligible(.subscribedNow)
        case .billingRetry: return .ineligible(.billingRetry)
        case .lapsed(let date): since = date
        }
        guard let conditions else { return .eligible }
        // A month as the rate runs one now (a calendar month in real time).
        let month = rate.end(of: SubscriptionPeriod(value: 1, unit: .month), from: now).timeIntervalSince(now)
        let months = { (seconds: Double) in seconds / month }
        if months(standing.paidSeconds) < Double(conditions.paidMonths) {
            return .ineligible(.paidTooShort(months: conditions.paidMonths))
        }
        if let range = conditions.monthsSinceLapse {
            let elapsed = months(now.timeIntervalSince(since))
            if elapsed < Double(range.lowerBound) { return .ineligible(.lapsedTooRecently(months: range.lowerBound)) }
            if elapsed > Double(range.upperBound) { return .ineligible(.lapsedTooLongAgo(months: range.upperBound)) }
        }
        if let wait = conditions.waitMonths, let last = standing.lastWinBack,
            months(now.timeIntervalSince(last)) < Double(wait)
        {
            return .ineligible(.winBackTooRecent(months: wait))
        }
        return .eligible
    }

    static func codeVerdict(_ code: String, of offer: SubscriptionOffer, history: OfferHistory) -> Verdict {
        codeVerdict(
            code, oneTime: offer.oneTimeCodes.contains(code), limit: offer.customCodeLimits[code], history: history)
    }

    static func codeVerdict(_ code: String, oneTime: Bool, limit: Int?, history: OfferHistory) -> Verdict {
        let redemptions = history.codeRedemptions[code] ?? 0
        if oneTime {
            return redemptions > 0 ? .ineligible(.codeRedeemed) : .eligible
        }
        if history.redeemedCodes.contains(code) { return .ineligible(.codeRedeemed) }
        if let limit, redemptions >= limit {
            return .ineligible(.codeLimitReached(limit))
        }
        return .eligible
    }

    /// Whether the account may redeem an offer code of a consumable, a non-consumable or a
    /// non-renewing subscription now, with `code` (nil: with any of its codes the account may
    /// still redeem): App Store Connect's customer eligibility (never purchased in the app,
    /// purchased in the last 30 days, or before), one code per offer for each customer, and each
    /// code's own limit.
    public static func verdict(
        for offer: OneTimeOffer, code: String? = nil, history: OfferHistory, rate: TimeRate, at now: Date
    ) -> Verdict {
        let spender = history.spender(rate: rate, at: now)
        guard offer.spenders.contains(spender) else {
            return .ineligible(.notForSpender(spender, allowed: offer.spenders))
        }
        // "Each customer can redeem one code per offer."
        if offer.codes.contains(where: history.redeemedCodes.contains) { return .ineligible(.offerRedeemed) }
        let codes = code.map { [$0] } ?? offer.codes
        let verdicts = codes.map {
            codeVerdict(
                $0, oneTime: offer.oneTimeCodes.contains($0), limit: offer.customCodeLimits[$0], history: history)
        }
        return verdicts.first(where: \.isEligible) ?? verdicts.first ?? .ineligible(.codeRedeemed)
    }
}
