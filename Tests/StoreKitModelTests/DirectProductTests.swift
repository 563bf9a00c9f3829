import Foundation
import JSONReading
import SyntheticData
import Testing

@testable import StoreKitModel

/// Products read straight from the bytes (`ProductsDecoder.directProduct`) must give exactly what
/// the reading through a tree gives: the same catalog, or the same problems, for valid products in
/// any key order and for every kind of broken one.
@Suite struct DirectProductTests {
    /// The outcome of decoding `bytes` one way, in a form that compares whole.
    enum Outcome: Equatable, CustomTestStringConvertible {
        case catalog(Catalog)
        case problems([CatalogProblem])

        /// Short, for a failure message: the first product that differs is named by `difference`.
        var testDescription: String {
            switch self {
            case .catalog(let catalog): "a catalog of \(catalog.products.count) products"
            case .problems(let problems): problems.map(\.description).joined(separator: "; ")
            }
        }

        /// What first differs between two outcomes.
        func difference(from other: Outcome) -> String {
            guard case .catalog(let mine) = self, case .catalog(let theirs) = other else { return "" }
            guard
                let index = mine.products.indices.first(where: {
                    $0 >= theirs.products.count || mine.products[$0] != theirs.products[$0]
                })
            else { return "the header differs" }
            return "products[\(index)]: \(mine.products[index]) against \(theirs.products[index])"
        }
    }

