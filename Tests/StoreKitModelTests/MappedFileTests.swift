import Foundation
import JSONReading
import SyntheticData
import Testing

@testable import StoreKitModel

/// A catalog file of `MappedFile.threshold` bytes or more is parsed in place from a mapping whose
/// pages are given back behind the parser. Its catalog and its messages must be exactly those of
/// the same bytes decoded from memory, including messages that point back into released pages.
@Suite struct MappedFileTests {
    static func write(_ bytes: [UInt8]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "storefront-mapped-\(UUID().uuidString).json"
        ).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func message(_ body: () async throws -> Catalog) async -> String {
        do {
            let catalog = try await body()
            return "ok \(catalog.products.count) \(catalog.products.last?.id ?? "")"
        } catch {
            return "\(error)"
        }
    }

    /// `from` replaced by `to` once, from the end (in the last product).
    static func editLast(_ bytes: [UInt8], _ from: String, _ to: String) throws -> [UInt8] {
        let text = String(decoding: bytes, as: UTF8.self)
        let range = try #require(text.range(of: from, options: .backwards))
        return Array(text.replacingCharacters(in: range, with: to).utf8)
    }

    /// Mapped with no threshold and pages given back after every one: each message must be the one
    /// the same bytes give from memory, even when it points back into pages already given back.
    @Test(arguments: [
        "valid", "bad price at the end", "duplicate id at the end", "syntax error at the end", "first product bad",
        "header after the products",
    ])
    func aMappedFileGivesTheSameCatalogAndMessages(_ variant: String) async throws {
        var bytes = SyntheticCatalog.generate(count: 300, seed: 5)
        let text = String(decoding: bytes, as: UTF8.self)
        switch variant {
        case "bad price at the end": bytes = try Self.editLast(bytes, "\"USA\": \"", "\"USA\": \"-")
        case "duplicate id at the end":
            let first = try #require(text.firstMatch(of: /"id": "(com\.example\.synthetic\.[^"]+)"/)?.1)
            bytes = try Self.editLast(bytes, "\"id\": \"com.example.synthetic.", "\"id\": \"\(first)\", \"x\": \"")
        case "syntax error at the end": bytes = try Self.editLast(bytes, "}", "},")
        case "first product bad":
            bytes = Array(text.replacingOccurrences(of: "\"type\": \"consumable\"", with: "\"type\": \"soup\"").utf8)
        case "header after the products": bytes = try Self.editLast(bytes, "}", ", \"languages\": [\"en\"]}")
        default: break
        }
        let path = try Self.write(bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let mapped = try #require(try CatalogLoader.mapIfLarge(path, threshold: 0, releaseStep: 1))
        let fromMemory = await Self.message { try CatalogLoader.decode(bytes, source: path) }
        let fromMapping = await Self.message {
            try withExtendedLifetime(mapped) { try CatalogLoader.decode(mapped.bytes, source: path, mapped: mapped) }
        }
        #expect(fromMapping == fromMemory)
        #expect(
            variant == "valid" ? fromMapping.hasPrefix("ok 3") : !fromMapping.hasPrefix("ok "),
            "\(fromMapping.prefix(300))")
    }

    /// `load(from:)` maps a file from the threshold up (here a small catalog and 16 MiB of spaces).
    @Test func loadMapsALargeFileAndReadsASmallOne() async throws {
        let catalog = SyntheticCatalog.generate(count: 20, seed: 5)
        let large = try Self.write(catalog + [UInt8](repeating: 0x20, count: MappedFile.threshold))
        let small = try Self.write(catalog)
        defer {
            try? FileManager.default.removeItem(atPath: large)
            try? FileManager.default.removeItem(atPath: small)
        }
        #expect(try CatalogLoader.mapIfLarge(large) != nil)
        #expect(try CatalogLoader.mapIfLarge(small) == nil)
        #expect(
            try await CatalogLoader.load(from: large, fetcher: nil).products.count
                == CatalogLoader.load(from: small, fetcher: nil).products.count)
        #expect(try CatalogLoader.mapIfLarge("/nonexistent/catalog.json") == nil)
        #expect(try CatalogLoader.mapIfLarge("/tmp") == nil)
    }
}

/// Files under the mapping threshold are read straight into memory: whole, from a pipe in steps,
/// and with a message that says what to do when the path is wrong.
@Suite struct ReadFileTests {
    @Test func aFileIsReadWhole() async throws {
        let bytes = SyntheticCatalog.generate(count: 50, seed: 2)
        let path = try MappedFileTests.write(bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try CatalogLoader.readFile(path) == bytes)
        #expect(try await CatalogLoader.load(from: path, fetcher: nil) == CatalogLoader.decode(bytes, source: path))
    }

    /// A pipe has no size: it is read in steps (more than one here) until the writer closes it.
    @Test func aPipeIsReadToItsEnd() async throws {
        let bytes = SyntheticCatalog.generate(count: 2_000, seed: 2)
        #expect(bytes.count > 1 << 20)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("storefront-fifo-\(UUID().uuidString)")
            .path
        #expect(mkfifo(path, 0o600) == 0)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = Thread {
            guard let handle = FileHandle(forWritingAtPath: path) else { return }
            handle.write(Data(bytes))
            try? handle.close()
        }
        writer.start()
        #expect(try CatalogLoader.readFile(path) == bytes)
    }

    @Test func aWrongPathSaysWhatToPass() throws {
        let missing = "/nonexistent-\(UUID().uuidString)/products.json"
        #expect(
            Self.message(missing)
                == "\(missing): no such file; pass --catalog with the path of a products.json or .storekit file")
        let directory = FileManager.default.temporaryDirectory.path
        #expect(
            Self.message(directory)
                == "\(directory): is a directory; pass the catalog file itself (e.g. \(directory)/products.json)")
    }

    static func message(_ path: String) -> String {
        do {
            return "read \(try CatalogLoader.readFile(path).count) bytes"
        } catch {
            return error.description
        }
    }
}
