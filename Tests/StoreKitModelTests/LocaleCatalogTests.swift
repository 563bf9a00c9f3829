import Foundation
import Testing

@testable import StoreKitModel

/// The locale and price checks answer without asking ICU where they can (start-up time); these
/// tests hold them to what ICU itself answers.
@Suite struct LocaleCatalogTests {
    @Test func everyListedRegionIsOneThisSystemsICUKnows() {
        let icu = Set(Locale.Region.isoRegions.map(\.identifier))
        #expect(LocaleCatalog.listedRegions.subtracting(icu).sorted() == [])
    }

    @Test func aRegionIsKnownExactlyWhenICUKnowsIt() {
        let icu = Set(Locale.Region.isoRegions.map(\.identifier))
        let unknown = ["XX", "ZZ", "QQ", "AA", "999", "us", "Us", "USA", "U", "", "42"]
        for code in Array(icu) + unknown {
            #expect(LocaleCatalog.isKnownRegion(code) == icu.contains(code), "\(code)")
        }
    }

    @Test(arguments: [
        ("en_US", true), ("es_419", true), ("zh-Hans_CN", true), ("zh_Hant", true), ("fr_CH", true), ("ja", true),
        ("en_XX", false), ("en_us", false), ("EN_US", false), ("qq_US", false), ("en_US_POSIX", false),
        ("en_Latn_US_X", false), ("", false),
    ])
    func localesAreCheckedPartByPart(identifier: String, known: Bool) {
        #expect(LocaleCatalog.isKnownLocale(identifier) == known)
    }

    /// `PriceText.parse` reads decimals without a locale; the result must be the very decimal that
    /// en_US_POSIX parsing gives, down to its exponent and its text.
    @Test func pricesParseAsEnUSPOSIXWouldParseThem() throws {
        let posix = Locale(identifier: "en_US_POSIX")
        var generator = SystemRandomNumberGenerator()
        var texts = ["0", "0.00", "0.99", "160", "1234.5", "100000000", "99999999.99", "007.50", "0.10", "1.60", "10"]
        for _ in 0..<2_000 {
            let whole = String(UInt64.random(in: 0...99_999_999, using: &generator))
            let fraction = String(repeating: "0", count: Int.random(in: 0...2)) + String(Int.random(in: 0...99))
            texts.append(Bool.random() ? whole : "\(whole).\(fraction.prefix(2))")
        }
        for text in texts {
            var expected = try #require(Decimal(string: text, locale: posix))
            let parsed = try PriceText.parse(text, currency: "USD").get()
            #expect(parsed == expected && parsed.exponent == expected.exponent, "\(text)")
            #expect(parsed.exactString == NSDecimalString(&expected, posix), "\(text)")
        }
    }

    @Test func exactStringIsTheEnUSPOSIXText() {
        var value = Decimal(string: "1234.5")!
        #expect(value.exactString == NSDecimalString(&value, Locale(identifier: "en_US_POSIX")))
        #expect(Decimal(string: "0.99")!.exactString == "0.99")
        #expect(Decimal(160).exactString == "160")
    }
}
