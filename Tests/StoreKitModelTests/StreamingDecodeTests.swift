import Foundation
import StoreKitModel
import SyntheticData
import Testing

/// A native catalog's products are read while the file is parsed when `format` comes before
/// `products`, and from the whole tree otherwise (or when the languages, storefronts or groups
/// come after the products). Every key order must give the same catalog and the same problems.
@Suite struct StreamingDecodeTests {
    /// A fresh copy each time: `[String: Any]` is not Sendable, so it cannot be a shared constant.
    static var base: [String: Any] {
        let bytes = SyntheticCatalog.generate(count: 120, seed: 3)
        return (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] ?? [:]
    }

    static let keys = [
        "format", "version", "bundleId", "languages", "defaultStorefront", "storefronts", "accounts",
        "subscriptionGroups", "products",
    ]

    /// The catalog written with its top-level keys in `order` (JSONSerialization does not keep order).
    static func write(_ catalog: [String: Any], order: [String]) throws -> [UInt8] {
        var text = "{"
        for (offset, key) in order.enumerated() where catalog[key] != nil {
            let value = try JSONSerialization.data(withJSONObject: catalog[key] as Any, options: [.fragmentsAllowed])
            text += (offset == 0 ? "" : ",\n") + "\"\(key)\": " + String(decoding: value, as: UTF8.self)
        }
        return Array((text + "}").utf8)
    }

    static let orders: [[String]] = [
        keys,  // streamed
        ["products"] + keys.dropLast(),  // products first: the whole tree
        keys.filter { $0 != "languages" } + ["languages"],  // streamed, then read again from the tree
        keys.filter { $0 != "storefronts" } + ["storefronts"],
        keys.filter { $0 != "subscriptionGroups" } + ["subscriptionGroups"],
        keys.filter { $0 != "format" } + ["format"],
    ]

    static func summary(_ catalog: Catalog) -> [String] {
        catalog.products.map { product in
            let prices = product.prices.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.exactString)" }.joined(
                separator: ",")
            return
                "\(product.id) \(product.type) \(product.title.values.sorted { $0.key < $1.key }) \(prices) \(product.subscription.map { "\($0.group ?? "-") \($0.period)" } ?? "")"
        }
    }

    @Test func everyKeyOrderGivesTheSameCatalog() throws {
        let base = Self.base
        let expected = Self.summary(
            try CatalogLoader.decode(try Self.write(base, order: Self.orders[0]), source: "c.json"))
        #expect(expected.count == 120)
        for order in Self.orders.dropFirst() {
            let catalog = try CatalogLoader.decode(try Self.write(base, order: order), source: "c.json")
            #expect(Self.summary(catalog) == expected, "order \(order)")
        }
    }

    @Test func everyKeyOrderGivesTheSameProblems() throws {
        var bad = Self.base
        var products = bad["products"] as? [[String: Any]] ?? []
        var prices = products[4]["prices"] as? [String: Any] ?? [:]
        prices["JPN"] = "1,60"
        products[4]["prices"] = prices
        products[9]["id"] = products[2]["id"]
        products[11]["type"] = "subscription"
        products[12]["prices"] = prices  // the same table again: reported again
        bad["products"] = products
        bad["languages"] = ["en", "en", "zh-Hans"]
        bad["extra"] = true
        var reference: [CatalogProblem]?
        for order in Self.orders {
            let error = try #require(catalogError(try Self.write(bad, order: order + ["extra"])))
            if let reference {
                #expect(error.problems == reference, "order \(order)")
            } else {
                reference = error.problems
                #expect(error.problem(at: "products[4].prices.JPN") != nil)
                #expect(error.problem(at: "products[12].prices.JPN") != nil)
                #expect(error.problem(at: "products[9].id") != nil)
                #expect(error.problem(at: "languages[1]") != nil)
                #expect(error.problem(at: "extra") != nil)
            }
        }
    }

    @Test func productsOfTheSamePricePointAreEqual() throws {
        let catalog = try CatalogLoader.decode(SyntheticCatalog.generate(count: 300, seed: 4), source: "c.json")
        let byUSPrice = Dictionary(
            grouping: catalog.products.filter { $0.unavailableIn.isEmpty }, by: { $0.prices["USA"] })
        for (_, group) in byUSPrice {
            for product in group { #expect(product.prices == group[0].prices) }
        }
    }
}
