import Foundation
import GRDB
import LocalState
import StoreCore
import StoreKitModel

/// What the app gave back when the App Store reversed a refund it had acted on.
public struct ReinstatementRecord: Sendable, Hashable {
    /// The wallet balance and amount given back (what the refund took back), when any.
    public let balance: String?
    public let amount: Int
}

extension AppLedger {
    /// Acts once on a refund the App Store reversed: the delivery the refund withdrew is back,
    /// with the consumable credit that was taken back. The revocation is forgotten in the same
    /// commit, so a second update of the reversal gives nothing again and a later refund of the
    /// same transaction is acted on again. Nil when there is nothing to give back: no refund of
    /// it was acted on, or it was never delivered here (it is then delivered as a purchase).
    public func reinstate(_ transaction: Transaction, product: Product?, at now: Date) throws -> ReinstatementRecord? {
        try pool.guardedWriteNow { db in
            guard
                let takenBack = try Int.fetchOne(
                    db, sql: "SELECT taken_back FROM revocations WHERE store_id = ? AND transaction_id = ?",
                    arguments: [storeId, transaction.id])
            else { return nil }
            try db.execute(
                sql: "DELETE FROM revocations WHERE store_id = ? AND transaction_id = ?",
                arguments: [storeId, transaction.id])
            guard
                try Int.fetchOne(
                    db, sql: "SELECT 1 FROM ledger WHERE store_id = ? AND transaction_id = ?",
                    arguments: [storeId, transaction.id]) != nil
            else { return nil }
            try addDelivery(transaction, at: now, db)
            guard let grant = product?.wallet, product?.type == .consumable, takenBack > 0 else {
                return ReinstatementRecord(balance: nil, amount: 0)
            }
            try credit(takenBack, of: grant.balance, to: transaction.payment.account, db)
            return ReinstatementRecord(balance: grant.balance, amount: takenBack)
        }
    }
}
