import Foundation
import StoreCore

/// StoreKit 2's `PurchaseIntent` (iOS 16.4; `offer` iOS 18): a purchase the customer started
/// outside the app, by tapping a promoted in-app purchase on the App Store or redeeming a
/// win-back offer there, for the app to complete by calling `purchase` on `product` (with
/// `.winBackOffer(offer)` when there is one). A tester starts one with `storefront manage
/// purchase-intent PRODUCT [--offer ID]`.
public struct PurchaseIntent: Identifiable, Hashable, Sendable {
    /// The product the customer chose, in the account's storefront.
    public let product: Product
    /// The offer to apply to the purchase: the win-back offer redeemed; nil for none (a promoted
    /// in-app purchase). Only ever a subscription's.
    public let offer: Product.SubscriptionOffer?

    /// The product's identifier, as Apple's intent is identified (`@backDeployed` before iOS 18).
    public var id: Product.ID { product.id }

    /// StoreKit 2's `PurchaseIntent.PurchaseIntents`: each purchase the customer starts outside
    /// the app, once. The store announces none, so it is looked at every quarter of a second;
    /// each intent the store holds for the account is given to the first app of it that looks.
    public struct PurchaseIntents: AsyncSequence, Sendable {
        public typealias Element = PurchaseIntent
        public typealias AsyncIterator = AsyncStream<PurchaseIntent>.Iterator

        public func makeAsyncIterator() -> AsyncIterator {
            LookedAt.stream(keeping: ()) { _ in await PurchaseIntent.taken() }.makeAsyncIterator()
        }
    }

    /// Iterate it in a `Task` started as early as the app launches, as Apple advises.
    public static var intents: PurchaseIntents { PurchaseIntents() }

    /// The intents the store held for the account, taken from it (each once). One whose product
    /// is not sold in the account's storefront now cannot be completed, and is left out.
    static func taken() async -> [PurchaseIntent] {
        guard let store = try? await StoreKitCall.store(),
            let intents = try? await store.backend.takePurchaseIntents(account: store.account.name), !intents.isEmpty
        else { return [] }
        let storefront = (try? await store.storefrontNow()) ?? store.storefront
        return intents.compactMap { intent in
            guard let model = store.catalog.product(id: intent.productId),
                let product = Product(model, in: storefront, store: store)
            else { return nil }
            let offers = (product.subscription?.winBackOffers ?? []) + (product.subscription?.promotionalOffers ?? [])
            let offer = intent.offerId.flatMap { id in offers.first { $0.id == id } }
            return PurchaseIntent(product: product, offer: offer)
        }
    }
}
