import Foundation
import StoreKitModel
import Testing

/// Currencies with three decimals (the Kuwaiti dinar: 1.250 KWD is one dinar and 250 fils), from
/// the catalog to the formatted price and a refund.
@Suite struct MinorUnitsTests {
    /// The sample catalog with a Kuwait storefront, the gems at `gems` dinars.
    static func kuwait(gems: String) -> [UInt8] {
        SampleCatalog.mutated { root in
            root["storefronts"] =
                (root["storefronts"] as? [Any] ?? []) + [
                    ["id": "KWT", "currency": "KWD", "locale": "ar_KW"]
                ]
            var products = root["products"] as? [[String: Any]] ?? []
            for (index, price) in [gems, "0.900", "1.500"].enumerated() {
                var prices = products[index]["prices"] as? [String: Any] ?? [:]
                prices["KWT"] = price
                products[index]["prices"] = prices
            }
            root["products"] = products
        }
    }

    @Test func isoMinorUnits() {
        #expect(MinorUnits.of("JPY") == 0)
        #expect(MinorUnits.of("KRW") == 0)
        #expect(["KWD", "BHD", "OMR", "JOD", "TND"].allSatisfy { MinorUnits.of($0) == 3 })
        #expect(MinorUnits.of("USD") == 2)
        #expect(MinorUnits.of("EUR") == 2)
    }

    @Test func aDinarPriceTakesThreeDecimals() throws {
        let catalog = try CatalogLoader.decode(Self.kuwait(gems: "1.250"), source: "kuwait.json")
        #expect(catalog.products[0].prices["KWT"] == Decimal(string: "1.25"))
        #expect(catalog.products[1].prices["KWT"] == Decimal(string: "0.9"))
        #expect(try CatalogLoader.decode(Self.kuwait(gems: "1.255"), source: "k.json").products[0].prices["KWT"] != nil)
    }

    @Test func aFourthDinarDecimalIsRefusedWithItsPath() throws {
        let error = try #require(catalogError(Self.kuwait(gems: "1.2505")))
        let found = try #require(error.problem(at: "products[0].prices.KWT"), "\(error)")
        #expect(found.message == #""1.2505" has more decimal places than KWD allows (3)"#)
    }

    /// Zeros after the last decimal the currency has change nothing, in any currency.
    @Test func trailingZerosAreNoExtraDecimals() throws {
        let bytes = SampleCatalog.mutatingProduct(0) { $0["prices"] = ["USA": "1.250", "JPN": "160.000"] }
        let catalog = try CatalogLoader.decode(bytes, source: "sample.json")
        #expect(catalog.products[0].prices == ["USA": Decimal(string: "1.25")!, "JPN": 160])
    }

    @Test(arguments: [
        ("1.25", "en_US", "KWD\u{00A0}1.250"), ("1.2505", "en_US", "KWD\u{00A0}1.250"),
        ("1234.5", "en_US", "KWD\u{00A0}1,234.500"),
    ])
    func formatsDinarsWithThreeDecimals(amount: String, locale: String, expected: String) {
        let text = PriceFormatter(currency: "KWD", locale: locale).string(Decimal(string: amount)!)
        #expect(text == expected, "scalars: \(text.unicodeScalars.map { String($0.value, radix: 16) })")
    }

    @Test func formatsDinarsInKuwaitsLocaleWithThreeDecimals() {
        let text = PriceFormatter(currency: "KWD", locale: "ar_KW", asciiOnly: true).string(Decimal(string: "1.25")!)
        #expect(text.contains("1.250"), "\(text)")
        #expect(text.contains("KWD"), "\(text)")
    }

    /// An upgrade's refund is rounded down to the fils, not to hundredths.
    @Test func aProratedRefundKeepsThreeDecimals() {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let end = start.addingTimeInterval(30 * 86_400)
        let now = start.addingTimeInterval(10 * 86_400)
        let refund = { (paid: String, currency: String) in
            Upgrade.proratedRefund(of: Decimal(string: paid)!, currency: currency, start: start, end: end, at: now)
        }
        #expect(refund("1.500", "KWD") == Decimal(string: "0.999"), "two thirds of 1.500, down to the fils")
        #expect(refund("1.50", "USD") == Decimal(string: "0.99"))
        #expect(refund("160", "JPY") == 106)
        #expect(MinorUnits.round(Decimal(string: "1.2505")!, in: "KWD", .plain) == Decimal(string: "1.251"))
    }
}
