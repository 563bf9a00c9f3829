import Foundation
import TestSupport
import Testing

@Suite struct CatalogGenerateTests {
    @Test func sameSeedGivesTheSameBytes() throws {
        let first = try Executable.run(["catalog", "generate", "--count", "300", "--seed", "7"])
        let second = try Executable.run(["catalog", "generate", "--count", "300", "--seed", "7"])
        #expect(first.status == 0, "stderr: \(first.stderr)")
        #expect(!first.stdout.isEmpty && first.stdout == second.stdout)
        let other = try Executable.run(["catalog", "generate", "--count", "300", "--seed", "8"])
        #expect(other.status == 0 && !other.stdout.isEmpty && other.stdout != first.stdout, "stderr: \(other.stderr)")
    }

    @Test func generatedCatalogLoads() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "storefront-generate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("catalog.json").path
        let generate = try Executable.run(["catalog", "generate", "--count", "500", "--output", file])
        #expect(generate.status == 0, "stderr: \(generate.stderr)")
        #expect(generate.stdout.isEmpty)

        let products = try Executable.run(["products", "--catalog", file, "--storefront", "JPN", "--json"])
        #expect(products.status == 0, "stderr: \(products.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(products.stdout.utf8)) as? [String: Any])
        let items = try #require(object["products"] as? [[String: Any]])
        let invalid = try #require(object["invalidProductIdentifiers"] as? [String])
        #expect(items.count + invalid.count == 500)
        #expect(items.allSatisfy { ($0["displayPrice"] as? String)?.hasPrefix("¥") == true })

        let counts = try Executable.run(["products", "--catalog", file, "--count-only"])
        #expect(counts.status == 0)
        #expect(
            counts.stdout
                == "USA: \(try productsSold(file, in: "USA")) products, \(500 - (try productsSold(file, in: "USA"))) invalid identifiers (\(try notSold(file, in: "USA")) not sold in USA)\n"
        )
    }

    @Test func countOutOfRangeIsAUsageError() throws {
        let result = try Executable.run(["catalog", "generate", "--count", "0"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--count"))
    }

    /// Counts read independently of the code under test.
    private func products(_ file: String) throws -> [[String: Any]] {
        let root = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any])
        return root["products"] as? [[String: Any]] ?? []
    }

    private func productsSold(_ file: String, in storefront: String) throws -> Int {
        try products(file).filter {
            ($0["removed"] as? Bool) != true && !(($0["unavailableIn"] as? [String]) ?? []).contains(storefront)
        }.count
    }

    private func notSold(_ file: String, in storefront: String) throws -> Int {
        try products(file).filter {
            ($0["removed"] as? Bool) != true && (($0["unavailableIn"] as? [String]) ?? []).contains(storefront)
        }.count
    }
}
