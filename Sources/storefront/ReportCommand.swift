import ArgumentParser
import Crypto
import Foundation
import StoreCore
import StoreKitModel
import StorefrontRuntime

/// `storefront report`: one archive for a bug tracker, with what a developer needs to see the
/// problem: the screens saved, every account's transactions, the test controls, which catalog and
/// which tool.
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract:
            "Bundle the screens, the transaction log, the test controls, the catalog and the tool's version into one .tar.gz.",
        discussion: """
            The archive holds README.txt (the tool's version, the catalog's file, SHA-256, bundle id and
            size, the store, the date), controls.txt (every test control as `manage set` takes it),
            transactions.json (every account's transactions), screens/ (what Ctrl+S saved: the state
            directory's screens/, or --screens) and any --include files (recordings, tapes).
            """
    )

    @OptionGroup var options: StoreOptions

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The archive to write. Default: storefront-report-<date>.tar.gz here.", valueName: "file.tar.gz"))
    var output: String?

    @Option(
        name: .long,
        help: ArgumentHelp("Where the screens are, when not the state directory's screens/.", valueName: "dir"))
    var screens: String?

    @Option(
        name: .long,
        help: ArgumentHelp("Another file to add (a .cast recording, a .tape); repeatable.", valueName: "file"))
    var include: [String] = []

    func run() async throws {
        for file in include where !FileManager.default.isReadableFile(atPath: file) {
            throw CommandFailure.usage("--include \(file): no such readable file")
        }
        let session = try await options.open()
        let name = "storefront-report-\(ScreenFiles.stamp(Date()))"
        let staging = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
            .appendingPathComponent(name)
        defer { try? FileManager.default.removeItem(at: staging.deletingLastPathComponent()) }
        do {
            try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
            try await write(session, into: staging)
            let archive = URL(fileURLWithPath: output ?? name + ".tar.gz")
            try Self.tar(staging, to: archive)
            Console.out("wrote \(archive.path)")
        } catch let failure as StoreFailure {
            throw CommandFailure.failure(failure.message)
        }
    }

    private func write(_ session: StoreSession, into staging: URL) async throws {
        let controls = try await session.store.controls()
        let settings = ControlSetting.allCases.compactMap { setting -> String? in
            guard let value = setting.value(in: controls) else { return nil }
            return value.isEmpty ? "# \(setting.name): not set" : "\(setting.name) \(value)"
        }
        try Data((settings.joined(separator: "\n") + "\n").utf8).write(
            to: staging.appendingPathComponent("controls.txt"))
        var log: [String: [TransactionJSON]] = [:]
        for account in session.context.catalog.accounts.map(\.name) + [session.account.name] where log[account] == nil {
            log[account] = try await session.store.transactions(account: account).map {
                TransactionJSON($0, language: session.language)
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try encoder.encode(log).write(to: staging.appendingPathComponent("transactions.json"))
        let screenDirectory =
            screens.map { URL(fileURLWithPath: $0) } ?? session.stateDirectory.appendingPathComponent("screens")
        let screenFiles = (try? FileManager.default.contentsOfDirectory(atPath: screenDirectory.path))?.sorted() ?? []
        try FileManager.default.createDirectory(
            at: staging.appendingPathComponent("screens"), withIntermediateDirectories: true)
        for file in screenFiles {
            try FileManager.default.copyItem(
                at: screenDirectory.appendingPathComponent(file),
                to: staging.appendingPathComponent("screens").appendingPathComponent(file))
        }
        if !include.isEmpty {
            try FileManager.default.createDirectory(
                at: staging.appendingPathComponent("include"), withIntermediateDirectories: true)
            for file in include {
                let url = URL(fileURLWithPath: file)
                try FileManager.default.copyItem(
                    at: url, to: staging.appendingPathComponent("include").appendingPathComponent(url.lastPathComponent)
                )
            }
        }
        let readme = readme(session, screens: screenFiles.count, transactions: log.values.reduce(0) { $0 + $1.count })
        try Data(readme.utf8).write(to: staging.appendingPathComponent("README.txt"))
    }

    /// A path as a report shared with others shows it: the home directory as `~`, so the report
    /// does not carry the reporter's user name, and a path elsewhere as given.
    static func shared(_ path: String, home: String = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory())
        -> String
    {
        let home = home.hasSuffix("/") ? String(home.dropLast()) : home
        guard !home.isEmpty, home != "/", path == home || path.hasPrefix(home + "/") else { return path }
        return "~" + path.dropFirst(home.count)
    }

    private func readme(_ session: StoreSession, screens: Int, transactions: Int) -> String {
        let source = options.catalog.catalog ?? "products.json"
        let digest = (try? Data(contentsOf: URL(fileURLWithPath: source))).map {
            SHA256.hash(data: $0).map { String(format: "%02x", $0) }.joined()
        }
        let catalog = session.context.catalog
        return """
            Storefront bug report
            tool:          storefront \(StorefrontCommand.version)
            made:          \(ISO8601DateFormatter().string(from: Date()))
            catalog:       \(Self.shared(URLCredentials.redacted(source)))\(digest.map { "\n  sha256:      \($0)" } ?? "")
              bundle id:   \(catalog.bundleId)
              products:    \(catalog.products.count), storefronts \(catalog.storefronts.count), accounts \(catalog.accounts.count)
            store:         \(session.storeLabel)
            state:         \(Self.shared(session.stateDirectory.path))
            account:       \(session.account.name) (\(session.storefront.id))
            transactions:  \(transactions), in transactions.json by account
            test controls: controls.txt (each line as `storefront manage set` takes it)
            screens:       \(screens) file\(screens == 1 ? "" : "s") in screens/
            included:      \(include.isEmpty ? "none" : include.map { ($0 as NSString).lastPathComponent }.joined(separator: ", "))

            """
    }

    static func tar(_ directory: URL, to archive: URL) throws {
        let (status, errors) = try StorefrontChild.run([
            "tar", "-czf", archive.path, "-C", directory.deletingLastPathComponent().path,
            directory.lastPathComponent,
        ])
        guard status == 0 else { throw CommandFailure.failure("cannot write \(archive.path): tar: \(errors)") }
    }
}
