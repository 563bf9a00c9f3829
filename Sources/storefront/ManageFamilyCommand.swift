import ArgumentParser
import StoreCore

/// `manage family add|remove`: a Sandbox Test Family edited while the store runs.
struct ManageFamilyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "family",
        abstract: "Add an account to a Family Sharing group, or remove it from its group, while the store runs.",
        discussion: """
            The catalog's `family` fields are where accounts start; an edit is kept in the store (`manage reset` \
            returns to the catalog's). An account added gets the family's shareable purchases in force as \
            FAMILY_SHARED copies and shares its own; one removed loses them, each revoked (REVOKE).
            """,
        subcommands: [Add.self, Remove.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Put an account in a family (out of the one it was in).")
        @Argument(help: "The account (see products.json).") var account: String
        @Option(help: ArgumentHelp("The family's name: an existing one, or a new family.", valueName: "name"))
        var family: String
        @OptionGroup var options: StoreOptions

        func run() async throws {
            try await ManageCommand.perform(
                .setFamily(account: account, family: family),
                words: ["family", "add", account, "--family", family], options: options)
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove", abstract: "Take an account out of its family.")
        @Argument(help: "The account (see products.json).") var account: String
        @OptionGroup var options: StoreOptions

        func run() async throws {
            try await ManageCommand.perform(
                .setFamily(account: account, family: nil), words: ["family", "remove", account], options: options)
        }
    }
}
