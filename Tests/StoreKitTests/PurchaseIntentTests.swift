import Foundation
@_spi(Storefront) import StoreKit
import StoreKitTest
import Testing

extension StoreKitLibrary {
    /// `PurchaseIntent.intents`: a purchase the customer started on the App Store, heard by a
    /// listening app once, and completed by `purchase` on its product with its offer.
    @Suite struct PurchaseIntentTests {
        static let comeback = "com.example.storefront.premium.comeback"

        /// The customer starts a purchase on the App Store, as `storefront manage purchase-intent` does.
        static func startOnTheAppStore(_ productId: String, offer: String? = nil) async throws {
            let store = try await StoreConnection.shared.store()
            _ = try await store.backend.perform(
                .purchaseIntent(account: store.account.name, productId: productId, offerId: offer))
        }

        @Test func aPromotedPurchaseIsAnIntentOnceWhoseProductTheAppBuys() async throws {
            _ = try session()
            let intents = Collected(PurchaseIntent.intents)
            defer { intents.stop() }
            try await Self.startOnTheAppStore(Products.removeAds)
            #expect(try await eventually { intents.all.count == 1 })
            let intent = try #require(intents.all.first)
            #expect(intent.id == Products.removeAds && intent.product.id == Products.removeAds)
            #expect(intent.product.displayName == "Remove Ads")
            #expect(intent.offer == nil)
            guard case .success(.verified(let transaction)) = try await intent.product.purchase() else {
                Issue.record("expected a verified purchase")
                return
            }
            #expect(transaction.productID == Products.removeAds)
            try await Task.sleep(for: .milliseconds(600))
            #expect(intents.all.count == 1, "each intent once")
        }

        @Test func aWinBackOfferRedeemedOnTheAppStoreComesWithItsOffer() async throws {
            let session = try session()
            let monthly = try #require(try await Product.products(for: [Products.monthly]).first)
            _ = try await monthly.purchase()
            try session.expireSubscription(productIdentifier: Products.monthly)
            let intents = Collected(PurchaseIntent.intents)
            defer { intents.stop() }
            try await Self.startOnTheAppStore(Products.monthly, offer: Self.comeback)
            #expect(try await eventually { intents.all.count == 1 })
            let intent = try #require(intents.all.first)
            let offer = try #require(intent.offer)
            #expect(offer.id == Self.comeback && offer.type == .winBack && offer.paymentMode == .freeTrial)
            #expect(intent.product.subscription?.winBackOffers.contains(offer) == true)
            guard
                case .success(.verified(let transaction)) = try await intent.product.purchase(options: [
                    .winBackOffer(offer)
                ])
            else {
                Issue.record("expected the win-back offer to apply")
                return
            }
            #expect(transaction.offer?.type == .winBack && transaction.offer?.id == Self.comeback)
        }
    }
}
