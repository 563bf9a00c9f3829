import Foundation
import JSONReading

/// Reads the `products` array of a native catalog against its languages, storefronts and groups.
struct ProductsDecoder {
    static let productKeys = [
        "id", "type", "title", "description", "prices", "unavailableIn", "removed", "wallet", "subscription",
        "familyShareable", "offers",
    ]
    static let types: [(String, ProductType)] = ProductType.allCases.map { ($0.rawValue, $0) }
    static let maxTitle = 200
    static let maxDescription = 4_000

    let languages: IdList
    let storefronts: [Storefront]
    let groups: Set<String>
    private let storefrontsById: [String: Storefront]
    private let storefrontIds: IdList
    /// Storefront ids whose entries were already reported as invalid; nil: every id (see NativeCatalogDecoder).
    let reportedStorefronts: Set<String>?
    /// The index of each product id's first definition.
    var firstSeen: [String: Int] = [:]
    private(set) var priceTables = PriceTables()
    /// Problems found while reading a product straight from the bytes, which then gives up (see
    /// `directProduct`); kept between products for its memo of parsed prices.
    var scratch = Validation()

    init(languages: IdList, storefronts: [Storefront], groups: [String], reportedStorefronts: Set<String>? = []) {
        self.languages = languages
        self.storefronts = storefronts
        self.groups = Set(groups)
        storefrontsById = Dictionary(storefronts.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        storefrontIds = IdList(storefronts.map(\.id))
        self.reportedStorefronts = reportedStorefronts
    }

    static let path = JSONPath.root.key("products")

    /// A decoder for another part of the same products, read at the same time on another thread:
    /// the same catalog, but price tables and ids of its own. Everything else is immutable or a
    /// value; a cache added here later must be replaced here too, or threads would share it.
    func forked() -> ProductsDecoder {
        var fork = self
        fork.priceTables = PriceTables()
        fork.firstSeen = [:]
        fork.scratch = Validation()
        return fork
    }

    mutating func read(_ value: JSONValue?, check: inout Validation) -> [Product] {
        guard let items = check.array(value, Self.path) else { return [] }
        if items.isEmpty { check.report(Self.path, "is empty; a catalog needs at least one product") }
        var products: [Product] = []
        products.reserveCapacity(items.count)
        firstSeen.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            if let product = element(item, index: index, check: &check) {
                products.append(product)
            }
        }
        return products
    }

    /// `products[index]`, read after the ones before it (ids are checked for duplicates in order).
    mutating func element(_ item: JSONValue, index: Int, check: inout Validation) -> Product? {
        product(item, Self.path.index(index), index: index, check: &check)
    }

    private mutating func product(_ value: JSONValue, _ path: JSONPath, index: Int, check: inout Validation) -> Product?
    {
        guard let object = check.object(value, path, allowed: Self.productKeys) else { return nil }
        let id = productId(object, path, index: index, check: &check)
        let type = check.choice(
            check.require(object, "type", path, "consumable, nonConsumable, autoRenewable or nonRenewing"),
            path.key("type"), "a product type", options: Self.types)
        let title = check.localized(
            check.require(object, "title", path, "the product's name in each language"),
            path.key("title"), languages: languages, maxLength: Self.maxTitle)
        let description = check.localized(
            check.require(object, "description", path, "the product's description in each language"),
            path.key("description"), languages: languages, maxLength: Self.maxDescription, multiline: true)
        let unavailable = storefrontList(object["unavailableIn"], path.key("unavailableIn"), check: &check)
        let removed = check.bool(object["removed"], path.key("removed")) ?? false
        let prices = priceTable(
            check.require(object, "prices", path, "a price for each storefront"), path.key("prices"),
            except: unavailable, check: &check)
        let wallet = walletGrant(object["wallet"], path.key("wallet"), type: type, check: &check)
        let subscription = subscriptionInfo(
            object["subscription"], path, type: type, unavailable: unavailable, check: &check)
        let shareable = familyShareable(
            object["familyShareable"], path.key("familyShareable"), type: type, check: &check)
        let offers = codeOfferList(object["offers"], path, type: type, unavailable: unavailable, check: &check)
        guard let id, let type, let title, let description, let prices, let offers else { return nil }
        if type.isSubscription && subscription == nil { return nil }
        return Product(
            id: id, type: type, title: title, description: description, prices: prices,
            unavailableIn: unavailable, removed: removed, wallet: wallet, subscription: subscription,
            familyShareable: shareable, codeOffers: offers)
    }

