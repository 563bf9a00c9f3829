import Foundation

/// Formats exact prices in one currency for one locale, the way StoreKit's `priceLocale` does:
/// always the storefront's currency and an explicit locale, never the process's `Locale.current`
/// (which on a machine with only the C locale has no currency and prints `¤`).
public struct PriceFormatter: Sendable {
    public let currency: String
    public let locale: Locale
    private let style: Decimal.FormatStyle.Currency

    public init(currency: String, locale: String) {
        self.currency = currency
        self.locale = Locale(identifier: locale)
        style = Decimal.FormatStyle.Currency(code: currency, locale: self.locale)
    }

    /// The storefront's currency in its own default locale, or in `localeOverride` (`--locale`).
    public init(storefront: Storefront, localeOverride: String? = nil) {
        self.init(currency: storefront.currency, locale: localeOverride ?? storefront.locale)
    }

    /// `$0.99`, `¥160`, `1,19 €`: rounded to the currency's minor units with banker's rounding.
    public func string(_ amount: Decimal) -> String {
        amount.formatted(style)
    }

    /// A subscription's price with its period: `$4.99/month`, `$49.99/year`, `¥30/月`.
    public func string(_ amount: Decimal, period: SubscriptionPeriod?, language: Language) -> String {
        let price = string(amount)
        guard let period else { return price }
        return "\(price)/\(period.unitLabel(in: language))"
    }

    /// A product's display price in a storefront, with its period when it renews; nil if not sold there.
    public func displayPrice(of product: Product, in storefront: String, language: Language) -> String? {
        guard let amount = product.prices[storefront] else { return nil }
        let period = product.type == .autoRenewable ? product.subscription?.period : nil
        return string(amount, period: period, language: language)
    }
}

extension Decimal {
    /// The exact decimal text (`4.99`, `160`), independent of any locale.
    public var exactString: String {
        var value = self
        return NSDecimalString(&value, Locale(identifier: "en_US_POSIX"))
    }
}
