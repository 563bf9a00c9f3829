import Foundation
import TapeScript

/// What a tape's `Expect` lines are checked against: the played store as `storefront
/// transactions --json` and `storefront wallet --json` report it, the same facts a script reads.
enum StoreFactsReader {
    static func read(executable: String, storeArguments: [String]) throws -> StoreFacts {
        let history = try JSONDecoder().decode(
            History.self, from: output(executable, ["transactions", "--json"] + storeArguments))
        let wallet = try JSONDecoder().decode(
            Wallet.self, from: output(executable, ["wallet", "--json"] + storeArguments))
        return StoreFacts(
            transactions: Dictionary(
                history.history.map { ($0.transactionId, $0.fact) }, uniquingKeysWith: { first, _ in first }),
            balances: wallet.balances, owned: Set(wallet.owned.map(\.productId)),
            subscriptions: Dictionary(
                wallet.subscriptions.map { ($0.productId, $0.state) }, uniquingKeysWith: { first, _ in first }))
    }

    private static func output(_ executable: String, _ arguments: [String]) throws -> Data {
        let (status, output, errors) = try StorefrontChild.output([executable] + arguments)
        guard status == 0 else {
            throw CommandFailure.failure("storefront \(arguments.joined(separator: " ")) failed: \(errors)")
        }
        return output
    }

    private struct History: Decodable {
        struct Transaction: Decodable {
            let transactionId: String
            let productId: String
            let state: String
            let price: String?
            let revocationDate: String?

            /// A refunded purchase keeps its state and gains a revocation date: a tape names it refunded.
            var fact: StoreFacts.Transaction {
                StoreFacts.Transaction(
                    productId: productId, state: revocationDate == nil ? state : "refunded", price: price)
            }
        }

        let history: [Transaction]
    }

    private struct Wallet: Decodable {
        struct Owned: Decodable { let productId: String }
        struct Subscription: Decodable {
            let productId: String
            let state: String
        }

        let balances: [String: Int]
        let owned: [Owned]
        let subscriptions: [Subscription]
    }
}
