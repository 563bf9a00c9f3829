import Foundation
import StoreCore
import StoreKitModel

/// The offers the purchase sheet may choose, by the rule the store applies to the payment.
extension AppState {
    /// This account's standing for offers, from the store's entitlements and history.
    public var offerHistory: OfferHistory {
        OfferHistory(entitlements: entitlements, history: history, catalog: catalog, at: now)
    }

    /// The product's promotional and win-back offers (codes are redeemed with `c`), each with
    /// whether this account may take it now.
    public func offerChoices(_ product: Product) -> [OfferChoice] {
        let offers = product.subscription?.offers.filter { $0.kind != .code } ?? []
        guard !offers.isEmpty else { return [] }
        let history = offerHistory
        return offers.map {
            OfferChoice(
                offer: $0,
                verdict: OfferEligibility.verdict(
                    for: $0, of: product, history: history, rate: controls.timeRate, at: now))
        }
    }

    /// The ids `o` cycles through: the offers of `plan` this account may take (App Store
    /// Connect sets offers per billing plan).
    public func eligibleOfferIds(_ product: Product, plan: BillingPlanType = .upFront) -> [String] {
        offerChoices(product).filter { $0.verdict.isEligible && $0.offer.billingPlan == plan }.map(\.offer.id)
    }
}

public struct OfferChoice: Sendable, Hashable {
    public let offer: SubscriptionOffer
    public let verdict: OfferEligibility.Verdict
}
