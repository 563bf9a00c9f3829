import Foundation
import TestSupport
import Testing

private let gems = "com.example.storefront.gems.100"
private let removed = "com.example.storefront.levels.classic"
private let lifetime = "com.example.storefront.pro.lifetime"

/// Runs `storefront products … --json`, requires exit 0 and returns the decoded object.
private func productsJSON(
    _ arguments: [String], environment: [String: String] = [:],
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> [String: Any] {
    let result = try Executable.run(["products"] + arguments + ["--json"], environment: environment)
    try #require(result.status == 0, "stderr: \(result.stderr)", sourceLocation: sourceLocation)
    let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    return try #require(object as? [String: Any], sourceLocation: sourceLocation)
}

private func products(_ object: [String: Any]) -> [[String: Any]] {
    object["products"] as? [[String: Any]] ?? []
}

private func product(_ id: String, in object: [String: Any], sourceLocation: SourceLocation = #_sourceLocation) throws
    -> [String: Any]
{
    try #require(
        products(object).first { $0["id"] as? String == id }, "no \(id) in the products", sourceLocation: sourceLocation
    )
}

private func strings(_ value: Any?) -> [String] {
    value as? [String] ?? []
}

/// The repository's products.json, read independently of the code under test.
private func catalogProducts() throws -> [[String: Any]] {
    let data = try Data(contentsOf: Executable.repositoryRoot.appendingPathComponent("products.json"))
    let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    return root["products"] as? [[String: Any]] ?? []
}

// MARK: - JSON output

@Test func jsonHasTheResponseFields() throws {
    let object = try productsJSON([])
    #expect(
        Set(object.keys) == [
            "storefront", "currency", "locale", "account", "products", "invalidProductIdentifiers",
            "unavailableInStorefront",
        ])
    #expect(object["storefront"] as? String == "USA")
    #expect(object["currency"] as? String == "USD")
    #expect(object["locale"] as? String == "en_US")
    #expect(strings(object["invalidProductIdentifiers"]) == [removed])
    #expect(products(object).count == 12)
}

@Test func everyProductHasItsFields() throws {
    for item in products(try productsJSON([])) {
        for key in ["id", "type", "title", "description", "price", "displayPrice"] {
            #expect(!((item[key] as? String) ?? "").isEmpty, "\(item["id"] ?? "?") has no \(key)")
        }
        let isSubscription = ["autoRenewable", "nonRenewing"].contains(item["type"] as? String ?? "")
        #expect((item["subscriptionPeriod"] != nil) == isSubscription, "\(item["id"] ?? "?")")
    }
}

@Test func subscriptionsCarryTheirPeriod() throws {
    let object = try productsJSON([])
    #expect(try product("com.example.storefront.premium.monthly", in: object)["subscriptionPeriod"] as? String == "P1M")
    #expect(try product("com.example.storefront.premium.yearly", in: object)["subscriptionPeriod"] as? String == "P1Y")
    #expect(try product("com.example.storefront.pass.season", in: object)["subscriptionPeriod"] as? String == "P3M")
}

@Test func dollarPricesByDefault() throws {
    let item = try product(gems, in: try productsJSON([]))
    #expect(item["price"] as? String == "0.99")
    #expect(item["displayPrice"] as? String == "$0.99")
}

@Test func japanPricesInYen() throws {
    let object = try productsJSON(["--storefront", "JPN"])
    #expect(object["currency"] as? String == "JPY")
    #expect(object["locale"] as? String == "ja_JP")
    let item = try product(gems, in: object)
    #expect(item["price"] as? String == "160")
    #expect(item["displayPrice"] as? String == "¥160")
}

/// An account prices the products in its own storefront, as `buy --account` charges them;
/// `--storefront` still wins.
@Test func anAccountPricesInItsStorefront() throws {
    let state = scratchDirectory("storefront-products-account")
    let lena = try productsJSON(["--account", "lena", "--state", state.path])
    #expect(lena["storefront"] as? String == "DEU")
    #expect(try product(gems, in: lena)["displayPrice"] as? String == "1,19\u{00A0}€")
    let there = try productsJSON(["--account", "lena", "--storefront", "JPN", "--state", state.path])
    #expect(there["currency"] as? String == "JPY")
}

@Test func germanPricesInEuro() throws {
    let object = try productsJSON(["--storefront", "DEU"])
    #expect(object["currency"] as? String == "EUR")
    #expect(try product(gems, in: object)["displayPrice"] as? String == "1,19\u{00A0}€")
}

@Test func storefrontIdIsCaseInsensitive() throws {
    #expect(try productsJSON(["--storefront", "deu"])["storefront"] as? String == "DEU")
}

