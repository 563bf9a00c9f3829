import CellGrid
import Foundation
import StoreKitModel
import Testing

private func decimal(_ text: String) -> Decimal {
    Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))!
}

/// One formatting case: the currency, the locale, the exact price and the exact expected text.
struct PriceCase: Sendable, CustomTestStringConvertible {
    let currency: String
    let locale: String
    let amount: String
    let expected: String

    init(_ currency: String, _ locale: String, _ amount: String, _ expected: String) {
        self.currency = currency
        self.locale = locale
        self.amount = amount
        self.expected = expected
    }

    var testDescription: String { "\(amount) \(currency) in \(locale)" }
}

// Separators are spelled out: U+00A0 no-break space, U+202F narrow no-break space, U+200F right-to-left mark.
private let priceCases: [PriceCase] = [
    PriceCase("USD", "en_US", "1234.99", "$1,234.99"),
    PriceCase("USD", "en_US", "0.99", "$0.99"),
    PriceCase("JPY", "ja_JP", "1234.99", "¥1,235"),
    PriceCase("JPY", "ja_JP", "160", "¥160"),
    PriceCase("EUR", "de_DE", "1.19", "1,19\u{00A0}€"),
    PriceCase("EUR", "de_DE", "1234.99", "1.234,99\u{00A0}€"),
    PriceCase("EUR", "fr_FR", "1234.5", "1\u{202F}234,50\u{00A0}€"),
    PriceCase("CHF", "fr_CH", "1", "CHF\u{00A0}1,00"),
    PriceCase("CHF", "fr_CH", "1234.5", "CHF\u{00A0}1\u{202F}234,50"),
    PriceCase("SAR", "ar_SA", "3.99", "\u{200F}\u{0663}\u{066B}\u{0669}\u{0669}\u{00A0}\u{0631}.\u{0633}.\u{200F}"),
    PriceCase("CNY", "zh_CN", "6", "¥6.00"),
    PriceCase("CNY", "zh_CN", "1234.5", "¥1,234.50"),
    PriceCase("BRL", "pt_BR", "5.90", "R$\u{00A0}5,90"),
    PriceCase("BRL", "pt_BR", "1234.9", "R$\u{00A0}1.234,90"),
    PriceCase("INR", "en_IN", "89", "₹89.00"),
    PriceCase("INR", "en_IN", "123456.5", "₹1,23,456.50"),
    PriceCase("GBP", "en_GB", "0.99", "£0.99"),
    PriceCase("EUR", "fr_CH", "1.19", "€\u{00A0}1,19"),
]

@Test(arguments: priceCases)
func formatsPriceExactly(_ test: PriceCase) {
    let text = PriceFormatter(currency: test.currency, locale: test.locale).string(decimal(test.amount))
    #expect(text == test.expected, "scalars: \(text.unicodeScalars.map { String($0.value, radix: 16) })")
}

@Test func usesTheStorefrontsCurrencyAndLocale() {
    let japan = Storefront(id: "JPN", currency: "JPY", locale: "ja_JP")
    #expect(PriceFormatter(storefront: japan).string(160) == "¥160")
    #expect(PriceFormatter(storefront: japan, localeOverride: "en_US").string(160) == "¥160")
    let germany = Storefront(id: "DEU", currency: "EUR", locale: "de_DE")
    #expect(PriceFormatter(storefront: germany, localeOverride: "en_US").string(decimal("1.19")) == "€1.19")
}

@Test(arguments: [("160.5", "¥160"), ("161.5", "¥162"), ("159.5", "¥160"), ("160.6", "¥161")])
func roundsYenToEven(amount: String, expected: String) {
    #expect(PriceFormatter(currency: "JPY", locale: "ja_JP").string(decimal(amount)) == expected)
}

@Test(arguments: [("0.125", "$0.12"), ("0.135", "$0.14"), ("0.994", "$0.99")])
func roundsCentsToEven(amount: String, expected: String) {
    #expect(PriceFormatter(currency: "USD", locale: "en_US").string(decimal(amount)) == expected)
}

// MARK: - Subscription periods

private let month = SubscriptionPeriod(value: 1, unit: .month)
private let year = SubscriptionPeriod(value: 1, unit: .year)
private let quarter = SubscriptionPeriod(value: 3, unit: .month)

