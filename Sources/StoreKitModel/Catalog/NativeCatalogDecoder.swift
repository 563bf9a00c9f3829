import Foundation
import JSONReading

/// Decodes Storefront's own catalog format (`products.json`; see docs/catalog-format.md),
/// validating everything and collecting every problem.
struct NativeCatalogDecoder {
    static let formatName = "storefront-catalog"
    static let topLevelKeys = [
        "format", "version", "bundleId", "languages", "defaultStorefront",
        "storefronts", "accounts", "subscriptionGroups", "products", "offerSigningKey", "app",
    ]

    var check = Validation()
    /// Ids of storefront entries already reported as invalid, or nil when `storefronts` itself is
    /// missing, empty or not an array: a price or account naming one of them is not reported again
    /// as "unknown storefront", which would only bury the real mistake.
    private(set) var reportedStorefronts: Set<String>? = []

    func alreadyReported(storefront id: String) -> Bool {
        reportedStorefronts?.contains(id) ?? true
    }
    /// Set when `decode` was given products read while parsing under other languages,
    /// storefronts or groups than the whole file has: decode the full tree instead.
    private(set) var streamedContextDiffers = false

    /// Decodes the catalog; `streamed` holds the products if they were read while parsing (the
    /// tree then has an empty array in their place).
    mutating func decode(_ root: JSONValue, streamed: NativeProductStream? = nil) -> Catalog? {
        guard let top = check.object(root, .root, allowed: Self.topLevelKeys) else { return nil }
        readHeader(top)
        let bundleId = check.string(
            check.require(top, "bundleId", .root, "the app's bundle identifier, e.g. \"com.example.app\""),
            JSONPath.root.key("bundleId"), maxLength: 155)
        if let bundleId, !bundleId.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") })
        {
            check.report(
                JSONPath.root.key("bundleId"),
                "\(quoted(bundleId)) is not a bundle identifier (letters, digits, '.' and '-')")
        }
        let languages = readLanguages(top["languages"])
        let languageList = IdList(languages)
        let storefronts = readStorefronts(
            check.require(top, "storefronts", .root, "the list of storefronts with their currency and locale"))
        let storefrontIds = IdList(storefronts.map(\.id))
        let defaultStorefront = readDefaultStorefront(top["defaultStorefront"], known: storefrontIds)
        let accounts = readAccounts(top["accounts"], storefronts: storefrontIds)
        let groups = readGroups(top["subscriptionGroups"], languages: languageList)
        var settings = CatalogSettings()
        if let key = top["offerSigningKey"] { settings.offerSigningKey = readSigningKey(key) }
        if let app = top["app"], let release = readApp(app) { settings.app = release }
        let productsValue = check.require(top, "products", .root, "the list of products")
        let productList: (products: [Product], index: [String: Int])
        if let streamed {
            guard streamed.languages == languages, streamed.storefronts == storefronts,
                streamed.groups == groups.map(\.id),
                streamed.reportedStorefronts == reportedStorefronts
            else {
                streamedContextDiffers = true
                return nil
            }
            productList = streamed.take(productsValue, check: &check)
        } else {
            var products = ProductsDecoder(
                languages: languageList, storefronts: storefronts, groups: groups.map(\.id),
                reportedStorefronts: reportedStorefronts)
            productList = (products.read(productsValue, check: &check), products.firstSeen)
        }
        guard check.problems.isEmpty, let bundleId, let defaultStorefront else { return nil }
        // With no problem every element is a product, so where each id was first seen is its position.
        return Catalog(
            bundleId: bundleId, languages: languages, defaultStorefront: defaultStorefront, storefronts: storefronts,
            accounts: accounts, subscriptionGroups: groups, products: productList.products,
            productIndex: productList.index,
            settings: settings)
    }

