import StoreKitModel

extension ProductList {
    /// What a list's display prices are formatted for: change any and they are formatted again.
    /// Made only by `AppState.pricing`, so its initializer stays the synthesized internal one.
    public struct Pricing: Equatable, Sendable {
        public let storefront: String
        public let currency: String
        public let locale: String
        public let language: Language
        /// ISO codes and Latin digits, for a terminal without UTF-8.
        public var asciiOnly = false
    }

    /// Formats every product's display price for `pricing`, so a frame reads its rows' prices
    /// instead of formatting them: 100,000 products take a few milliseconds, here rather than in
    /// every frame. The reducer calls it whenever `pricing` changes.
    public mutating func reprice(for pricing: Pricing) {
        var texts = PriceTexts(pricing)
        displayPrices = products.map { texts.text(for: $0) }
        self.pricing = pricing
    }
}

/// Display prices for one `Pricing`, each distinct price point formatted once (a catalog repeats
/// the App Store's tiers).
struct PriceTexts {
    private let pricing: ProductList.Pricing
    private let formatter: PriceFormatter
    private var known: [PricePoint: String] = [:]

    init(_ pricing: ProductList.Pricing) {
        self.pricing = pricing
        formatter = PriceFormatter(currency: pricing.currency, locale: pricing.locale, asciiOnly: pricing.asciiOnly)
    }

    mutating func text(for product: Product) -> String {
        let point = PricePoint(product, in: pricing.storefront)
        if let text = known[point] { return text }
        let text = formatter.displayPrice(of: product, in: pricing.storefront, language: pricing.language) ?? "—"
        known[point] = text
        return text
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
