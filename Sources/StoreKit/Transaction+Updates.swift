import Foundation
import StoreCore
import StoreKitModel

extension Transaction {
    /// Transactions that happen outside `Product.purchase` while the app runs: the unfinished
    /// ones first (StoreKit sends them when the app starts listening), then renewals, approved
    /// Ask to Buy requests, purchases made in another process or on the server's side, and
    /// refunds and their reversals. A purchase's own transaction is its result, not an update.
    public static var updates: Transactions {
        Transactions {
            AsyncStream { continuation in
                let task = Task {
                    do {
                        try await UpdateListener().run { continuation.yield($0) }
                    } catch {}
                    continuation.finish()
                }
                continuation.onTermination = { _ in task.cancel() }
            }
        }
    }
}

/// One `for await … in Transaction.updates`: each JWS it yields, yielded once.
struct UpdateListener {
    func run(_ yield: (VerificationResult<Transaction>) -> Void) async throws {
        let store = try await StoreKitCall.store()
        let stream = await store.backend.updates()
        var seen: Set<String> = []
        let pending = try await Transaction.unfinishedTransactions(store)
        for result in try await TransactionSigning.verified(pending, store: store)
        where seen.insert(result.jwsRepresentation).inserted {
            yield(result)
        }
        for await update in stream where await isAnUpdate(update.transaction, of: store) {
            for result in try await TransactionSigning.verified([update.transaction], store: store)
            where seen.insert(result.jwsRepresentation).inserted {
                yield(result)
            }
        }
    }

    /// A purchased transaction of the account, unfinished or revoked (a refund reaches the app
    /// whether or not it finished), that no `Product.purchase` returned.
    private func isAnUpdate(_ transaction: StoreKitModel.Transaction, of store: OpenedStore) async -> Bool {
        guard transaction.payment.account == store.account.name, transaction.state == .purchased,
            let id = UInt64(transaction.id)
        else { return false }
        let revoked = transaction.terms?.revocation != nil
        guard !transaction.finished || revoked else { return false }
        if revoked { return true }
        return !(await InFlightPurchases.shared.wasReturned(id, store: store.storeID, productID: transaction.productId))
    }
}
