import Foundation
import StoreCore
import StoreKitModel

/// StoreKit 2's signed values, signed in process with the key and chain the store signs its
/// receipts with, as a server serving this store would sign them.
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

    public func signedSubscriptionStatuses(account: String) async throws -> [SignedSubscriptionStatus] {
        let now = clock.now()
        return try await serverAPI.subscriptionStatuses(account: account).map {
            transactionSigner.signedStatus($0, catalog: catalog, environment: environment, at: now)
        }
    }

    public func signedAppTransaction(account: String) async throws -> String {
        transactionSigner.signedAppTransaction(
            try await appTransaction(account: account),
            appAppleId: Self.appAppleId(bundleId: catalog.bundleId, environment: environment), at: clock.now())
    }

    public nonisolated func signingRoot() -> Data { transactionSigner.chain.root }
}