@Test func appendsThePeriodAfterASlash() {
    let dollars = PriceFormatter(currency: "USD", locale: "en_US")
    #expect(dollars.string(decimal("4.99"), period: month, language: .english) == "$4.99/month")
    #expect(dollars.string(decimal("49.99"), period: year, language: .english) == "$49.99/year")
    #expect(dollars.string(decimal("14.99"), period: quarter, language: .english) == "$14.99/3 months")
    #expect(dollars.string(decimal("4.99"), period: nil, language: .english) == "$4.99")
}

@Test func appendsThePeriodInChinese() {
    #expect(
        PriceFormatter(currency: "JPY", locale: "ja_JP").string(30, period: month, language: .simplifiedChinese)
            == "¥30/月")
    #expect(
        PriceFormatter(currency: "CNY", locale: "zh_CN").string(30, period: month, language: .simplifiedChinese)
            == "¥30.00/月")
    #expect(
        PriceFormatter(currency: "CNY", locale: "zh_CN").string(68, period: year, language: .simplifiedChinese)
            == "¥68.00/年")
}

@Test func periodUnitLabels() {
    #expect(quarter.unitLabel(in: .english) == "3 months")
    #expect(quarter.unitLabel(in: .simplifiedChinese) == "3个月")
    #expect(month.unitLabel(in: .simplifiedChinese) == "月")
    #expect(SubscriptionPeriod(value: 1, unit: .week).unitLabel(in: .english) == "week")
    #expect(SubscriptionPeriod(value: 2, unit: .week).unitLabel(in: .simplifiedChinese) == "2周")
    #expect(SubscriptionPeriod(iso8601: "P3M") == quarter)
}

@Test(arguments: ["P1Q", "P0M", "1M", "P1000D", "PM", "P1m", "P-1M", "P1MM", ""])
func rejectsMalformedPeriods(text: String) {
    #expect(SubscriptionPeriod(iso8601: text) == nil)
}

@Test func displayPriceAddsThePeriodOnlyForAutoRenewables() {
    let formatter = PriceFormatter(currency: "USD", locale: "en_US")
    let text = LocalizedText(["en": "Pass"])
    let monthly = Product(
        id: "m", type: .autoRenewable, title: text, description: text, prices: ["USA": decimal("4.99")],
        subscription: SubscriptionInfo(group: "g", period: month, rank: 1, introOffer: nil))
    let season = Product(
        id: "s", type: .nonRenewing, title: text, description: text, prices: ["USA": decimal("9.99")],
        subscription: SubscriptionInfo(group: nil, period: quarter, rank: nil, introOffer: nil))
    #expect(formatter.displayPrice(of: monthly, in: "USA", language: .english) == "$4.99/month")
    #expect(formatter.displayPrice(of: season, in: "USA", language: .english) == "$9.99")
    #expect(formatter.displayPrice(of: season, in: "JPN", language: .english) == nil)
}

// MARK: - Exact decimal text

@Test(arguments: ["0.99", "160", "1234.5", "0.01", "99999999.99", "0"])
func exactStringRoundTrips(text: String) {
    #expect(decimal(text).exactString == text)
}

@Test func exactStringHasNoFloatingPointError() {
    #expect((decimal("0.1") + decimal("0.2")).exactString == "0.3")
    #expect((decimal("4.99") * 3).exactString == "14.97")
    #expect(Decimal(160).exactString == "160")
}

// MARK: - Terminal cell width

@Test func cellWidthOfText() {
    #expect(CellWidth.of("Remove Ads") == 10)
    #expect(CellWidth.of("") == 0)
    #expect(CellWidth.of("高级会员") == 8)
    #expect(CellWidth.of("100 颗宝石") == 10)
    #expect(CellWidth.of("（月度）") == 8, "fullwidth parentheses take two cells")
    #expect(CellWidth.of("¥160") == 4)
    #expect(CellWidth.of("1,19\u{00A0}€") == 6)
    #expect(CellWidth.of("1\u{202F}234") == 5)
    #expect(CellWidth.of("\u{200F}٣٫٩٩\u{00A0}ر.س.\u{200F}") == 9)
}

@Test func cellWidthOfSingleCharacters() {
    #expect(CellWidth.of(Character("a")) == 1)
    #expect(CellWidth.of(Character("中")) == 2)
    #expect(CellWidth.of(Character("¥")) == 1)
    #expect(CellWidth.of(Character("€")) == 1)
    #expect(CellWidth.of(Character("\u{00A0}")) == 1)
    #expect(CellWidth.of(Character("\u{202F}")) == 1)
    #expect(CellWidth.of(Character("\u{200F}")) == 0)
    #expect(CellWidth.of(Character("e\u{0301}")) == 1, "a combining accent adds nothing")
    #expect(CellWidth.of(Unicode.Scalar(0x0301)!) == 0)
    #expect(CellWidth.of(Character("😀")) == 2)
    #expect(CellWidth.of(Character("👍🏽")) == 2)
    #expect(CellWidth.of(Character("❤️")) == 2)
    #expect(CellWidth.of(Character("\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}")) == 2)
    #expect(CellWidth.of(Character("\u{07}")) == 0)
}