    /// `offerSigningKey`: `{"keyId": "…", "privateKey": "-----BEGIN PRIVATE KEY-----…"}`, the In-App
    /// Purchase key promotional offers are signed with (a P-256 key in PKCS#8 PEM).
    private mutating func readSigningKey(_ value: JSONValue) -> OfferSigningKey? {
        let path = JSONPath.root.key("offerSigningKey")
        guard let object = check.object(value, path, allowed: ["keyId", "privateKey"]) else { return nil }
        let keyId = check.string(
            check.require(object, "keyId", path, "the key's id from App Store Connect, e.g. \"ABC123DEFG\""),
            path.key("keyId"), maxLength: 64)
        let pem = check.string(
            check.require(object, "privateKey", path, "the PEM text of the P-256 private key"), path.key("privateKey"),
            maxLength: 4000, multiline: true)
        if let keyId, keyId.isEmpty || !keyId.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) {
            check.report(path.key("keyId"), "\(quoted(keyId)) is not a key id (letters and digits)")
        }
        if let pem, !pem.hasPrefix("-----BEGIN PRIVATE KEY-----") && !pem.hasPrefix("-----BEGIN EC PRIVATE KEY-----") {
            check.report(
                path.key("privateKey"), "not a PEM private key: it must start with -----BEGIN PRIVATE KEY-----")
        }
        guard let keyId, let pem else { return nil }
        return OfferSigningKey(keyId: keyId, privateKeyPEM: pem)
    }

    /// `app`: `{"version": "3.2", "originalVersion": "1.0", "purchaseDate": "2025-01-15T09:00:00Z",
    /// "preorderDate": "2025-01-02T00:00:00Z"}`, every field but `version` optional.
    private mutating func readApp(_ value: JSONValue) -> AppRelease? {
        let path = JSONPath.root.key("app")
        guard
            let object = check.object(
                value, path, allowed: ["version", "originalVersion", "purchaseDate", "preorderDate"])
        else { return nil }
        let version = readBuild(
            check.require(object, "version", path, "the app's build, e.g. \"3.2\""), path.key("version"))
        let original = object["originalVersion"].flatMap { readBuild($0, path.key("originalVersion")) }
        let purchased = object["purchaseDate"].flatMap { readDate($0, path.key("purchaseDate")) }
        let preordered = object["preorderDate"].flatMap { readDate($0, path.key("preorderDate")) }
        if let purchased, let preordered, preordered > purchased {
            check.report(path.key("preorderDate"), "a pre-order comes before the purchase date it turned into")
        }
        guard let version else { return nil }
        return AppRelease(
            version: version, originalVersion: original, purchaseDate: purchased, preorderDate: preordered)
    }

    private mutating func readBuild(_ value: JSONValue?, _ path: JSONPath) -> String? {
        guard let text = check.string(value, path, maxLength: 32) else { return nil }
        guard AppRelease.isBuildNumber(text) else {
            check.report(
                path, "\(quoted(text)) is not a build number (one to three whole numbers: \"3\", \"3.2\", \"3.2.1\")")
            return nil
        }
        return text
    }

    private mutating func readDate(_ value: JSONValue, _ path: JSONPath) -> Date? {
        guard let text = check.string(value, path, maxLength: 40) else { return nil }
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withFullDate]
        if let date = formatter.date(from: text) { return date }
        check.report(path, "\(quoted(text)) is not an ISO 8601 date such as \"2025-01-15\" or \"2025-01-15T09:00:00Z\"")
        return nil
    }

    private mutating func readHeader(_ top: JSONObject) {
        if let format = check.string(
            check.require(top, "format", .root, "\"\(Self.formatName)\""), JSONPath.root.key("format")),
            format != Self.formatName
        {
            check.report(
                JSONPath.root.key("format"),
                "\(quoted(format)) is not a format this tool reads (expected \"\(Self.formatName)\")")
        }
        let path = JSONPath.root.key("version")
        guard let version = check.require(top, "version", .root, "the format version, 1") else { return }
        // Any whole number above 1, however many digits, is a newer format.
        if case .number(let text) = version, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            Int(text).map({ $0 > 1 }) ?? true
        {
            check.report(path, "version \(brief(version)) is newer than this tool reads (1); update Storefront")
        } else {
            _ = check.integer(version, path, in: 1...1)
        }
    }

    mutating func readLanguages(_ value: JSONValue?) -> [String] {
        let path = JSONPath.root.key("languages")
        guard let items = check.array(value, path) else { return [Language.english.rawValue] }
        var languages: [String] = []
        var seen = Set<String>()  // sets, here and below: a catalog with 100,000 entries must not take quadratic time
        for (index, item) in items.enumerated() {
            guard let tag = check.string(item, path.index(index), maxLength: 20) else { continue }
            if seen.contains(tag) {
                check.report(path.index(index), "\(quoted(tag)) is listed twice")
            } else if !tag.allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "-" || $0 == "_") }) {
                check.report(path.index(index), "\(quoted(tag)) is not a language tag such as \"en\" or \"zh-Hans\"")
            } else {
                languages.append(tag)
                seen.insert(tag)
            }
        }
        if items.isEmpty { check.report(path, "is empty; list at least one language, e.g. [\"en\"]") }
        return languages
    }

    mutating func readStorefronts(_ value: JSONValue?) -> [Storefront] {
        let path = JSONPath.root.key("storefronts")
        guard let items = check.array(value, path), !items.isEmpty else {
            if value == .array([]) { check.report(path, "is empty; list at least one storefront") }
            reportedStorefronts = nil
            return []
        }
        var storefronts: [Storefront] = []
        var ids = Set<String>()
        var declared = Set<String>()
        defer { reportedStorefronts = declared.subtracting(storefronts.map(\.id)) }
        for (index, item) in items.enumerated() {
            let itemPath = path.index(index)
            guard let object = check.object(item, itemPath, allowed: ["id", "currency", "locale"]) else { continue }
            let id = check.string(
                check.require(object, "id", itemPath, "ISO 3166-1 alpha-3, e.g. \"USA\""), itemPath.key("id"),
                maxLength: 3)
            let currency = check.string(
                check.require(object, "currency", itemPath, "ISO 4217, e.g. \"USD\""), itemPath.key("currency"),
                maxLength: 3)
            let locale = check.string(
                check.require(object, "locale", itemPath, "a locale such as \"en_US\""), itemPath.key("locale"),
                maxLength: 40)
            if let id { declared.insert(id) }
            guard let id, let currency, let locale else { continue }
            if !isUpperAlpha(id, count: 3) {
                check.report(
                    itemPath.key("id"),
                    "\(quoted(id)) is not an ISO 3166-1 alpha-3 code (three capital letters, e.g. \"JPN\")")
            } else if ids.contains(id) {
                check.report(itemPath.key("id"), "duplicate storefront \(quoted(id))")
            } else if !LocaleCatalog.isKnownCurrency(currency) {
                check.report(
                    itemPath.key("currency"), "\(quoted(currency)) is not an ISO 4217 currency code (e.g. \"EUR\")")
            } else if !LocaleCatalog.isKnownLocale(locale) {
                check.report(
                    itemPath.key("locale"), "\(quoted(locale)) is not a locale this system knows (e.g. \"de_DE\")")
            } else {
                storefronts.append(Storefront(id: id, currency: currency, locale: locale))
                ids.insert(id)
            }
        }
        return storefronts
    }

    private mutating func readDefaultStorefront(_ value: JSONValue?, known: IdList) -> String? {
        guard let value else { return known.ids.first }
        let path = JSONPath.root.key("defaultStorefront")
        guard let id = check.string(value, path, maxLength: 3) else { return nil }
        guard known.contains(id) else {
            if alreadyReported(storefront: id) { return nil }
            check.report(path, "unknown storefront \(quoted(id)) (the catalog's storefronts are \(known.text))")
            return nil
        }
        return id
    }

    private mutating func readAccounts(_ value: JSONValue?, storefronts: IdList) -> [Account] {
        let path = JSONPath.root.key("accounts")
        guard let items = check.array(value, path) else { return [] }
        var names = Set<String>()
        var accounts: [Account] = []
        for (index, item) in items.enumerated() {
            let itemPath = path.index(index)
            guard
                let object = check.object(
                    item, itemPath, allowed: ["name", "storefront", "askToBuy", "paymentsAllowed", "note", "family"])
            else { continue }
            let name = check.string(
                check.require(object, "name", itemPath, "a short account name"), itemPath.key("name"),
                maxLength: Account.maxNameLength)
            let storefront = check.string(
                check.require(object, "storefront", itemPath, "the account's storefront"), itemPath.key("storefront"),
                maxLength: 3)
            let askToBuy = check.bool(object["askToBuy"], itemPath.key("askToBuy")) ?? false
            let paymentsAllowed = check.bool(object["paymentsAllowed"], itemPath.key("paymentsAllowed")) ?? true
            let note = object["note"].flatMap { check.string($0, itemPath.key("note"), maxLength: 200) } ?? ""
            let family = object["family"].flatMap {
                check.string($0, itemPath.key("family"), maxLength: Account.maxNameLength)
            }
            guard let name, let storefront else { continue }
            if !name.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || "._-".contains($0)) }) {
                check.report(
                    itemPath.key("name"), "\(quoted(name)) must use lowercase letters, digits, '.', '_' or '-'")
            } else if names.contains(name) {
                check.report(itemPath.key("name"), "duplicate account \(quoted(name))")
            } else if !storefronts.contains(storefront) {
                if alreadyReported(storefront: storefront) { continue }
                check.report(
                    itemPath.key("storefront"),
                    "unknown storefront \(quoted(storefront)) (the catalog's storefronts are \(storefronts.text))")
            } else {
                accounts.append(
                    Account(
                        name: name, storefront: storefront, askToBuy: askToBuy, paymentsAllowed: paymentsAllowed,
                        note: note, family: family))
                names.insert(name)
            }
        }
        return accounts
    }

    mutating func readGroups(_ value: JSONValue?, languages: IdList) -> [SubscriptionGroup] {
        let path = JSONPath.root.key("subscriptionGroups")
        guard let items = check.array(value, path) else { return [] }
        var groups: [SubscriptionGroup] = []
        var ids = Set<String>()
        for (index, item) in items.enumerated() {
            let itemPath = path.index(index)
            guard let object = check.object(item, itemPath, allowed: ["id", "title"]) else { continue }
            let id = check.string(
                check.require(object, "id", itemPath, "the group's identifier"), itemPath.key("id"), maxLength: 100)
            let title = check.localized(
                check.require(object, "title", itemPath, "the group's name in each language"),
                itemPath.key("title"), languages: languages, maxLength: 100)
            guard let id, let title else { continue }
            if ids.contains(id) {
                check.report(itemPath.key("id"), "duplicate subscription group \(quoted(id))")
            } else {
                groups.append(SubscriptionGroup(id: id, title: title))
                ids.insert(id)
            }
        }
        return groups
    }
}

func isUpperAlpha(_ text: String, count: Int) -> Bool {
    text.utf8.count == count && text.utf8.allSatisfy { (0x41...0x5A).contains($0) }
}

extension Validation {
    /// `{"en": "...", "zh-Hans": "..."}` with every one of the catalog's languages present.
    /// `multiline` lets the texts hold line breaks and tabs (descriptions); titles are one line.
    mutating func localized(
        _ value: JSONValue?, _ path: @autoclosure () -> JSONPath, languages: IdList, maxLength: Int,
        multiline: Bool = false
    ) -> LocalizedText? {
        guard let object = object(value, path()) else { return nil }
        var values = [String: String](minimumCapacity: object.members.count)
        for member in object.members {
            if let text = string(member.value, path().key(member.key), maxLength: maxLength, multiline: multiline) {
                values[member.key] = text
            }
        }
        if let missing = languages.missing(from: object.keys) {
            let list = listed(missing.first.map { "\"\($0)\"" }, total: missing.count)
            report(
                path(),
                "missing the \(list) localization\(missing.count > 1 ? "s" : "") (the catalog's languages are \(languages.text))"
            )
            return nil
        }
        return values.count == object.members.count ? LocalizedText(values) : nil
    }
}
