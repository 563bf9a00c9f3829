import LocalState
import StoreCore
import StoreKitModel

extension PendingPayment {
    /// The queue's unfinished transactions joined with the app's open ledger entries. Failed
    /// transactions are left out: they charged nothing, whatever the app still has to finish.
    public static func list(unfinished: [Transaction], ledger: [LedgerEntry]) -> [PendingPayment] {
        let entries = Dictionary(ledger.map { ($0.transactionId, $0) }, uniquingKeysWith: { first, _ in first })
        return unfinished.compactMap { transaction in
            let reason: Reason
            switch (transaction.state, entries[transaction.id]) {
            case (.purchasing, _), (.failed, _):
                return nil
            case (.deferred, _):
                reason = .awaitingApproval
            case (.purchased, let entry?), (.restored, let entry?):
                guard entry.status == .unverified else {
                    reason = .unfinished
                    break
                }
                reason = .awaitingVerification(
                    attempts: entry.attempts, lastError: entry.lastError, nextAttempt: entry.nextAttempt)
            default:
                reason = .unfinished
            }
            return PendingPayment(
                transactionId: transaction.id, productId: transaction.productId, quantity: transaction.quantity,
                state: transaction.state, since: transaction.purchaseDate, reason: reason)
        }
    }
}
