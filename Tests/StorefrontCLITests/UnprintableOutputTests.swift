import Foundation
import TestSupport
import Testing

/// Whatever a store holds reaches the terminal as visible text: a product id carrying an escape
/// sequence (an OSC 52 clipboard write, then "erase the line" and a forged "OK"), a C1 control
/// or a right-to-left override is printed escaped, and exact in `--json`.
@Suite(.serialized) struct UnprintableOutputTests {
    static let clipboard = "\u{1B}]52;c;SGVsbG8=\u{7}\u{1B}[2KOK"
    static let shownClipboard = #"\u{1B}]52;c;SGVsbG8=\u{7}\u{1B}[2KOK"#
    static let reversed = "com.example.\u{9B}2J\u{202E}sqeg\u{200B}"
    static let shownReversed = #"com.example.\u{9B}2J\u{202E}sqeg\u{200B}"#

    /// The scalars a terminal acts on or hides, listed here independently of the code under test:
    /// controls but the line feeds ending lines, DEL, C1, bidirectional controls and invisible
    /// format characters.
    static func raw(_ text: String) -> [String] {
        text.unicodeScalars.filter { scalar in
            switch scalar.value {
            case 0x0A: false
            case 0x00..<0x20, 0x7F...0x9F, 0x061C, 0x200B...0x200F, 0x202A...0x202E, 0x2060...0x2064, 0x2066...0x2069,
                0xFEFF:
                true
            default: false
            }
        }.map { "U+" + String($0.value, radix: 16, uppercase: true) }
    }

    /// A server whose store holds a failed payment for alice of each planted product id. They are
    /// written through the store engine, as any stored value would be, whatever the HTTP routes
    /// accept.
    static func plantedServer(_ root: URL) async throws -> ServeProcess {
        let db = root.appendingPathComponent("server")
        do {
            let fixture = try StoreFixture(directory: db)
            for id in [clipboard, reversed] { _ = try await fixture.buy(id) }
        }
        return try ServeProcess.start(db: db)
    }

    func client(_ arguments: [String], server: ServeProcess, state: URL) throws -> Executable.Result {
        try Executable.run(
            arguments + ["--account", "alice", "--state", state.path], environment: ["STOREFRONT_STORE": server.baseURL]
        )
    }

    @Test func transactionsShowAPlantedProductIdEscaped() async throws {
        let root = scratchDirectory("storefront-unprintable")
        let server = try await Self.plantedServer(root)
        defer { server.stop() }
        let listed = try client(["transactions"], server: server, state: root.appendingPathComponent("device"))
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(Self.raw(listed.stdout + listed.stderr).isEmpty, "raw: \(Self.raw(listed.stdout + listed.stderr))")
        #expect(listed.stdout.contains(Self.shownClipboard), "\(listed.stdout.debugDescription)")
        #expect(listed.stdout.contains(Self.shownReversed), "\(listed.stdout.debugDescription)")
        #expect(
            listed.stdout.split(separator: "\n").count == 3,
            "a heading and one line per transaction: \(listed.stdout.debugDescription)")
    }

    @Test func transactionsJSONKeepsThePlantedProductIdExactly() async throws {
        let root = scratchDirectory("storefront-unprintable")
        let server = try await Self.plantedServer(root)
        defer { server.stop() }
        let listed = try client(
            ["transactions", "--json"], server: server, state: root.appendingPathComponent("device"))
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(Self.raw(listed.stdout).isEmpty, "raw: \(Self.raw(listed.stdout))")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any])
        let history = try #require(object["history"] as? [[String: Any]])
        #expect(Set(history.compactMap { $0["productId"] as? String }) == [Self.clipboard, Self.reversed])
    }

    /// `buy` first prints what the queue still holds: the planted, failed payments.
    @Test func buyShowsPlantedUnfinishedTransactionsEscaped() async throws {
        let root = scratchDirectory("storefront-unprintable")
        let server = try await Self.plantedServer(root)
        defer { server.stop() }
        let bought = try client(["buy", ProductID.gems], server: server, state: root.appendingPathComponent("device"))
        #expect(bought.status == 0, "\(bought.stderr)")
        #expect(Self.raw(bought.stdout + bought.stderr).isEmpty, "raw: \(Self.raw(bought.stdout + bought.stderr))")
        #expect(bought.stdout.contains(Self.shownClipboard), "\(bought.stdout.debugDescription)")
        #expect(bought.stdout.contains(Self.shownReversed), "\(bought.stdout.debugDescription)")
        #expect(bought.stdout.contains("result: purchased"))
    }

    @Test func buyJSONLinesKeepThePlantedProductIdExactly() async throws {
        let root = scratchDirectory("storefront-unprintable")
        let server = try await Self.plantedServer(root)
        defer { server.stop() }
        let bought = try client(
            ["buy", ProductID.gems, "--json"], server: server, state: root.appendingPathComponent("device"))
        #expect(bought.status == 0, "\(bought.stderr)")
        #expect(Self.raw(bought.stdout).isEmpty, "raw: \(Self.raw(bought.stdout))")
        let lines = try bought.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not JSON: \(line)")
        }
        let planted = Set(lines.compactMap { $0["productId"] as? String }.filter { $0 != ProductID.gems })
        #expect(planted == [Self.clipboard, Self.reversed])
    }

    /// An error message that repeats what it was given is escaped too.
    @Test func anErrorRepeatingAnIdIsEscaped() async throws {
        let root = scratchDirectory("storefront-unprintable")
        let server = try await Self.plantedServer(root)
        defer { server.stop() }
        let finished = try client(
            ["finish", "1\u{1B}[2J\u{202E}"], server: server, state: root.appendingPathComponent("device"))
        #expect(finished.status == 1)
        #expect(
            Self.raw(finished.stdout + finished.stderr).isEmpty, "raw: \(Self.raw(finished.stdout + finished.stderr))")
        #expect(finished.stderr.hasPrefix("storefront: "), "\(finished.stderr.debugDescription)")
    }

    /// ICU's right-to-left marks around a Saudi price are ours, not data: the table shows the
    /// price without them (and without escapes), as the terminal UI does.
    @Test func arabicPricesInTheTableCarryNoMarksAndNoEscapes() throws {
        let table = try Executable.run(["products", "--storefront", "SAU"])
        #expect(table.status == 0, "\(table.stderr)")
        #expect(Self.raw(table.stdout).isEmpty, "raw: \(Self.raw(table.stdout))")
        #expect(!table.stdout.contains("\\u{"), "\(table.stdout)")
        #expect(table.stdout.contains("٣٫٩٩\u{A0}ر.س."), "\(table.stdout)")
    }

    /// A title with a right-to-left override would move the price column: the catalog is refused,
    /// with the title's location.
    @Test func aCatalogTitleWithARightToLeftOverrideIsRefused() throws {
        let catalog = Executable.repositoryRoot.appendingPathComponent(
            "Tests/StoreKitModelTests/Fixtures/bad-catalogs/l10n-title-with-rtl-override.json")
        let products = try Executable.run(["products", "--catalog", catalog.path])
        #expect(products.status == 1)
        #expect(products.stdout.isEmpty)
        #expect(
            products.stderr.contains(
                #"products[1].title.en: "Season Pass \u{202E}99.9$" contains a right-to-left override (U+202E)"#),
            "\(products.stderr)")
        #expect(Self.raw(products.stderr).isEmpty, "raw: \(Self.raw(products.stderr))")
    }
}