@Test(arguments: 0...12)
func truncateNeverExceedsTheWidth(width: Int) {
    let title = "高级会员（月度）Plus"
    let cut = CellWidth.truncate(title, to: width)
    #expect(CellWidth.of(cut) <= width)
    if CellWidth.of(title) > width && width > 0 {
        #expect(cut.hasSuffix("…"))
    }
}

@Test func truncateCutsCJKBeforeTheEllipsis() {
    #expect(CellWidth.truncate("高级会员", to: 5) == "高级…")
    #expect(CellWidth.truncate("高级会员", to: 6) == "高级…")
    #expect(CellWidth.truncate("高级会员", to: 7) == "高级会…")
    #expect(CellWidth.truncate("高级会员", to: 8) == "高级会员")
    #expect(CellWidth.truncate("高级会员", to: 1) == "…")
    #expect(CellWidth.truncate("高级会员", to: 0) == "")
}

@Test func padFillsToExactlyTheWidth() {
    #expect(CellWidth.pad("高级", to: 6) == "高级  ")
    #expect(CellWidth.pad("¥160", to: 6, alignRight: true) == "  ¥160")
    #expect(CellWidth.pad("高级会员", to: 5) == "高级…")
    #expect(CellWidth.pad("高级会员", to: 6) == "高级… ")
    for width in 0...10 {
        #expect(CellWidth.of(CellWidth.pad("高级会员（月度）", to: width)) == width)
    }
}

/// Formatted prices are remembered process-wide; a remembered text must be what formatting gives.
@Test func rememberedPricesAreWhatFormattingGives() throws {
    let cases: [(String, String, String)] = [
        ("USD", "en_US", "0.99"), ("JPY", "ja_JP", "160"), ("EUR", "de_DE", "1234.99"),
        ("CHF", "fr_CH", "1.00"), ("CHF", "fr_CH", "1"), ("SAR", "ar_SA", "3.99"), ("EUR", "fr_FR", "1.19"),
    ]
    for _ in 0..<2 {
        for (currency, locale, text) in cases {
            let amount = try #require(Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")))
            let direct = amount.formatted(
                Decimal.FormatStyle.Currency(code: currency, locale: Locale(identifier: locale)))
            #expect(
                PriceFormatter(currency: currency, locale: locale).string(amount) == direct,
                "\(currency) \(locale) \(text)")
        }
    }
    // The same amount in another currency or locale is not the remembered one.
    #expect(
        PriceFormatter(currency: "USD", locale: "en_US").string(1)
            != PriceFormatter(currency: "EUR", locale: "de_DE").string(1))
}

/// `exactString` is `description` kept in the shared cache, keyed by the amount's bits: every
/// amount, of any size and scale, gets its own text, asked for once or again (1.5 and 1.50 are
/// different keys with the same text; 4.99 after -4.99 is not the other's).
@Suite struct ExactStringTests {
    @Test func eachAmountGetsItsOwnTextFromTheCache() throws {
        let texts = [
            "0", "0.00", "4.99", "4.90", "-4.99", "160", "1000", "2970", "0.001", "1.250", "0.375", "-0.5",
            "12345678901234567890", "18446744073709551615", "18446744073709551616", "99999999999999999999.99",
            "1e3", "1e20", "1e25", "5e-7", "0.0000000001", "3.4028236692093846346e38",
        ]
        for text in texts {
            let amount = try #require(Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")))
            #expect(amount.exactString == amount.description, "\(text)")
            #expect(amount.exactString == amount.description, "\(text), from the cache")
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let mantissa = Decimal(UInt64.random(in: 0...UInt64.max, using: &generator) >> UInt64.random(in: 0...63))
            let amount = mantissa * Decimal(sign: .plus, exponent: Int.random(in: -12...6), significand: 1)
            for value in [amount, -amount] {
                #expect(value.exactString == value.description, "\(value)")
            }
        }
        #expect(Decimal.nan.exactString == Decimal.nan.description)
    }
}
