import Foundation
import StoreKitModel
import SyntheticData
import Testing

@Suite struct SyntheticCatalogTests {
    @Test func sameSeedSameBytes() {
        let first = SyntheticCatalog.generate(count: 500, seed: 42)
        let second = SyntheticCatalog.generate(count: 500, seed: 42)
        #expect(first == second)
        #expect(first != SyntheticCatalog.generate(count: 500, seed: 43))
        // A longer catalog starts with the same products: each product depends only on the ones before it.
        #expect(first.count < SyntheticCatalog.generate(count: 501, seed: 42).count)
    }

    @Test func fiveHundredProductsValidateCleanly() throws {
        let catalog = try CatalogLoader.decode(SyntheticCatalog.generate(count: 500, seed: 1), source: "synthetic")
        #expect(catalog.products.count == 500)
        #expect(catalog.languages == ["en", "zh-Hans"])
        #expect(
            catalog.storefronts.map(\.id) == ["USA", "JPN", "DEU", "CHN", "GBR", "IND", "BRA", "CHE", "SAU", "FRA"])
        #expect(catalog.accounts.count == 12)
        #expect(Set(catalog.products.map(\.type)) == Set(ProductType.allCases))
        #expect(Set(catalog.products.map(\.id)).count == 500)
        for product in catalog.products {
            #expect(!product.title.text(in: .english).isEmpty && !product.title.text(in: .simplifiedChinese).isEmpty)
            #expect(product.title.values["zh-Hans"] != product.title.values["en"])
            #expect(product.prices.count + product.unavailableIn.count == catalog.storefronts.count, "\(product.id)")
            #expect((product.type == .consumable) == (product.wallet != nil), "\(product.id)")
            #expect(product.type.isSubscription == (product.subscription != nil), "\(product.id)")
        }
        let subscriptions = catalog.products.filter { $0.type == .autoRenewable }
        #expect(subscriptions.contains { $0.subscription?.introOffer?.paymentMode == .freeTrial })
        #expect(subscriptions.contains { $0.subscription?.introOffer?.paymentMode == .payAsYouGo })
        #expect(subscriptions.contains { $0.subscription?.introOffer?.paymentMode == .payUpFront })
        #expect(catalog.products.contains { $0.removed })
        #expect(catalog.products.contains { !$0.unavailableIn.isEmpty })
    }

    @Test func pricesAreRealisticPricePoints() throws {
        let catalog = try CatalogLoader.decode(SyntheticCatalog.generate(count: 200, seed: 9), source: "synthetic")
        let reference = try CatalogLoader.decode(
            Array(
                try Data(
                    contentsOf: URL(fileURLWithPath: #filePath)
                        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                        .appendingPathComponent("products.json"))), source: "products.json")
        // The tiers products.json uses come back unchanged: a US$0.99 product costs ¥160, 1,19 €, …
        let tier = try #require(reference.product(id: "com.example.storefront.gems.100")?.prices)
        let sameTier = catalog.products.filter { $0.prices["USA"] == tier["USA"] && $0.unavailableIn.isEmpty }
        #expect(!sameTier.isEmpty)
        for product in sameTier { #expect(product.prices == tier, "\(product.id)") }
    }
}
