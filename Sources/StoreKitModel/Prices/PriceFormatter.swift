import Foundation

/// Formats exact prices in one currency for one locale, the way StoreKit's `priceLocale` does:
/// always the storefront's currency and an explicit locale, never the process's `Locale.current`
/// (which on a machine with only the C locale has no currency and prints `¤`).
public struct PriceFormatter: Sendable {
    public let currency: String
    public let locale: Locale
    private let localeIdentifier: String
    private let style: Decimal.FormatStyle.Currency

    /// Plain ASCII when the terminal cannot show more (a non-UTF-8 locale): the currency's ISO
    /// code instead of its symbol (`JPY 160`, `1,19 EUR`) and Latin digits.
    public let asciiOnly: Bool

    public init(currency: String, locale: String, asciiOnly: Bool = false) {
        self.currency = currency
        self.asciiOnly = asciiOnly
        let identifier = asciiOnly ? locale + (locale.contains("@") ? ";" : "@") + "numbers=latn" : locale
        self.locale = Locale(identifier: identifier)
        localeIdentifier = asciiOnly ? identifier + "#iso" : identifier
        let currencyStyle = Decimal.FormatStyle.Currency(code: currency, locale: self.locale)
        style = asciiOnly ? currencyStyle.presentation(.isoCode) : currencyStyle
    }

    /// The storefront's currency in its own default locale, or in `localeOverride` (`--locale`).
    public init(storefront: Storefront, localeOverride: String? = nil) {
        self.init(currency: storefront.currency, locale: localeOverride ?? storefront.locale)
    }

    /// `$0.99`, `¥160`, `1,19 €`: rounded to the currency's minor units with banker's rounding.
    public func string(_ amount: Decimal) -> String {
        let key = FormattedPrices.Key(currency: currency, locale: localeIdentifier, amount: amount)
        if let known = FormattedPrices.shared.text(for: key) { return known }
        var text = amount.formatted(style)
        // ICU separates with no-break spaces (U+00A0, U+202F): spaces to an ASCII terminal.
        if asciiOnly {
            text = String(
                String.UnicodeScalarView(text.unicodeScalars.map { $0.value == 0xA0 || $0.value == 0x202F ? " " : $0 }))
        }
        FormattedPrices.shared.remember(text, for: key)
        return text
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

/// Prices already formatted, shared by every formatter in the process: formatting through ICU
/// takes microseconds, and a screen or a products list shows the same price points (the App
/// Store's tiers) again and again. Keyed by the amount's exact bits, so only an identical
/// Decimal finds an entry; the same currency, locale and amount always format the same.
final class FormattedPrices: @unchecked Sendable {  // every access holds `lock`
    static let shared = FormattedPrices()
    static let limit = 4_096

    struct Key: Hashable {
        let currency: String
        let locale: String
        let bits: DecimalBits

        init(currency: String, locale: String, amount: Decimal) {
            self.currency = currency
            self.locale = locale
            bits = DecimalBits(amount)
        }
    }

    private let lock = NSLock()
    private var texts: [Key: String] = [:]

    func text(for key: Key) -> String? {
        lock.withLock { texts[key] }
    }

    func remember(_ text: String, for key: Key) {
        lock.withLock {
            if texts.count >= Self.limit { texts.removeAll(keepingCapacity: true) }
            texts[key] = text
        }
    }
}

/// A Decimal's exact representation (its 20 bytes), as a key: equal only for an identical
/// Decimal (1.5 and 1.50 differ), and much cheaper to hash than the Decimal's own `Hashable`,
/// which compares by value.
public struct DecimalBits: Hashable, Sendable {
    let high: UInt64
    let low: UInt64
    let tail: UInt32

    public init(_ amount: Decimal) {
        var words: (UInt64, UInt64, UInt32) = (0, 0, 0)
        withUnsafeBytes(of: amount) { raw in
            withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: raw.prefix(20))) }
        }
        (high, low, tail) = words
    }
}

extension Decimal {
    /// The exact decimal text (`4.99`, `160`), independent of any locale: `description`, which
    /// always writes '.' (a locale, even en_US_POSIX, would load ICU's number data). Kept in the
    /// shared cache of formatted prices under no currency and no locale: `description`'s general
    /// conversion costs microseconds, and a payment writes its price four times.
    public var exactString: String {
        let key = FormattedPrices.Key(currency: "", locale: "", amount: self)
        if let text = FormattedPrices.shared.text(for: key) { return text }
        let text = description
        FormattedPrices.shared.remember(text, for: key)
        return text
    }
}
