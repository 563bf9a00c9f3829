import Foundation
import StoreKitModel
import Testing

/// Decodes `bytes`, requires exactly the problem at `path`, and returns it.
private func problem(
    in bytes: [UInt8], at path: String,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) throws -> CatalogProblem {
    let error = try #require(catalogError(bytes), "the catalog decoded", sourceLocation: sourceLocation)
    return try #require(error.problem(at: path), "no problem at \(path) in:\n\(error)", sourceLocation: sourceLocation)
}

// MARK: - The sample catalog itself

@Test func sampleCatalogDecodes() throws {
    let catalog = try CatalogLoader.decode(SampleCatalog.bytes, source: "sample.json")
    #expect(catalog.products.map(\.type) == [.consumable, .nonConsumable, .autoRenewable])
    #expect(catalog.storefronts.map(\.id) == ["USA", "JPN"])
    #expect(catalog.languages == ["en", "zh-Hans"])
    #expect(catalog.products[0].prices == ["USA": Decimal(string: "0.99")!, "JPN": 160])
    #expect(catalog.products[2].subscription?.introOffer?.paymentMode == .freeTrial)
}

@Test func reSerializedSampleCatalogStillDecodes() throws {
    let catalog = try CatalogLoader.decode(SampleCatalog.mutated { _ in }, source: "sample.json")
    #expect(catalog.products.count == 3)
}

// MARK: - One class of mistake per test

@Test func duplicateProductIdPointsAtTheFirstDefinition() throws {
    let bytes = SampleCatalog.mutatingProduct(1) { $0["id"] = "com.example.sample.gems.100" }
    let found = try problem(in: bytes, at: "products[1].id")
    #expect(found.message.contains("duplicate product id"))
    #expect(found.message.contains("first defined at products[0]"))
}

@Test func unknownProductTypeListsTheTypes() throws {
    let found = try problem(
        in: SampleCatalog.mutatingProduct(1) { $0["type"] = "subscription" }, at: "products[1].type")
    #expect(found.message.contains(#""subscription" is not a product type"#))
    #expect(found.message.contains("consumable, nonConsumable, autoRenewable, nonRenewing"))
}

@Test func negativePriceIsRefused() throws {
    let bytes = SampleCatalog.mutatingProduct(0) { $0["prices"] = ["USA": "-0.99", "JPN": "160"] }
    let found = try problem(in: bytes, at: "products[0].prices.USA")
    #expect(found.message.contains(#""-0.99" is negative"#))
}

@Test func commaDecimalPriceIsRefused() throws {
    let bytes = SampleCatalog.mutatingProduct(0) { $0["prices"] = ["USA": "0.99", "JPN": "1,60"] }
    let found = try problem(in: bytes, at: "products[0].prices.JPN")
    #expect(found.message.contains(#""1,60" is not a decimal number"#))
}

@Test func yenPriceWithDecimalsIsRefused() throws {
    let bytes = SampleCatalog.mutatingProduct(0) { $0["prices"] = ["USA": "0.99", "JPN": "160.5"] }
    let found = try problem(in: bytes, at: "products[0].prices.JPN")
    #expect(found.message.contains(#""160.5" has more decimal places than JPY allows (none)"#))
}

@Test func dollarPriceWithThreeDecimalsIsRefused() throws {
    let bytes = SampleCatalog.mutatingProduct(0) { $0["prices"] = ["USA": "0.999", "JPN": "160"] }
    let found = try problem(in: bytes, at: "products[0].prices.USA")
    #expect(found.message.contains("more decimal places than USD allows (2)"))
}