@Test func localeOverrideFormatsTheStorefrontsCurrency() throws {
    let object = try productsJSON(["--locale", "fr_CH", "--storefront", "DEU"])
    #expect(object["locale"] as? String == "fr_CH")
    #expect(object["currency"] as? String == "EUR")
    #expect(try product(gems, in: object)["displayPrice"] as? String == "€\u{00A0}1,19")
}

@Test func chineseTitlesWithLangZhHans() throws {
    let object = try productsJSON(["--lang", "zh-Hans"])
    for entry in try catalogProducts() {
        guard let id = entry["id"] as? String, id != removed else { continue }
        let titles = entry["title"] as? [String: String] ?? [:]
        #expect(try product(id, in: object)["title"] as? String == titles["zh-Hans"])
    }
    #expect(try product(gems, in: object)["title"] as? String == "100 颗宝石")
}

@Test func chineseTitlesFromTheEnvironment() throws {
    let object = try productsJSON([], environment: ["LANG": "zh_CN.UTF-8"])
    #expect(try product(gems, in: object)["title"] as? String == "100 颗宝石")
}

@Test func idsRequestOnlyThoseInRequestOrder() throws {
    let object = try productsJSON(["--ids", "com.example.storefront.removeads, \(gems),nope,\(gems)"])
    #expect(products(object).compactMap { $0["id"] as? String } == ["com.example.storefront.removeads", gems])
    #expect(strings(object["invalidProductIdentifiers"]) == ["nope"])
}

@Test func cLocaleStillFormatsCurrencies() throws {
    let environment = ["LANG": "C", "LC_ALL": "C"]
    #expect(try product(gems, in: try productsJSON([], environment: environment))["displayPrice"] as? String == "$0.99")
    #expect(
        try product(gems, in: try productsJSON(["--storefront", "JPN"], environment: environment))["displayPrice"]
            as? String == "¥160")
    let table = try Executable.run(["products", "--storefront", "JPN"], environment: environment)
    #expect(table.status == 0)
    #expect(table.stdout.contains("¥160"))
    #expect(!table.stdout.contains("¤"))
}

@Test func productNotSoldInChinaIsInvalidAndUnavailable() throws {
    let object = try productsJSON(["--storefront", "CHN"])
    #expect(object["currency"] as? String == "CNY")
    #expect(strings(object["invalidProductIdentifiers"]).contains(lifetime))
    #expect(strings(object["invalidProductIdentifiers"]).contains(removed))
    #expect(strings(object["unavailableInStorefront"]) == [lifetime])
    #expect(!products(object).contains { $0["id"] as? String == lifetime })
}

// MARK: - The table

/// Terminal cells of a character, reimplemented for the test: CJK and fullwidth forms take two,
/// bidirectional marks and combining accents none, everything else one.
private func cells(_ character: Character) -> Int {
    guard let scalar = character.unicodeScalars.first else { return 0 }
    switch scalar.value {
    case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
        0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6:
        return 2
    case 0x0300...0x036F, 0x200B...0x200F:
        return 0
    default:
        return 1
    }
}

/// The columns of a table line (separated by two or more spaces) as cell ranges.
private func columns(_ line: String) -> [Range<Int>] {
    var result: [Range<Int>] = []
    var offset = 0
    var start: Int?
    var spaces = 0
    for character in line {
        if character == " " {
            spaces += 1
        } else {
            if let begun = start, spaces >= 2 {
                result.append(begun..<(offset - spaces))
                start = nil
            }
            if start == nil { start = offset }
            spaces = 0
        }
        offset += cells(character)
    }
    if let begun = start { result.append(begun..<(offset - spaces)) }
    return result
}

@Test func chineseYenTableIsAlignedInTerminalCells() throws {
    let result = try Executable.run(["products", "--lang", "zh-Hans", "--storefront", "JPN"])
    #expect(result.status == 0)
    let lines = result.stdout.components(separatedBy: "\n")
    let table = Array(lines.dropFirst(2).prefix { !$0.isEmpty })
    try #require(table.count == 13, "header and 12 rows:\n\(result.stdout)")
    let layout = table.map(columns)
    try #require(layout.allSatisfy { $0.count == 4 }, "four columns:\n\(result.stdout)")
    for (row, ranges) in layout.enumerated() {
        #expect(ranges[0].lowerBound == 0, "title column, line \(row)")
        #expect(ranges[1].lowerBound == layout[0][1].lowerBound, "type column, line \(row): \(table[row])")
        #expect(ranges[2].upperBound == layout[0][2].upperBound, "price column ends, line \(row): \(table[row])")
        #expect(ranges[3].lowerBound == layout[0][3].lowerBound, "product id column, line \(row): \(table[row])")
    }
    #expect(table[1].hasSuffix(gems))
    #expect(result.stdout.contains("¥800/月"))
}

