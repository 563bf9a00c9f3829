import Foundation
import StoreCore
import StoreKitModel

/// StoreKit 2's signed transactions, signed in process with the key and chain the store signs
/// its receipts with, as a server serving this store would sign them.
extension SimulatedStore: SignedTransactionSource {
    public func signedTransactions(_ transactions: [Transaction]) async throws -> [String: String] {
        let details = try await details(transactionIds: transactions.map(\.id))
        var signed: [String: String] = [:]
        for transaction in transactions {
            signed[transaction.id] = transactionSigner.clientForm(
                of: transaction, details: details[transaction.id], catalog: catalog, environment: environment)
        }
        return signed
    }

    public nonisolated func signingRoot() -> Data { transactionSigner.chain.root }
}