@Test func priceAsJSONNumberWithExponentIsRefused() throws {
    let bytes = Array(SampleCatalog.text.replacingOccurrences(of: #""JPN": "480""#, with: #""JPN": 4.8e2"#).utf8)
    let found = try problem(in: bytes, at: "products[1].prices.JPN")
    #expect(found.message.contains("is not a decimal number"))
}

/// Near misses of a price, each refused with a message that says what to change.
@Test(arguments: [
    ("-0", #""-0" has a minus sign; a price has no sign, so write zero as "0""#),
    ("-0.00", #""-0.00" has a minus sign; a price has no sign, so write zero as "0""#),
    ("+1", #""+1" is not a decimal number (a price has no sign; remove the '+')"#),
    (" 1", #"" 1" is not a decimal number (remove the spaces around it)"#),
    ("1\n", #""1\n" is not a decimal number (remove the spaces around it)"#),
    ("1e2", #""1e2" is not a decimal number (exponents are not allowed; write "100")"#),
    ("1.5E-2", #""1.5E-2" is not a decimal number (exponents are not allowed; write "0.015")"#),
    ("1e999", #""1e999" is not a decimal number (exponents are not allowed)"#),
    (".5", #"".5" is not a decimal number (it needs a digit before '.'; write "0.5")"#),
    ("1.", #""1." is not a decimal number (it needs digits after '.'; write "1")"#),
    ("-", #""-" is not a decimal number (expected digits with '.' as the decimal separator, e.g. "1.60")"#),
    (".", #""." is not a decimal number (expected digits with '.' as the decimal separator, e.g. "1.60")"#),
    ("1e", #""1e" is not a decimal number (expected digits with '.' as the decimal separator, e.g. "1.60")"#),
    ("$1", #""$1" is not a decimal number (expected digits with '.' as the decimal separator, e.g. "1.60")"#),
])
func nearMissPriceIsRefusedSayingWhatToChange(text: String, expected: String) throws {
    let bytes = SampleCatalog.mutatingProduct(0) { $0["prices"] = ["USA": text, "JPN": "160"] }
    #expect(try problem(in: bytes, at: "products[0].prices.USA").message == expected)
}

@Test(arguments: ["0", "0.00", "0.99", "160", "1234.5"])
func plainDecimalPriceIsAccepted(text: String) throws {
    let catalog = try CatalogLoader.decode(
        SampleCatalog.mutatingProduct(0) { $0["prices"] = ["USA": text, "JPN": "160"] }, source: "sample.json")
    #expect(catalog.products[0].prices["USA"] == Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")))
}

@Test func negativeZeroAsAJSONNumberIsRefused() throws {
    let bytes = Array(SampleCatalog.text.replacingOccurrences(of: #""USA": "0.99""#, with: #""USA": -0"#).utf8)
    let found = try problem(in: bytes, at: "products[0].prices.USA")
    #expect(found.message.contains("has a minus sign"))
}

@Test func priceForAStorefrontTheCatalogDoesNotHaveIsRefused() throws {
    let bytes = SampleCatalog.mutatingProduct(1) { $0["prices"] = ["USA": "2.99", "JPN": "480", "FRA": "3.49"] }
    let found = try problem(in: bytes, at: "products[1].prices.FRA")
    #expect(found.message.contains(#"unknown storefront "FRA""#))
    #expect(found.message.contains("USA, JPN"))
}

@Test func missingPriceForAStorefrontIsRefused() throws {
    let bytes = SampleCatalog.mutatingProduct(1) { $0["prices"] = ["USA": "2.99"] }
    let found = try problem(in: bytes, at: "products[1].prices")
    #expect(found.message.contains("no price for JPN"))
    #expect(found.message.contains("unavailableIn"))
}

@Test func priceInAnUnavailableStorefrontIsRefused() throws {
    let bytes = SampleCatalog.mutatingProduct(1) { $0["unavailableIn"] = ["JPN"] }
    let found = try problem(in: bytes, at: "products[1].prices.JPN")
    #expect(found.message.contains("listed in unavailableIn"))
}

@Test func missingChineseLocalizationIsRefused() throws {
    let bytes = SampleCatalog.mutatingProduct(1) { $0["title"] = ["en": "Remove Ads"] }
    let found = try problem(in: bytes, at: "products[1].title")
    #expect(found.message.contains(#"missing the "zh-Hans" localization"#))
}

@Test func autoRenewableWithoutSubscriptionIsRefused() throws {
    let bytes = SampleCatalog.mutatingProduct(2) { $0.removeValue(forKey: "subscription") }
    let found = try problem(in: bytes, at: "products[2]")
    #expect(found.message.contains(#"autoRenewable product needs "subscription""#))
}

@Test func subscriptionWithABadPeriodIsRefused() throws {
    let bytes = SampleCatalog.mutatingSubscription(2) { $0["period"] = "P1Q" }
    let found = try problem(in: bytes, at: "products[2].subscription.period")
    #expect(found.message.contains(#""P1Q" is not a subscription period"#))
}

@Test func subscriptionInAnUnknownGroupIsRefused() throws {
    let bytes = SampleCatalog.mutatingSubscription(2) { $0["group"] = "vip" }
    let found = try problem(in: bytes, at: "products[2].subscription.group")
    #expect(found.message.contains(#"unknown subscription group "vip""#))
}

@Test func misspelledKeyIsReportedAsUnknown() throws {
    let bytes = SampleCatalog.mutatingProduct(0) { product in
        product["pricse"] = product.removeValue(forKey: "prices")
    }
    let found = try problem(in: bytes, at: "products[0].pricse")
    #expect(found.message.contains("unknown key"))
    #expect(found.message.contains("prices"))
    #expect(try problem(in: bytes, at: "products[0]").message.contains(#"missing "prices""#))
}

@Test func wrongJSONTypeIsRefused() throws {
    let found = try problem(in: SampleCatalog.mutatingProduct(1) { $0["removed"] = "yes" }, at: "products[1].removed")
    #expect(found.message.contains(#"expected true or false, found "yes""#))
}

@Test func duplicateKeyIsRefused() throws {
    let text = SampleCatalog.text.replacingOccurrences(of: #""version": 1,"#, with: #""version": 1, "version": 1,"#)
    let found = try problem(in: Array(text.utf8), at: "version")
    #expect(found.message.contains("more than once"))
}

@Test func wrongFormatNameIsRefused() throws {
    let found = try problem(in: SampleCatalog.mutated { $0["format"] = "storefront-katalog" }, at: "format")
    #expect(found.message.contains(#""storefront-katalog" is not a format this tool reads"#))
}

@Test func unsupportedVersionIsRefused() throws {
    let found = try problem(in: SampleCatalog.mutated { $0["version"] = 2 }, at: "version")
    #expect(found.message.contains("version 2 is newer than this tool reads"))
}

@Test func titleWithALineBreakIsRefused() throws {
    let bytes = SampleCatalog.mutatingProduct(1) { $0["title"] = ["en": "Remove\nAds", "zh-Hans": "移除广告"] }
    let found = try problem(in: bytes, at: "products[1].title.en")
    #expect(found.message.hasPrefix(#""Remove\nAds" contains a line break (U+000A, \n) at character 7; "#))
    #expect(found.message.contains("must be a single line"))
    #expect(!hasLineBreak(found.message))
}

@Test func titleWithATabIsRefused() throws {
    let bytes = SampleCatalog.mutatingProduct(1) { $0["title"] = ["en": "Remove Ads", "zh-Hans": "移除\t广告"] }
    let found = try problem(in: bytes, at: "products[1].title.zh-Hans")
    #expect(found.message.contains("contains a tab (U+0009, \\t) at character 3"))
}

/// Each kind of line break or control character, in a title, named in the message with its position.
@Test(arguments: [
    ("Remove\r\nAds", "a carriage return (U+000D, \\r) at character 7"),
    ("Remove\u{2028}Ads", "a line separator (U+2028) at character 7"),
    ("Remove\u{2029}Ads", "a paragraph separator (U+2029) at character 7"),
    ("\u{1B}[1mRemove Ads", "the control character U+001B at character 1"),
    ("Remove Ads\u{7F}", "the control character U+007F at character 11"),
    ("Remove\u{85}Ads", "the control character U+0085 at character 7"),
    ("Re\u{0}move Ads", "a NUL character (U+0000) at character 3"),
])
func titleWithAControlCharacterIsRefused(title: String, expected: String) throws {
    let bytes = SampleCatalog.mutatingProduct(1) { $0["title"] = ["en": title, "zh-Hans": "移除广告"] }
    let found = try problem(in: bytes, at: "products[1].title.en")
    #expect(found.message.contains(expected))
    #expect(!hasLineBreak(found.message))
}

@Test func descriptionMayContainLineBreaksAndTabs() throws {
    let text = "Removes all ads.\n\tBanners and videos."
    let catalog = try CatalogLoader.decode(
        SampleCatalog.mutatingProduct(1) { $0["description"] = ["en": text, "zh-Hans": "移除所有广告。"] },
        source: "sample.json")
    #expect(catalog.products[1].description.text(in: .english) == text)
}

@Test func descriptionWithAnotherControlCharacterIsRefused() throws {
    let bytes = SampleCatalog.mutatingProduct(1) {
        $0["description"] = ["en": "Removes\nall ads.\r", "zh-Hans": "移除所有广告。"]
    }
    let found = try problem(in: bytes, at: "products[1].description.en")
    #expect(found.message.contains("a carriage return (U+000D, \\r) at character 17"))
    #expect(found.message.contains("a description may contain line breaks"))
}

/// Ids and names are single-line text too, wherever they appear.
@Test func idsAndNamesWithALineBreakOrTabAreRefused() throws {
    let cases: [(path: String, bytes: [UInt8])] = [
        ("products[1].id", SampleCatalog.mutatingProduct(1) { $0["id"] = "com.example.sample\tremoveads" }),
        ("bundleId", SampleCatalog.mutated { $0["bundleId"] = "com.example\nsample" }),
        ("accounts[0].name", SampleCatalog.mutated { $0["accounts"] = [["name": "al\nice", "storefront": "USA"]] }),
        (
            "accounts[0].note",
            SampleCatalog.mutated {
                $0["accounts"] = [["name": "alice", "storefront": "USA", "note": "Default\naccount."]]
            }
        ),
        (
            "subscriptionGroups[0].id",
            SampleCatalog.mutated {
                $0["subscriptionGroups"] = [["id": "prem\tium", "title": ["en": "Premium", "zh-Hans": "高级会员"]]]
            }
        ),
        (
            "subscriptionGroups[0].title.en",
            SampleCatalog.mutated {
                $0["subscriptionGroups"] = [["id": "premium", "title": ["en": "Pre\nmium", "zh-Hans": "高级会员"]]]
            }
        ),
        (
            "products[0].wallet.balance",
            SampleCatalog.mutatingProduct(0) { $0["wallet"] = ["balance": "ge\tms", "amount": 100] }
        ),
    ]
    for (path, bytes) in cases {
        let found = try problem(in: bytes, at: path)
        #expect(found.message.contains("must be a single line"), "\(path): \(found.message)")
    }
}

@Test func titleLengthCountsCharactersNotScalars() throws {
    // 150 characters, each "e" + U+0301: within the 200-character limit.
    let bytes = SampleCatalog.mutatingProduct(1) {
        $0["title"] = ["en": String(repeating: "e\u{301}", count: 150), "zh-Hans": "移除广告"]
    }
    #expect(catalogError(bytes) == nil)
}

@Test func titleOfExactlyTwoHundredEmojiIsAccepted() throws {
    // 200 characters of five scalars and 18 bytes each.
    let bytes = SampleCatalog.mutatingProduct(1) {
        $0["title"] = ["en": String(repeating: "👨‍👩‍👧", count: 200), "zh-Hans": "移除广告"]
    }
    #expect(catalogError(bytes) == nil)
}

@Test func titleOneCharacterOverTheLimitGivesItsLengthInCharacters() throws {
    let bytes = SampleCatalog.mutatingProduct(1) {
        $0["title"] = ["en": String(repeating: "👨‍👩‍👧", count: 201), "zh-Hans": "移除广告"]
    }
    let found = try problem(in: bytes, at: "products[1].title.en")
    #expect(found.message.contains("is too long: at most 200 characters allowed"))
}

@Test func descriptionLengthCountsCharactersNotScalars() throws {
    // 4,000 flags of two scalars each (8,000 scalars, 32,000 bytes): exactly the description limit.
    let bytes = SampleCatalog.mutatingProduct(1) {
        $0["description"] = ["en": String(repeating: "🇯🇵", count: 4_000), "zh-Hans": "移除所有广告。"]
    }
    #expect(catalogError(bytes) == nil)
}

@Test func idLengthCountsCharactersNotScalars() throws {
    // 255 characters, 510 scalars: within the id's length limit, so the problem is the characters used.
    let found = try problem(
        in: SampleCatalog.mutatingProduct(1) { $0["id"] = String(repeating: "e\u{301}", count: 255) },
        at: "products[1].id")
    #expect(found.message.contains("is not a product identifier"))
}

// MARK: - Values shown in messages

/// True when `text` would break a one-line message (checked by scalar: "\r\n" is one Character).
private func hasLineBreak(_ text: String) -> Bool {
    text.unicodeScalars.contains { $0 == "\n" || $0 == "\r" || $0 == "\u{2028}" }
}

@Test func quotedValueOfFortyAccentedCharactersIsShownWhole() throws {
    // 40 characters but 80 Unicode scalars: nothing is cut, so no "…" and no byte count.
    let id = String(repeating: "e\u{301}", count: 40)
    let found = try problem(in: SampleCatalog.mutatingProduct(1) { $0["id"] = id }, at: "products[1].id")
    #expect(found.message.hasPrefix("\"\(id)\" is not a product identifier"))
}

@Test func quotedValueIsCutAfterFortyCharactersNeverInsideOne() throws {
    let family = "👨‍👩‍👧"  // one character, five scalars
    let id = String(repeating: family, count: 41)
    let found = try problem(in: SampleCatalog.mutatingProduct(1) { $0["id"] = id }, at: "products[1].id")
    #expect(
        found.message.hasPrefix(
            "\"\(String(repeating: family, count: 40))…\" (\(id.utf8.count) bytes) is not a product identifier"))
}

@Test func quotedValueEscapesACarriageReturnLineFeedPair() throws {
    // "\r\n" is a single Character of two scalars; both are escaped, so the message stays on one line.
    let found = try problem(in: SampleCatalog.mutatingProduct(1) { $0["id"] = "a\r\nb" }, at: "products[1].id")
    #expect(found.message.hasPrefix(#""a\r\nb""#))
    #expect(!hasLineBreak(found.message))
}

@Test func quotedValueEscapesUnicodeLineSeparatorsAndC1Controls() throws {
    let found = try problem(
        in: SampleCatalog.mutatingProduct(1) { $0["id"] = "a\u{2028}b\u{85}c" }, at: "products[1].id")
    #expect(found.message.hasPrefix(#""a\u{2028}b\u{85}c""#))
    #expect(!hasLineBreak(found.message))
}

@Test func quotedValueDoesNotShowOneHugeCharacterWhole() throws {
    // One character: "a" carrying 10,000 combining acute accents (20,001 bytes).
    let id = "a" + String(repeating: "\u{301}", count: 10_000)
    let found = try problem(in: SampleCatalog.mutatingProduct(1) { $0["id"] = id }, at: "products[1].id")
    #expect(found.message.hasPrefix("\"…\" (20001 bytes)"))
    #expect(found.message.utf8.count < 200)
}

// MARK: - Files that are not catalogs at all

@Test func emptyFileIsRefused() throws {
    let error = try #require(catalogError([], source: "empty.json"))
    #expect(
        error.problems == [
            CatalogProblem(path: "line 1, column 1", message: "the file is empty; expected a JSON object")
        ])
    #expect(error.description == "empty.json: line 1, column 1: the file is empty; expected a JSON object")
}

@Test func whitespaceOnlyFileIsRefused() throws {
    let error = try #require(catalogError(Array("\n\n   \n".utf8)))
    #expect(error.problems.count == 1)
    #expect(error.problems[0].path == "line 4, column 1")
    #expect(error.problems[0].message.contains("only whitespace"))
}

@Test func binaryFileIsRefused() throws {
    let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52]
    let error = try #require(catalogError(png, source: "icon.png"))
    #expect(error.problems.count == 1)
    #expect(error.problems[0].message.contains("binary"))
    #expect(error.description.hasPrefix("icon.png: "))
}

@Test func truncatedFileReportsALineAndColumn() throws {
    let bytes = Array(SampleCatalog.bytes.prefix(SampleCatalog.bytes.count / 2))
    let error = try #require(catalogError(bytes))
    #expect(error.problems.count == 1)
    let match = try #require(error.problems[0].path.wholeMatch(of: /line (\d+), column (\d+)/))
    #expect(Int(match.1)! > 1)
    #expect(error.problems[0].message.contains("truncated"))
}

// No time limit: a limit counts the time a test waits for a thread of the test pool, which a
// busy 2-core machine running blocking tests beside it holds for minutes (seen: 545 s for a
// test whose body takes 0.2 s). The read stops one character past the limit instead.
@Test
func fiftyMegabyteTitleGivesAShortOneLineProblem() throws {
    let length = 50_000_000
    let halves = SampleCatalog.text.components(separatedBy: "\"100 Gems\"")
    try #require(halves.count == 2)
    let bytes =
        Array(halves[0].utf8) + [0x22] + [UInt8](repeating: 0x61, count: length) + [0x22] + Array(halves[1].utf8)
    let error = try #require(catalogError(bytes))
    #expect(error.problems.count == 1)
    let found = try #require(error.problem(at: "products[0].title.en"))
    #expect(found.message.contains("too long"))
    #expect(found.message.contains("\(length)"))
    #expect(!found.message.contains("\n"))
    #expect(error.description.count < 500)
}

/// The sample catalog with `title` (raw UTF-8, no escapes) as the English title of products[0].
private func catalogWithFirstTitle(_ title: [UInt8]) throws -> [UInt8] {
    let halves = SampleCatalog.text.components(separatedBy: "\"100 Gems\"")
    try #require(halves.count == 2)
    return Array(halves[0].utf8) + [0x22] + title + [0x22] + Array(halves[1].utf8)
}

/// "e" + U+0301 is one character of three bytes: 200 of them (600 bytes) are a title, 201 are
/// not, and 1,666,666 (5 MB) are refused after reading 201 of them.
// No time limit, as for fiftyMegabyteTitleGivesAShortOneLineProblem.
@Test
func hugeTitleOfAccentedLettersIsMeasuredInCharacters() throws {
    let accented = { (count: Int) in Array(String(repeating: "e\u{301}", count: count).utf8) }
    #expect(catalogError(try catalogWithFirstTitle(accented(200))) == nil)
    for count in [201, 1_666_666] {
        let error = try #require(catalogError(try catalogWithFirstTitle(accented(count))))
        #expect(error.problems.count == 1)
        let found = try #require(error.problem(at: "products[0].title.en"))
        #expect(found.message.contains("(\(count * 3) bytes) is too long: at most 200 characters allowed"))
        #expect(error.description.utf8.count < 500)
    }
}

/// Too long is found before anything walks the text character by character in a debug build.
// No time limit, as for fiftyMegabyteTitleGivesAShortOneLineProblem.
@Test
func hugeTitleOfSpacesIsRefusedAsTooLong() throws {
    let length = 5_000_000
    let error = try #require(catalogError(try catalogWithFirstTitle([UInt8](repeating: 0x20, count: length))))
    let found = try #require(error.problem(at: "products[0].title.en"))
    #expect(found.message.contains("(\(length) bytes) is too long: at most 200 characters allowed"))
    #expect(error.description.utf8.count < 500)
}

// MARK: - Everything at once

@Test func everyProblemIsReportedInOneError() throws {
    let bytes = SampleCatalog.mutated { root in
        root["version"] = 2
        var products = root["products"] as? [[String: Any]] ?? []
        products[0]["prices"] = ["USA": "0.99", "JPN": "1,60"]
        products[1]["type"] = "durable"
        products[2]["subscription"] = ["group": "premium", "period": "P1Q", "rank": 1]
        root["products"] = products
    }
    let error = try #require(catalogError(bytes))
    #expect(error.problems.count >= 4)
    for path in ["version", "products[0].prices.JPN", "products[1].type", "products[2].subscription.period"] {
        #expect(error.problem(at: path) != nil, "no problem at \(path)")
    }
    #expect(error.description.hasPrefix("bad.json: \(error.problems.count) problems\n"))
}

@Test func moreThanFiftyProblemsAreSummarized() throws {
    let bytes = SampleCatalog.mutated { root in
        let product = (root["products"] as? [[String: Any]] ?? [])[1]
        root["products"] = Array(repeating: product, count: 60)
    }
    let error = try #require(catalogError(bytes))
    #expect(error.problems.count == 59)
    #expect(error.description.hasSuffix("  … and 9 more"))
    #expect(error.description.split(separator: "\n").count == CatalogError.shownLimit + 2)
}

// MARK: - The repository's products.json

private let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

private func repositoryCatalog() throws -> Catalog {
    let path = repositoryRoot.appendingPathComponent("products.json").path
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    return try CatalogLoader.decode(bytes, source: path)
}

@Test func repositoryCatalogHasEveryProductType() throws {
    let catalog = try repositoryCatalog()
    #expect(catalog.products.count >= 10)
    #expect(Set(catalog.products.map(\.type)) == Set(ProductType.allCases))
}

@Test func repositoryCatalogPricesEveryMainStorefront() throws {
    let catalog = try repositoryCatalog()
    let required = ["USA", "JPN", "DEU", "CHN", "GBR", "IND", "BRA"]
    #expect(Set(required).isSubset(of: catalog.storefronts.map(\.id)))
    for product in catalog.products {
        for storefront in required where !product.unavailableIn.contains(storefront) {
            #expect(product.prices[storefront] != nil, "\(product.id) has no price in \(storefront)")
        }
    }
}

@Test func repositoryCatalogHasARemovedAndARegionLockedProduct() throws {
    let catalog = try repositoryCatalog()
    #expect(catalog.products.contains { $0.removed })
    #expect(catalog.products.contains { !$0.unavailableIn.isEmpty })
}
