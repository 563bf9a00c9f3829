import AppSide
import ArgumentParser
import CellGrid
import Foundation
import StoreKitModel

@main
struct Storefront: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storefront",
        abstract: "A terminal storefront that behaves like an iOS app buying through StoreKit.",
        discussion: """
        Without a subcommand, opens the storefront on the simulated store and ./products.json.
        The headless subcommands print tables for people and JSON (--json) for scripts.

        Exit status: 0 on success, 2 on a usage error, 1 on any other error (message on stderr).
        """,
        version: Storefront.version,
        subcommands: [OpenCommand.self, PlayCommand.self, ScreenshotCommand.self, RecordCommand.self, ReportCommand.self, ScenariosCommand.self, ProductsCommand.self, ErrorsCommand.self, BuyCommand.self, TransactionsCommand.self, FinishCommand.self, RestoreCommand.self, WalletCommand.self, ManageCommand.self, ResetCommand.self, ServeCommand.self, CatalogCommand.self],
        defaultSubcommand: OpenCommand.self
    )

    /// The tool's version, as `--version` prints it and bug reports carry it.
    static let version = "0.3.0"

    /// Runs the command with Storefront's exit statuses: 2 for usage errors, 1 for the rest.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }

    static func exit(withError error: any Error) -> Never {
        if let crash = error as? AppCrash {
            // The simulated app build crashed: a failure of the app, not of the tool.
            exit(withError: CommandFailure.failure(crash.description))
        }
        if let failure = error as? CommandFailure {
            Console.err(lines: ["storefront: " + (failure.lines.first ?? "")] + failure.lines.dropFirst())
            Foundation.exit(failure.status)
        }
        // Usage, help and ArgumentParser's errors: their line breaks are its own.
        let lines = fullMessage(for: error).components(separatedBy: "\n")
        let code = exitCode(for: error)
        if code == .success {
            Console.out(lines: lines)
            Foundation.exit(0)
        }
        Console.err(lines: lines)
        Foundation.exit(code == .validationFailure ? 2 : code.rawValue)
    }
}

/// An error that ends a command with a readable message and a chosen exit status.
struct CommandFailure: Error {
    /// The message, a line each.
    let lines: [String]
    let status: Int32

    static func usage(_ message: String) -> CommandFailure { CommandFailure(lines: [message], status: 2) }
    static func failure(_ message: String) -> CommandFailure { CommandFailure(lines: [message], status: 1) }

    /// A catalog that could not be loaded: a `CatalogError` has a line for each problem.
    static func catalog(_ error: any Error) -> CommandFailure {
        CommandFailure(lines: (error as? CatalogError)?.lines ?? [String(describing: error)], status: 1)
    }
}

/// Every write of the headless commands to standard output and standard error. Text goes out a
/// line at a time, each line through `TerminalText.escaped`, so nothing read from a catalog, a
/// store or a server reaches the terminal as a control, bidirectional or invisible character,
/// and the only line breaks written are the ones between lines. JSON goes through `json`.
enum Console {
    static func out(_ line: String) { write([line], to: .standardOutput) }
    static func out(lines: [String]) { write(lines, to: .standardOutput) }
    static func err(_ line: String) { write([line], to: .standardError) }
    static func err(lines: [String]) { write(lines, to: .standardError) }

    /// One line of compact JSON (a document, or a JSON Lines record). Its strings keep their exact
    /// values, so the characters `TerminalText` would escape are written as JSON escapes instead:
    /// JSON encoders escape C0 controls but leave C1 controls and format characters raw.
    static func json(_ text: String) {
        let escaped = TerminalText.replacingUnprintable(text) { scalar in
            String(scalar).utf16.map { unit in
                let hex = String(unit, radix: 16, uppercase: true)
                return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }.joined()
        }
        FileHandle.standardOutput.write(Data((escaped + "\n").utf8))
    }

    private static func write(_ lines: [String], to handle: FileHandle) {
        handle.write(Data((lines.map(TerminalText.escaped).joined(separator: "\n") + "\n").utf8))
    }
}

extension CommandFailure: CustomStringConvertible {
    var description: String { lines.joined(separator: " ") }
}
