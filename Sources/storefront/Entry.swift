import ArgumentParser
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
        subcommands: [OpenCommand.self, ProductsCommand.self, ErrorsCommand.self, BuyCommand.self, TransactionsCommand.self, FinishCommand.self, RestoreCommand.self, WalletCommand.self, ManageCommand.self, ResetCommand.self, ServeCommand.self, CatalogCommand.self],
        defaultSubcommand: OpenCommand.self
    )

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
        if let failure = error as? CommandFailure {
            Console.err("storefront: \(failure.message)")
            Foundation.exit(failure.status)
        }
        let code = exitCode(for: error)
        if code == .success {
            Console.out(fullMessage(for: error))
            Foundation.exit(0)
        }
        Console.err(fullMessage(for: error))
        Foundation.exit(code == .validationFailure ? 2 : code.rawValue)
    }
}

/// An error that ends a command with a readable message and a chosen exit status.
struct CommandFailure: Error {
    let message: String
    let status: Int32

    static func usage(_ message: String) -> CommandFailure { CommandFailure(message: message, status: 2) }
    static func failure(_ message: String) -> CommandFailure { CommandFailure(message: message, status: 1) }
}

enum Console {
    static func out(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    static func err(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