    /// Family Sharing, which the App Store offers for non-consumables and auto-renewable
    /// subscriptions only.
    func familyShareable(_ value: JSONValue?, _ path: JSONPath, type: ProductType?, check: inout Validation) -> Bool {
        guard let shareable = check.bool(value, path), shareable else { return false }
        if let type, type != .nonConsumable, type != .autoRenewable {
            check.report(
                path,
                "Family Sharing is for non-consumables and auto-renewable subscriptions, not \(type.rawValue) products")
            return false
        }
        return true
    }

    private mutating func productId(_ object: JSONObject, _ path: JSONPath, index: Int, check: inout Validation)
        -> String?
    {
        guard
            let id = check.string(
                check.require(object, "id", path, "the product identifier"), path.key("id"),
                maxLength: Product.maxIdLength)
        else { return nil }
        guard Self.isProductId(id) else {
            check.report(
                path.key("id"), "\(quoted(id)) is not a product identifier (letters, digits, '.', '_' and '-' only)")
            return nil
        }
        // One lookup: a duplicate puts the first definition back.
        if let first = firstSeen.updateValue(index, forKey: id) {
            firstSeen[id] = first
            check.report(path.key("id"), "duplicate product id \(quoted(id)) (first defined at products[\(first)])")
            return nil
        }
        return id
    }

    /// ASCII letters, digits, '.', '_' and '-', checked byte by byte.
    static func isProductId(_ id: String) -> Bool {
        let allowed = { (byte: UInt8) in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
        return id.utf8.withContiguousStorageIfAvailable { $0.allSatisfy(allowed) } ?? id.utf8.allSatisfy(allowed)
    }

    func storefrontList(_ value: JSONValue?, _ path: JSONPath, check: inout Validation) -> Set<String> {
        guard let items = check.array(value, path) else { return [] }
        var result = Set<String>()
        for (index, item) in items.enumerated() {
            guard let id = check.string(item, path.index(index), maxLength: 3) else { continue }
            if storefrontsById[id] != nil {
                result.insert(id)
            } else if !alreadyReported(storefront: id) {
                check.report(path.index(index), unknownStorefront(id))
            }
        }
        return result
    }

    /// Prices keyed by storefront: one for every storefront except `except`, and none for those.
    func priceTable(_ value: JSONValue?, _ path: JSONPath, except unavailable: Set<String>, check: inout Validation)
        -> [String: Decimal]?
    {
        if case .object(let written)? = value, let known = priceTables.table(written, except: unavailable) {
            return known
        }
        let problemsBefore = check.problems.count
        guard let object = check.object(value, path) else { return nil }
        var prices = [String: Decimal](minimumCapacity: object.members.count)
        var valid = true
        for member in object.members {
            guard let storefront = storefrontsById[member.key] else {
                if !alreadyReported(storefront: member.key) {
                    check.report(path.key(member.key), unknownStorefront(member.key))
                }
                valid = false
                continue
            }
            if unavailable.contains(storefront.id) {
                check.report(
                    path.key(member.key),
                    "has a price, but \(storefront.id) is listed in unavailableIn; remove one of them")
                valid = false
            } else if let price = check.price(member.value, path.key(member.key), currency: storefront.currency) {
                prices[storefront.id] = price
            } else {
                valid = false
            }
        }
        if let missing = storefrontIds.missing(from: object.keys, except: unavailable) {
            check.report(
                path,
                "no price for \(listed(missing.first, total: missing.count)); add one, or list the storefront in unavailableIn"
            )
            valid = false
        }
        guard valid else { return nil }
        if check.problems.count == problemsBefore { priceTables.remember(prices, for: object, except: unavailable) }
        return prices
    }

    func walletGrant(_ value: JSONValue?, _ path: JSONPath, type: ProductType?, check: inout Validation) -> WalletGrant?
    {
        guard let value else { return nil }
        if let type, type != .consumable {
            check.report(path, "only consumables credit a wallet balance; this product is \(type.rawValue)")
            return nil
        }
        guard let object = check.object(value, path, allowed: ["balance", "amount"]) else { return nil }
        let balance = check.string(
            check.require(object, "balance", path, "the balance it credits, e.g. \"gems\""), path.key("balance"),
            maxLength: 40)
        let amount = check.integer(
            check.require(object, "amount", path, "how much one unit credits"), path.key("amount"), in: 1...1_000_000)
        guard let balance, let amount else { return nil }
        return WalletGrant(balance: balance, amount: amount)
    }

    private func alreadyReported(storefront id: String) -> Bool {
        reportedStorefronts?.contains(id) ?? true
    }

    private func unknownStorefront(_ id: String) -> String {
        "unknown storefront \(quoted(id)) (the catalog's storefronts are \(storefrontIds.text))"
    }
}

/// Price tables already read, by what was written. A catalog writes the same few price points
/// (the App Store's tiers) over and over: a table written exactly like an earlier one that had no
/// problem, with the same storefronts unavailable, is that table again (prices are read the same
/// way every time), so it is neither read again nor stored again; the products share it.
final class PriceTables {
    static let limit = 4_096
    private var tables: [Written: [String: Decimal]] = [:]

