import ArgumentParser
import Foundation
import StoreCore
import StoreKitModel

/// `storefront offers`: what an app's server needs for the catalog's subscription offers.
struct OffersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "offers",
        abstract: "Subscription offers: the key promotional offers are signed with.",
        subcommands: [Key.self]
    )

    struct Key: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "key",
            abstract: "Print the key id and the PEM private key promotional offers are signed with.",
            discussion: """
                The catalog's key (products.json's offerSigningKey, a .storekit file's subscriptionOffersKeyPair)
                when it names one; else the key the simulated store made for this catalog, once, and keeps in its
                state directory, as Xcode keeps a .storekit file's Subscription Offers Key. Give it to your app's
                server (as the In-App Purchase key and its key id) to sign promotional offers the store accepts.
                """
        )

        @OptionGroup var options: StoreOptions

        @Flag(name: .long, help: "Print {\"keyId\",\"privateKey\",\"source\"} as JSON.")
        var json = false

        func run() async throws {
            let session = try await options.open()
            let (key, source) = try await OffersCommand.key(session)
            if json {
                Console.json(
                    try JSONOutput.encode(KeyJSON(keyId: key.keyId, privateKey: key.privateKeyPEM, source: source)))
            } else {
                Console.out("key id: \(key.keyId) (\(source == "catalog" ? "the catalog's" : "kept by the store"))")
                Console.out(lines: key.privateKeyPEM.split(separator: "\n").map(String.init))
            }
        }
    }

    /// The catalog's key, else the one the simulated store keeps for the catalog.
    static func key(_ session: StoreSession) async throws -> (OfferSigningKey, source: String) {
        if let named = session.context.catalog.settings.offerSigningKey { return (named, "catalog") }
        guard let kept = session.offersKeySource else {
            throw CommandFailure.failure(
                "the catalog names no offers key, and the store at \(session.storeLabel) keeps its own: run `storefront offers key` on the server's machine with its --state"
            )
        }
        do {
            return (try await kept(), "store")
        } catch let failure as StoreFailure {
            throw CommandFailure.failure(failure.message)
        }
    }

    /// `storefront offers key --json`; field names are a contract with scripts and tests.
    struct KeyJSON: Encodable {
        let keyId: String
        /// PKCS#8 PEM.
        let privateKey: String
        /// `catalog` or `store`.
        let source: String
    }
}
