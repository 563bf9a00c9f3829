import Foundation
import GRDB
import LocalState
import StoreCore
import StoreKitModel

/// Finish Transaction (App Store Server API 1.20): a developer's server that delivered the content
/// finishes the transaction itself, so the app's queue stops offering it at its next read, as
/// StoreKit's would after `Transaction.finish()`.
extension SimulatedStore {
    /// Finishes a purchased or restored transaction for its app; false when the App Store Server
    /// API knows no such transaction (another state, or no id). Finishing one already finished
    /// changes nothing and is no error.
    public func finishFromServer(transactionId: String) async throws -> Bool {
        try await database.writer.write { db in
            guard var stored = try StoredTransaction.fetch(db, id: transactionId),
                stored.transaction.state.hasReceipt
            else { return false }
            guard !stored.transaction.finished else { return true }
            stored.transaction.finished = true
            try stored.update(db)
            return true
        }
    }
}
