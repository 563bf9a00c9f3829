import Foundation
import StoreCore
import StoreEngine
import StoreKitModel

/// What a session knows about offers beyond the catalog: the key promotional offers are signed
/// with, and the account's standing for the eligibility rule.
extension StoreSession {
    /// The simulated store's offers key (the catalog's, or the one it keeps for the catalog);
    /// nil for a remote store, whose promotional offers are signed with the catalog's key.
    var offersKeySource: (@Sendable () async throws -> OfferSigningKey)? {
        guard let local = store as? SimulatedStore else { return nil }
        return { try await local.offersKey() }
    }

    /// Why the account may not take `offer` now; nil when it may, or the offer is not the catalog's.
    func ineligibility(of offer: PaymentOffer, productId: String) async throws -> IneligibleReason? {
        if let product = context.catalog.product(id: productId), product.type != .autoRenewable {
            guard case .code(let redeemed) = offer, let found = product.codeOffer(code: redeemed) else { return nil }
            let history = try await AccountOffers.history(
                store: store, account: account.name, catalog: context.catalog)
            let rate = try await store.controls().timeRate
            return OfferEligibility.verdict(
                for: found, code: redeemed, history: history, rate: rate, at: AccountOffers.now(store)
            ).reason
        }
        guard let product = context.catalog.product(id: productId), let subscription = product.subscription else {
            return nil
        }
        let found: SubscriptionOffer?
        var code: String?
        switch offer {
        case .promotional(let discount): found = subscription.offer(id: discount.identifier)
        case .winBack(let id): found = subscription.offer(id: id)
        case .signedPromotional(let signed):
            found = signed.unverifiedClaims?.offerIdentifier.flatMap(subscription.offer(id:))
        case .code(let redeemed):
            found = subscription.offer(code: redeemed)
            code = redeemed
        }
        guard let found else { return nil }
        let history = try await AccountOffers.history(store: store, account: account.name, catalog: context.catalog)
        let rate = try await store.controls().timeRate
        return OfferEligibility.verdict(
            for: found, of: product, code: code, history: history, rate: rate, at: AccountOffers.now(store)
        ).reason
    }
}

/// An account's offer history from whichever store a command talks to.
enum AccountOffers {
    /// The simulated store's own (codes redeemed included); a remote store's from its
    /// entitlements and transactions, which carry no code counts.
    static func history(store: any StoreBackend, account: String, catalog: Catalog) async throws -> OfferHistory {
        if let local = store as? SimulatedStore { return try await local.offerHistory(account: account) }
        return OfferHistory(
            entitlements: try await store.entitlements(account: account),
            history: try await store.transactions(account: account), catalog: catalog, at: Date())
    }

    /// The store's time: the simulated store's clock, else this machine's.
    static func now(_ store: any StoreBackend) -> Date {
        (store as? SimulatedStore)?.clock.now() ?? Date()
    }
}
