import Foundation
import GRDB
import LocalState
import StoreCore
import StoreKitModel

/// What the app took back for a refunded transaction.
public struct RevocationRecord: Sendable, Hashable {
    /// False when this revocation was acted on before: nothing was taken back this time.
    public let firstTime: Bool
    /// The wallet balance and amount taken back (a consumable's grant × quantity), when any.
    public let balance: String?
    public let amount: Int
}

extension AppLedger {
    /// Acts on a refund once: the transaction's delivery is withdrawn and a consumable's credit
    /// taken back from its balance (which may go below zero when it was spent, as an app's
    /// server would record a debt). A transaction never delivered here has nothing to take back.
    public func revoke(_ transaction: Transaction, product: Product?, at now: Date) throws -> RevocationRecord {
        try pool.guardedWriteNow { db in
            if try isRevoked(transaction.id, db) {
                return RevocationRecord(firstTime: false, balance: nil, amount: 0)
            }
            let taken = try withdraw(transaction.id, product: product, db)
            try db.execute(
                sql: """
                    INSERT INTO revocations (store_id, transaction_id, account, product_id, taken_back, revoked_at) VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    storeId, transaction.id, transaction.payment.account, transaction.productId, taken?.amount ?? 0,
                    now.timeIntervalSince1970,
                ])
            return RevocationRecord(firstTime: true, balance: taken?.balance, amount: taken?.amount ?? 0)
        }
    }

    /// The transaction ids of the account whose refunds the app has acted on.
    /// Whether the app has acted on this transaction's refund, in the caller's read or write.
    func isRevoked(_ transactionId: String, _ db: Database) throws -> Bool {
        try Int.fetchOne(
            db, sql: "SELECT 1 FROM revocations WHERE store_id = ? AND transaction_id = ?",
            arguments: [storeId, transactionId]) != nil
    }

    public func revokedIds(account: String) throws -> Set<String> {
        try pool.guardedReadNow { db in
            Set(
                try String.fetchAll(
                    db, sql: "SELECT transaction_id FROM revocations WHERE store_id = ? AND account = ?",
                    arguments: [storeId, account]))
        }
    }
}
