import ArgumentParser
import Foundation
import StoreCore

/// `manage create`: Xcode 26's "create a transaction" in the transaction manager, for testing
/// purchases made outside the device.
struct ManageCreateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: ManageVerb.create.rawValue,
        abstract: "Create a transaction made outside the device, bought by --account at a past --date.",
        discussion: """
            As Xcode 26's transaction manager creates one: the store dates the purchase then and works out what \
            followed, each renewal under the time rate up to now, or with --auto-renew off the expiry after the \
            first period; servers hear what the App Store sent (SUBSCRIBED, DID_RENEW, EXPIRED). The app hears \
            the purchase and its renewals as unfinished transactions, as of a purchase on another device. A date \
            in the future, an unknown product or offer, a subscription of the group the account already has, or \
            a non-consumable it owns, is refused.
            """)
    @Argument(help: "The product bought (see storefront products).") var product: String
    @Option(
        help: ArgumentHelp(
            "When it was bought: 2026-01-15T10:00:00Z, or milliseconds since 1970; in the past.", valueName: "date"))
    var date: String
    @Option(
        name: .customLong("app-account-token"),
        help: ArgumentHelp("The app account token the purchase carries.", valueName: "uuid"))
    var appAccountToken: String?
    @Option(help: ArgumentHelp("A promotional, win-back or offer-code offer of the product, by id.", valueName: "id"))
    var offer: String?
    @Option(
        name: .customLong("auto-renew"),
        help: ArgumentHelp("Off: the subscription ends after its first period.", valueName: "on|off"))
    var autoRenew: Switch = .on
    @OptionGroup var options: StoreOptions

    func run() async throws {
        guard let account = options.account else {
            throw CommandFailure.usage(
                "create needs --account: the account that bought it, e.g. --account alice (see products.json)")
        }
        guard let purchaseDate = TransactionCreation.date(from: date) else {
            throw CommandFailure.usage("--date \(date.prefix(40)): expected \(TransactionCreation.dateInWords)")
        }
        var token: UUID?
        if let appAccountToken {
            guard let uuid = UUID(uuidString: appAccountToken) else {
                throw CommandFailure.usage(
                    "--app-account-token \(appAccountToken.prefix(40)): expected a UUID such as 7e3fb20b-4cdb-47cc-936d-99d65f608138"
                )
            }
            token = uuid
        }
        let creation = TransactionCreation(
            productId: product, account: account, purchaseDate: purchaseDate, appAccountToken: token, offerId: offer,
            autoRenew: autoRenew.isOn)
        try await ManageCommand.perform(.createTransaction(creation), words: creation.words, options: options)
    }
}