    /// Expects both readings of `bytes` to give the same outcome; returns the direct one.
    @discardableResult
    static func expectSameOutcome(
        _ bytes: [UInt8], _ context: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> Outcome {
        let (direct, tree) = (outcome(bytes, .direct), outcome(bytes, .tree))
        #expect(direct == tree, "\(context) \(direct.difference(from: tree))", sourceLocation: sourceLocation)
        return direct
    }

    static func outcome(_ bytes: [UInt8], _ reading: CatalogLoader.ProductReading) -> Outcome {
        do {
            return .catalog(try CatalogLoader.decode(bytes, source: "c.json", reading: reading))
        } catch {
            return .problems(error.problems)
        }
    }

    /// How many products of `bytes` the direct reading accepted (the rest went through a tree).
    static func directlyRead(_ bytes: [UInt8]) throws -> Int {
        let stream = NativeProductStream()
        _ = try bytes.withUnsafeBufferPointer { try JSONParser.parse($0, streaming: "products", to: stream) }
        return stream.directCount
    }

    static func catalog(count: Int, seed: UInt64) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(SyntheticCatalog.generate(count: count, seed: seed))))
            as? [String: Any] ?? [:]
    }

    /// The catalog written with the header first (so products stream): the header's text, and each
    /// product's with its keys in the order `order` gives.
    static func texts(_ catalog: [String: Any], order: ([String]) -> [String] = { $0.sorted() }) throws -> (
        header: String, products: [String]
    ) {
        let json = { (value: Any) throws in
            String(
                decoding: try JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed]), as: UTF8.self
            )
        }
        var header = "{"
        for key in StreamingDecodeTests.keys where key != "products" {
            guard let value = catalog[key] else { continue }
            header += "\"\(key)\": " + (try json(value)) + ",\n"
        }
        let products = try (catalog["products"] as? [[String: Any]] ?? []).map { product in
            "{"
                + (try order(Array(product.keys)).map { "\"\($0)\": " + (try json(product[$0] as Any)) }.joined(
                    separator: ", ")) + "}"
        }
        return (header, products)
    }

    static func assemble(_ texts: (header: String, products: [String])) -> [UInt8] {
        Array((texts.header + "\"products\": [\n" + texts.products.joined(separator: ",\n") + "]}").utf8)
    }

    @Test func validCatalogsAreReadDirectlyAndGiveTheSameCatalog() throws {
        for seed: UInt64 in [1, 2, 3] {
            let bytes = SyntheticCatalog.generate(count: 400, seed: seed)
            let direct = Self.expectSameOutcome(bytes, "seed \(seed)")
            guard case .catalog(let catalog) = direct else {
                Issue.record("seed \(seed): \(direct)")
                continue
            }
            #expect(catalog.products.count == 400)
            #expect(try Self.directlyRead(bytes) == 400, "every valid product is read directly")
        }
    }

    @Test func everyKeyOrderIsReadDirectly() throws {
        let base = Self.catalog(count: 60, seed: 5)
        var random = SplitMix64(state: 5)
        let orders: [([String]) -> [String]] = [
            { $0.sorted() }, { $0.sorted().reversed() }, { $0.shuffled(using: &random) },
        ]
        for (number, order) in orders.enumerated() {
            let bytes = Self.assemble(try Self.texts(base, order: order))
            #expect(try Self.directlyRead(bytes) == 60, "order \(number)")
            Self.expectSameOutcome(bytes, "order \(number)")
        }
    }

    /// Text a product may be written with that is still valid: escapes, numbers for prices, spaces.
    @Test func equivalentSpellingsGiveTheSameProducts() throws {
        let texts = try Self.texts(Self.catalog(count: 20, seed: 6))
        let edits: [(String, String)] = [
            ("\"en\":\"", "\"en\":\"\\u00c9t\\u00e9 \\\"quoted\\\" \\\\ \\/ "),  // escapes in a title
            ("\"USA\":\"", "\"U\\u0053A\":\""),  // an escaped key
            ("\":\"0.99\"", "\":0.99"),  // a price as a number
            (", \"", " ,\n\t \""),  // whitespace between members
            ("\"description\": {", "\"description\": {\"fr\": \"Texte\", "),  // a language the catalog does not list
            ("\"en\":\"", "\"en\":\"👨‍👩‍👧 💎\\u200D💎 "),  // joiners in emoji, one escaped in the JSON
        ]
        for (find, replace) in edits {
            let bytes = Self.assemble(
                (texts.header, texts.products.map { $0.replacingOccurrences(of: find, with: replace) }))
            let direct = Self.expectSameOutcome(bytes, replace)
            if case .problems(let problems) = direct { Issue.record("\(replace): \(problems)") }
        }
    }

    /// Broken products, one kind of mistake at a time and then random bytes: the direct reading
    /// gives up on each, and the problems are exactly the tree's.
    @Test func brokenProductsGiveTheSameProblems() throws {
        let texts = try Self.texts(Self.catalog(count: 30, seed: 7))
        var random = SplitMix64(state: 7)
        for round in 0..<300 {
            let target = Int.random(in: 0..<30, using: &random)
            let mutation = Self.mutations[round % Self.mutations.count]
            var products = texts.products
            products[target] = mutation(products[target], &random)
            let bytes = Self.assemble((texts.header, products))
            Self.expectSameOutcome(bytes, "round \(round), mutation \(round % Self.mutations.count)")
        }
    }

    static let tokens = [
        "\"", ",", ":", "{", "}", "[", "]", "\\", "\\u", "\u{0}", "\n", "1e3", "-", "null", "true", "\"id\": \"x\", ",
        "\"type\": \"consumable\", ", "\"prices\": {}, ", "\"extra\": 1, ", "\u{7F}", "é", "\u{1}",
    ]

    static let mutations: [@Sendable (String, inout SplitMix64) -> String] = [
        { text, random in  // a byte removed
            var bytes = Array(text.utf8)
            bytes.remove(at: Int.random(in: 0..<bytes.count, using: &random))
            return String(decoding: bytes, as: UTF8.self)
        },
        { text, random in  // a token inserted
            var scalars = Array(text.unicodeScalars)
            scalars.insert(
                contentsOf: tokens.randomElement(using: &random)!.unicodeScalars,
                at: Int.random(in: 1..<scalars.count, using: &random))
            return String(String.UnicodeScalarView(scalars))
        },
        { text, _ in text.replacingOccurrences(of: "\"USA\":\"", with: "\"USA\":\"1,") },
        { text, _ in text.replacingOccurrences(of: "\"JPN\":", with: "\"XYZ\":") },
        { text, _ in text.replacingOccurrences(of: "\"JPN\":\"", with: "\"USA\":\"") },
        { text, _ in text.replacingOccurrences(of: "\"zh-Hans\":", with: "\"zh-Hant\":") },
        { text, _ in text.replacingOccurrences(of: "\"en\":\"", with: "\"en\":\"\\n") },
        { text, _ in text.replacingOccurrences(of: "\"en\":\"", with: "\"en\":\"\u{202E}") },
        { text, _ in text.replacingOccurrences(of: "\"zh-Hans\":\"", with: "\"zh-Hans\":\"\\u200b") },
        { text, _ in text.replacingOccurrences(of: "\"en\":\"", with: "\"en\":\"x\u{200D}") },
        { text, _ in text.replacingOccurrences(of: "\"en\":\"", with: "\"en\":\" \",\"en2\":\"") },
        { text, _ in text.replacingOccurrences(of: "\"title\": {", with: "\"title\": {\"en\": \"Twice\", ") },
        // Another product's id, maybe.
        { text, _ in "{\"id\": \"com.example.synthetic.consumable.gem-pack.1\", " + text.dropFirst() },
        { text, _ in "{\"id\": \"bad id!\", " + text.dropFirst() },
        { text, _ in "{\"removed\": \"yes\", " + text.dropFirst() },
        { text, _ in "{\"removed\": true, " + text.dropFirst() },
        { text, _ in "{\"unavailableIn\": [\"JPN\"], " + text.dropFirst() },
        { text, _ in "{\"unavailableIn\": [\"XYZ\", 3], " + text.dropFirst() },
        { text, _ in "{\"wallet\": {\"balance\": \"gems\", \"amount\": 0}, " + text.dropFirst() },
        { text, _ in "{\"subscription\": {\"period\": \"P1M\"}, " + text.dropFirst() },
        { text, _ in text.replacingOccurrences(of: "\"rank\":", with: "\"rank\":10") },
        { text, _ in text.replacingOccurrences(of: "\"group\":\"", with: "\"group\":\"x") },
        { text, _ in text.replacingOccurrences(of: "\"type\": \"", with: "\"type\": \"x") },
        { text, _ in text.replacingOccurrences(of: "\"period\":\"P", with: "\"period\":\"Q") },
        { text, _ in text.replacingOccurrences(of: "}", with: "},", options: [], range: text.range(of: "}")) },
        { text, _ in text.replacingOccurrences(of: "\"description\": ", with: "\"description\": [") },
        { text, _ in String(text.dropLast()) },
        { _, _ in "{}" },
        { _, _ in "[]" },
        { _, _ in "\"product\"" },
    ]
}
