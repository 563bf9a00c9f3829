import CellGrid
import Foundation
import StoreKitModel
import Testing

/// The bad-catalog corpus in `Fixtures/bad-catalogs`: hand-made catalogs (`NAME.json`, `NAME.storekit`),
/// each a small valid catalog with one kind of mistake, and beside each `NAME.expected`, the exact
/// message `CatalogLoader.decode` must give for it with the file's name as the source.
///
/// `UPDATE_BAD_CATALOGS=1 swift test --filter BadCatalog` rewrites the `.expected` files from the
/// current messages; review the diff before committing it.
enum BadCatalogs {
    static let directory = Bundle.module.url(forResource: "Fixtures/bad-catalogs", withExtension: nil)!
    /// The checked-in directory, for UPDATE_BAD_CATALOGS.
    static let sourceDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/bad-catalogs")

    static let allFiles: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
        .sorted()
    /// The catalogs: every file but the `.expected` ones.
    static let names: [String] = allFiles.filter { !$0.hasSuffix(".expected") }

    static func expectedName(for name: String) -> String {
        (name as NSString).deletingPathExtension + ".expected"
    }

    /// Read with FileHandle, as CatalogLoader does: `Data(contentsOf:)` of an empty file leaks 4 KiB
    /// in swift-foundation 6.3 (its zero-size read path), which AddressSanitizer reports.
    static func bytes(_ name: String) throws -> [UInt8] {
        let handle = try FileHandle(forReadingFrom: directory.appendingPathComponent(name))
        defer { try? handle.close() }
        return [UInt8](try handle.readToEnd() ?? Data())
    }

    /// What decoding the catalog throws, or nil if it decodes.
    static func error(_ name: String) throws -> CatalogError? {
        catalogError(try bytes(name), source: name)
    }
}

@Test func badCatalogCorpusIsComplete() {
    let names = BadCatalogs.names
    #expect(names.count >= 60, "only \(names.count) bad catalogs")
    #expect(names.contains { $0.hasSuffix(".json") } && names.contains { $0.hasSuffix(".storekit") })
    // One .expected per catalog and no stray ones: two catalogs must not share a name before the extension.
    let expected = Set(names.map(BadCatalogs.expectedName(for:)))
    #expect(expected.count == names.count, "two catalogs share a name before the extension")
    #expect(Set(BadCatalogs.allFiles.filter { $0.hasSuffix(".expected") }) == expected)
}

/// Each bad catalog is refused with exactly the message in its `.expected` file.
@Test(arguments: BadCatalogs.names)
func badCatalogGivesItsExactMessage(_ name: String) throws {
    let error = try #require(try BadCatalogs.error(name), "\(name) decoded; it must be refused")
    let message = error.description
    let expectedName = BadCatalogs.expectedName(for: name)
    if ProcessInfo.processInfo.environment["UPDATE_BAD_CATALOGS"] == "1" {
        try (message + "\n").write(
            to: BadCatalogs.sourceDirectory.appendingPathComponent(expectedName), atomically: true, encoding: .utf8)
        return
    }
    let file = try String(contentsOf: BadCatalogs.directory.appendingPathComponent(expectedName), encoding: .utf8)
    let expected = file.hasSuffix("\n") ? String(file.dropLast()) : file
    #expect(message == expected, "\(name) gave:\n\(message)")
}

/// Every problem says where it is: a line and column for syntax and encoding, a JSON path such as
/// `products[1].prices.JPN` (or `top level`) for everything else; and the message shows it. Each is
/// one line of plain text: whatever bytes the file holds, none reaches the terminal raw.
@Test(arguments: BadCatalogs.names)
func everyBadCatalogProblemNamesALocation(_ name: String) throws {
    let error = try #require(try BadCatalogs.error(name), "\(name) decoded; it must be refused")
    #expect(!error.problems.isEmpty)
    for problem in error.problems {
        let isLineAndColumn = problem.path.wholeMatch(of: /line [1-9][0-9]*, column [1-9][0-9]*/) != nil
        let isJSONPath =
            problem.path == "top level"
            || problem.path.wholeMatch(
                of: /(?:[A-Za-z_][A-Za-z0-9_-]*|\[[^\n]+\])(?:\.[A-Za-z0-9_-]+|\[[0-9]+\]|\["[^\n]*\])*/) != nil
        #expect(isLineAndColumn || isJSONPath, "\(name): no location in \"\(problem)\"")
        #expect(
            TerminalText.isPrintable(problem.description),
            "\(name): a control, bidirectional or invisible character in \(problem.description.debugDescription)")
    }
    for problem in error.problems.prefix(CatalogError.shownLimit) {
        #expect(error.description.contains("\(problem.path): "), "\(name): the message does not show \(problem.path)")
    }
}
