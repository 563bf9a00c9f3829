import AppSide
import ArgumentParser
import CellGrid
import Foundation
import StoreKitModel

@main
struct StorefrontCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storefront",
        abstract: "A terminal storefront that behaves like an iOS app buying through StoreKit.",
        discussion: """
            Without a subcommand, opens the storefront on the simulated store and ./products.json.
            The headless subcommands print tables for people and JSON (--json) for scripts.

            Exit status: 0 on success, 2 on a usage error, 1 on any other error (message on stderr).
            """,
        version: StorefrontCommand.version,
        subcommands: [
            OpenCommand.self, PlayCommand.self, ScreenshotCommand.self, RecordCommand.self, ReportCommand.self,
            ScenariosCommand.self, ProductsCommand.self, ErrorsCommand.self, BuyCommand.self, TransactionsCommand.self,
            FinishCommand.self, RestoreCommand.self, WalletCommand.self, ManageCommand.self, ResetCommand.self,
            ServeCommand.self, CatalogCommand.self, OffersCommand.self, AppTransactionCommand.self,
        ],
        defaultSubcommand: OpenCommand.self
    )

    /// The tool's version, as `--version` prints it and bug reports carry it.
    static let version = "0.3.0"

    /// Runs the command with Storefront's exit statuses: 2 for usage errors, 1 for the rest.
    static func main() async {
        // A closed pipe is an error of the write, never a signal that ends the process between a
        // payment and its delivery: `Console.endCommand` ends it once the command is done.
        signal(SIGPIPE, SIG_IGN)
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
        Console.endCommand()
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

extension CommandFailure: CustomStringConvertible {
    var description: String { lines.joined(separator: " ") }
}
