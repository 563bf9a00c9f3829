import Foundation
import JSONReading
import SyntheticData
import Testing

@testable import StoreKitModel

/// A large products array is read in parts on several cores (`ParallelProducts`) only when every
/// part reads whole; any other case must come out exactly as reading the products one by one.
@Suite struct ParallelProductsTests {
    /// 2,000 products: about 1.6 MB, over the size from which parts are read at once.
    static let bytes = SyntheticCatalog.generate(count: 2_000, seed: 11)

    /// The catalog's products read by a stream that may use `cores` parts, and whether it did.
    static func stream(_ bytes: [UInt8], cores: Int) throws -> (products: [String], inParts: Bool) {
        let stream = NativeProductStream(cores: cores)
        _ = try bytes.withUnsafeBufferPointer { try JSONParser.parse($0, streaming: "products", to: stream) }
        var check = Validation()
        return (stream.take(.array([]), check: &check).products.map(\.id), stream.readInParts)
    }

    @Test(arguments: [2, 3, 8])
    func aValidCatalogIsReadInPartsAsTheSameCatalog(cores: Int) throws {
        #expect(Self.bytes.count > ParallelProducts.minimumBytes)
        let (ids, inParts) = try Self.stream(Self.bytes, cores: cores)
        #expect(inParts)
        #expect(ids.count == 2_000)
        let catalog = try CatalogLoader.decode(Self.bytes, source: "c.json", reading: .tree)
        #expect(ids == catalog.products.map(\.id))
        // The index built from the parts finds every product at its place.
        let direct = try CatalogLoader.decode(Self.bytes, source: "c.json")
        #expect(direct == catalog)
        for (position, product) in direct.products.enumerated() where position % 97 == 0 {
            #expect(direct.product(id: product.id) == product)
        }
    }

    @Test func oneCoreReadsOneByOne() throws {
        #expect(try Self.stream(Self.bytes, cores: 1).inParts == false)
        #expect(try Self.stream(SyntheticCatalog.generate(count: 100, seed: 1), cores: 4).inParts == false)
    }

    /// `text` with `from` replaced by `to` at its `occurrence`-th appearance (counted from 1).
    static func replacing(_ text: String, _ from: String, _ to: String, occurrence: Int) throws -> [UInt8] {
        var range = text.startIndex..<text.startIndex
        for _ in 0..<occurrence {
            range = try #require(text.range(of: from, range: range.upperBound..<text.endIndex))
        }
        return Array(text.replacingCharacters(in: range, with: to).utf8)
    }

    /// The text with the id of product `target` (counted from 0) replaced by that of product `source`.
    static func sameId(_ text: String, as source: Int, at target: Int) throws -> [UInt8] {
        let ids = text.matches(of: /"id": "(com\.example\.synthetic\.[^"]+)"/)
        let range = ids[target].range
        return Array(text.replacingCharacters(in: range, with: "\"id\": \"\(ids[source].1)\"").utf8)
    }

    /// Broken late in the array, a repeated id across parts, a header after the products, and
    /// text inside strings that looks like the boundary between elements: each is read as the tree
    /// reads it, with the same catalog or the same problems.
    @Test(arguments: [
        "bad price late", "id repeated across parts", "header after the products", "boundaries inside strings",
        "trailing comma",
    ])
    func anythingElseIsReadOneByOne(_ variant: String) throws {
        let text = String(decoding: Self.bytes, as: UTF8.self)
        let bytes: [UInt8] =
            switch variant {
            case "bad price late": try Self.replacing(text, "\"USA\": \"", "\"USA\": \"1,", occurrence: 1_900)
            case "id repeated across parts":
                // Product 1,800 takes the id of product 10: a duplicate that only joining the parts finds.
                try Self.sameId(text, as: 10, at: 1_800)
            case "header after the products":
                // Compact (`},{` between elements), with the accounts, an array of objects too, after the products.
                try StreamingDecodeTests.write(
                    try #require(try JSONSerialization.jsonObject(with: Data(Self.bytes)) as? [String: Any]),
                    order: StreamingDecodeTests.keys.filter { $0 != "accounts" } + ["accounts"])
            case "boundaries inside strings":
                Array(text.replacingOccurrences(of: "\"en\": \"", with: "\"en\": \"} ,{").utf8)
            default: Array((String(text.dropLast(7)) + ",\n  ]\n}\n").utf8)
            }
        let direct = DirectProductTests.expectSameOutcome(bytes, variant)
        switch variant {
        case "header after the products", "boundaries inside strings":
            guard case .catalog(let catalog) = direct else {
                Issue.record("\(variant): \(direct)")
                return
            }
            #expect(catalog.products.count == 2_000)
        default:
            guard case .problems(let problems) = direct else {
                Issue.record("\(variant): no problem")
                return
            }
            #expect(!problems.isEmpty)
        }
    }
}
