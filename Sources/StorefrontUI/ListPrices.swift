import StoreKitModel

extension ProductList {
    /// What a list's display prices are formatted for: change any and they are formatted again.
    public struct Pricing: Equatable, Sendable {
        public let storefront: String
        public let currency: String
        public let locale: String
        public let language: Language

        public init(storefront: String, currency: String, locale: String, language: Language) {
            self.storefront = storefront
            self.currency = currency
            self.locale = locale
            self.language = language
        }
    }

    /// Formats every product's display price for `pricing`, each distinct price point once (a
    /// catalog repeats the App Store's tiers), so a frame reads its rows' prices instead of
    /// formatting them: 100,000 products take a few milliseconds, here rather than in every frame.
    public mutating func reprice(for pricing: Pricing) {
        let formatter = PriceFormatter(currency: pricing.currency, locale: pricing.locale)
        var known: [PricePoint: String] = [:]
        displayPrices = products.map { product in
            let point = PricePoint(product, in: pricing.storefront)
            if let text = known[point] { return text }
            let text = formatter.displayPrice(of: product, in: pricing.storefront, language: pricing.language) ?? "—"
            known[point] = text
            return text
        }
        self.pricing = pricing
    }
}

/// What a display price depends on besides the storefront's currency and locale and the language
/// (see `PriceFormatter.displayPrice`): two products with the same point show the same price.
struct PricePoint: Hashable {
    let amount: DecimalBits?
    let type: ProductType
    let period: SubscriptionPeriod?

    init(_ product: Product, in storefront: String) {
        amount = product.prices[storefront].map(DecimalBits.init)
        type = product.type
        // Only a subscription's period shows in its price (and reading it for others would copy their details).
        period = product.type == .autoRenewable ? product.subscription?.period : nil
    }
}
