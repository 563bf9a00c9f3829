import ArgumentParser
import StoreCore

/// `manage assign ID --to ACCOUNT`: a purchase an organization or group made, assigned to a member.
struct ManageAssignCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assign",
        abstract:
            "Assign a purchase to another account, as an organization or group does (inAppOwnershipType ASSIGNED).",
        discussion: """
            The purchaser's transaction (of a subscription, its period in force) is assigned to the account, which gets \
            a transaction of its own owned ASSIGNED: it renews with the purchase, and a refund of the purchase revokes \
            it (REVOKE). Apple's servers refuse assigned transactions in Send Consumption Information and Set App \
            Account Token (4000227) and Extend a Subscription Renewal Date (4030028). Consumables cannot be assigned.
            """)

    @Argument(help: "The purchaser's transaction id.") var id: String
    @Option(name: .customLong("to"), help: ArgumentHelp("The account it is assigned to.", valueName: "account"))
    var account: String
    @OptionGroup var options: StoreOptions

    func run() async throws {
        try await ManageCommand.perform(
            .assign(id, account: account), words: ["assign", id, "--to", account], options: options)
    }
}