@Test func englishTableListsInvalidIdentifiers() throws {
    let result = try Executable.run(["products", "--storefront", "CHN"])
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("Storefront CHN · CNY · zh_CN · 11 products"))
    #expect(result.stdout.contains("Invalid product identifiers: \(lifetime), \(removed)"))
    #expect(result.stdout.contains("of which not sold in CHN: \(lifetime)"))
}

// MARK: - Exit statuses

@Test func unknownStorefrontIsAUsageError() throws {
    let result = try Executable.run(["products", "--storefront", "XXX"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("--storefront XXX"))
    #expect(result.stdout.isEmpty)
}

@Test func unknownOptionIsAUsageError() throws {
    let result = try Executable.run(["products", "--bogus"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("--bogus"))
}

@Test func unknownLanguageIsAUsageError() throws {
    let result = try Executable.run(["products", "--lang", "klingon"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("klingon"))
}

@Test func unknownLocaleIsAUsageError() throws {
    let result = try Executable.run(["products", "--locale", "xx_YY"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("xx_YY"))
}

@Test func missingCatalogFileIsAFailure() throws {
    let result = try Executable.run(["products", "--catalog", "/nonexistent.json"])
    #expect(result.status == 1)
    #expect(result.stderr.contains("/nonexistent.json"))
    #expect(result.stdout.isEmpty)
}

@Test func badCatalogFileIsAFailureWithTheJSONPath() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("storefront-bad-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let original = try String(
        contentsOf: Executable.repositoryRoot.appendingPathComponent("products.json"), encoding: .utf8)
    let broken = original.replacingOccurrences(of: #""JPN": "160""#, with: #""JPN": "1,60""#)
    try #require(broken != original)
    let file = directory.appendingPathComponent("bad.json")
    try broken.write(to: file, atomically: true, encoding: .utf8)
    let result = try Executable.run(["products", "--catalog", file.path])
    #expect(result.status == 1)
    #expect(result.stderr.contains(file.path))
    #expect(result.stderr.contains(#"products[0].prices.JPN: "1,60" is not a decimal number"#))
}

// MARK: - Other catalog sources

@Test func skDemoStoreKitFileAsCatalog() throws {
    let object = try productsJSON(["--catalog", "Tests/StoreKitModelTests/Fixtures/SKDemo-Products.storekit"])
    #expect(object["storefront"] as? String == "USA")
    #expect(products(object).count == 20)
    let pro = try product("plus.pro", in: object)
    #expect(pro["type"] as? String == "autoRenewable")
    #expect(pro["displayPrice"] as? String == "$4.99")
    #expect(pro["subscriptionPeriod"] as? String == "P1M")
    // The group's internal id is the file's; its name is what a person reads.
    #expect(pro["subscriptionGroup"] as? String == "3F19ED53")
    #expect(pro["subscriptionGroupName"] as? String == "SKDemo+")
}

@Test func oneProductIsNotCountedAsProducts() throws {
    let result = try Executable.run(["products", "--ids", "com.example.storefront.removeads"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.hasPrefix("Storefront USA · USD · en_US · 1 product\n"), "\(result.stdout)")
}

@Test func backyardBirdsStoreKitFileAsCatalog() throws {
    let object = try productsJSON(["--catalog", "Tests/StoreKitModelTests/Fixtures/BackyardBirds-Store.storekit"])
    #expect(products(object).count == 9)
    #expect(try product("nectar.cup", in: object)["displayPrice"] as? String == "$0.99")
    #expect(strings(object["invalidProductIdentifiers"]).isEmpty)
}

@Test func storeKitCatalogHasOnlyItsOwnStorefront() throws {
    let result = try Executable.run([
        "products", "--catalog", "Tests/StoreKitModelTests/Fixtures/SKDemo-Products.storekit", "--storefront", "JPN",
    ])
    #expect(result.status == 2)
    #expect(result.stderr.contains("USA"))
}

@Test func catalogDownloadedOverHTTP() throws {
    let server = try LocalHTTPServer.start(serving: Executable.repositoryRoot)
    defer { server.stop() }
    let environment = ["no_proxy": "127.0.0.1", "NO_PROXY": "127.0.0.1"]
    let object = try productsJSON(
        ["--catalog", server.url("products.json"), "--storefront", "JPN"], environment: environment)
    #expect(products(object).count == 12)
    #expect(try product(gems, in: object)["displayPrice"] as? String == "¥160")

    let missing = try Executable.run(["products", "--catalog", server.url("missing.json")], environment: environment)
    #expect(missing.status == 1)
    #expect(missing.stderr.contains("HTTP 404"))
    #expect(missing.stderr.contains(server.url("missing.json")))
}
