import Foundation
import StoreKit
import StoreKitTest
import Testing

extension StoreKitLibrary {
    /// `Product` as StoreKit 2 has it, from the store's catalog and the account's storefront.
    @Suite struct ProductTests {
        @Test func productsAreTheOnesSoldWithTheStorefrontsPrices() async throws {
            _ = try session()
            let products = try await Product.products(for: [Products.gems, Products.monthly, "no.such.product"])
            #expect(Set(products.map(\.id)) == [Products.gems, Products.monthly])
            let yearly = try #require(try await Product.products(for: [Products.yearly]).first)
            #expect(yearly.isFamilyShareable)
            let gems = try #require(products.first { $0.id == Products.gems })
            #expect(gems.type == .consumable)
            #expect(gems.price == Decimal(string: "0.99"))
            #expect(gems.displayPrice == "$0.99")
            #expect(gems.subscription == nil)
            #expect(gems.displayName == "100 Gems")
            #expect(!gems.isFamilyShareable)
            #expect(!gems.description.isEmpty)
            #expect(gems.price.formatted(gems.priceFormatStyle) == gems.displayPrice)
            #expect(Set(products + products + [yearly]).count == 3)
            let monthly = try #require(products.first { $0.id == Products.monthly })
            #expect(monthly.type == .autoRenewable)
            let info = try #require(monthly.subscription)
            #expect(info.subscriptionGroupID == "premium" && info.groupDisplayName == "Premium")
            #expect(info.winBackOffers.map(\.id) == ["com.example.storefront.premium.comeback"])
            #expect(info.winBackOffers.first?.type == .winBack)
            #expect(info.subscriptionPeriod.unit == .month && info.subscriptionPeriod.value == 1)
            #expect(info.pricingTerms.first?.billingPlanType == .upFront)
            #expect(info.pricingTerms.first?.billingPrice == monthly.price)
            #expect(await info.isEligibleForIntroOffer)
        }

        @Test func anotherStorefrontHasItsOwnCurrency() async throws {
            let session = try session()
            session.storefront = "JPN"
            let products = try await Product.products(for: [Products.gems])
            let gems = try #require(products.first)
            #expect(gems.displayPrice.contains("¥") || gems.displayPrice.contains("￥"))
            #expect(await Storefront.current?.countryCode == "JPN")
        }
    }
}

extension StoreKitLibrary {
    @Suite struct StorefrontTests {
        @Test func aStorefrontChangeIsAnUpdate() async throws {
            let session = try session()
            let changes = Collected(Storefront.updates)
            defer { changes.stop() }
            // The listener looks from when its task first runs: a change made before that is its
            // starting point, so the storefront changes until one is heard.
            var heard = false
            for code in ["DEU", "GBR", "DEU", "GBR"] where !heard {
                session.storefront = code
                heard = try await eventually(seconds: 3) { changes.all.last?.countryCode == code }
            }
            #expect(heard)
            let expected = ["DEU": ("143443", "EUR"), "GBR": ("143444", "GBP")]
            for change in changes.all {
                #expect(expected[change.countryCode]?.0 == change.id)
                #expect(expected[change.countryCode]?.1 == change.currency?.identifier)
            }
        }
    }
}