    func table(_ object: JSONObject, except unavailable: Set<String>) -> [String: Decimal]? {
        tables.isEmpty ? nil : tables[Written(members: object.members, unavailable: unavailable)]
    }

    func remember(_ prices: [String: Decimal], for object: JSONObject, except unavailable: Set<String>) {
        if tables.count < Self.limit { tables[Written(members: object.members, unavailable: unavailable)] = prices }
    }

    /// The same, by the exact bytes a table was written with, for a reader that finds a table
    /// before parsing it (`ProductsDecoder.directProduct`). Equal bytes are equal JSON, so bytes
    /// found here need no checking either.
    private var bytesTables: [UInt64: [WrittenTable]] = [:]
    private var bytesTableCount = 0

    /// One way a table was written, and the prices it holds with each set of storefronts left out.
    final class WrittenTable {
        let bytes: [UInt8]
        fileprivate var readings: [(unavailable: Set<String>, prices: [String: Decimal])] = []

        fileprivate init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        func prices(except unavailable: Set<String>) -> [String: Decimal]? {
            readings.first { $0.unavailable == unavailable }?.prices
        }
    }

    /// The table at `start` (its `{`), if it is written exactly like one read before, found without
    /// going through it bracket by bracket to find its end: only the bytes up to the first `}`
    /// are compared. A table read before is a whole JSON object, so bytes equal to it end where
    /// it ends, whatever follows; a `}` inside one of its strings would make its first `}` come
    /// early, and then no table matches and the caller finds the end the slow way.
    func written(at start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> WrittenTable? {
        guard bytesTableCount > 0, start < bytes.count, bytes[start] == UInt8(ascii: "{"),
            let base = bytes.baseAddress,
            let close = memchr(base + start, Int32(UInt8(ascii: "}")), bytes.count - start)
        else { return nil }
        let end = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(close)) + 1
        return written(UnsafeBufferPointer(rebasing: bytes[start..<end]))
    }

    func table(written bytes: UnsafeBufferPointer<UInt8>, except unavailable: Set<String>) -> [String: Decimal]? {
        written(bytes)?.prices(except: unavailable)
    }

    func remember(
        _ prices: [String: Decimal], written bytes: UnsafeBufferPointer<UInt8>, except unavailable: Set<String>
    ) {
        guard bytesTableCount < Self.limit else { return }
        let table: WrittenTable
        if let known = written(bytes) {
            table = known
        } else {
            table = WrittenTable(bytes: Array(bytes))
            bytesTables[Self.hash(bytes), default: []].append(table)
        }
        table.readings.append((unavailable, prices))
        bytesTableCount += 1
    }

    private func written(_ bytes: UnsafeBufferPointer<UInt8>) -> WrittenTable? {
        bytesTables[Self.hash(bytes)]?.first { $0.bytes.withUnsafeBufferPointer { equal($0, bytes) } }
    }

    /// Eight bytes at a time, multiplied and rotated: a few instructions a word where `Hasher`
    /// spends several a byte, and every table is hashed. Its spread is that of a multiplicative
    /// hash, and the dictionary hashes the result again with its seed; two tables with the same
    /// hash only cost a comparison of their bytes.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let raw = UnsafeRawBufferPointer(bytes)
        var hash = UInt64(raw.count)
        var offset = 0
        func mix(_ word: UInt64) {
            let product = (hash ^ word) &* 0x9E37_79B9_7F4A_7C15
            hash = product << 27 | product >> 37
        }
        while offset + 8 <= raw.count {
            mix(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        var tail: UInt64 = 0
        for byte in raw[offset...].reversed() { tail = tail << 8 | UInt64(byte) }
        mix(tail)
        return hash
    }

    private func equal(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>) -> Bool {
        guard lhs.count == rhs.count, let left = lhs.baseAddress, let right = rhs.baseAddress else {
            return lhs.count == rhs.count
        }
        return memcmp(left, right, lhs.count) == 0
    }

    private struct Written: Hashable {
        let members: [(key: String, value: JSONValue)]
        let unavailable: Set<String>

        static func == (lhs: Written, rhs: Written) -> Bool {
            lhs.unavailable == rhs.unavailable
                && lhs.members.elementsEqual(rhs.members) { $0.key == $1.key && $0.value == $1.value }
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(unavailable)
            hasher.combine(members.count)
            for member in members {
                hasher.combine(member.key)
                switch member.value {
                case .string(let text), .number(let text): hasher.combine(text)
                default: hasher.combine(member.value.kindName)
                }
            }
        }
    }
}
