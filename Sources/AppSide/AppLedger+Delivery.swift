import Foundation
import GRDB
import LocalState
import StoreCore
import StoreKitModel

/// What `recordAndDeliver` did.
public struct DeliveryRecord: Sendable, Hashable {
    /// Identifies this app's verification request, so a retry is not mistaken for a replay.
    public let claim: String
    /// False when the transaction id was delivered before: nothing was credited this time.
    public let delivered: Bool
    public let orderId: String?
    public let matchedBy: OrderMatch?
    /// The app acted on this transaction's refund already (its purchase arrived late): nothing
    /// was recorded or credited.
    public var revoked = false
    /// This app build crashed delivering it: nothing was recorded or credited, the crash counted.
    public var crash: AppCrash? = nil
}

extension AppLedger {
    /// Records the order before the payment is added, so a transaction that comes back without
    /// its `applicationUsername` can still be matched by account and product.
    public func placeOrder(_ payment: Payment, at now: Date) throws -> String {
        let orderId = payment.applicationUsername ?? UUID().uuidString
        try pool.guardedWriteNow { db in
            try db.execute(
                sql: """
                    INSERT INTO orders (order_id, account, product_id, quantity, created_at, store_id) VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT(order_id) DO NOTHING
                    """,
                arguments: [
                    orderId, payment.account, payment.productId, payment.quantity, now.timeIntervalSince1970, storeId,
                ])
        }
        return orderId
    }

    /// Records the transaction as paid-but-unverified and delivers it, in one commit; a
    /// transaction id seen before from this store, or one whose refund was acted on, is neither
    /// recorded nor delivered again.
    public func recordAndDeliver(_ update: TransactionUpdate, product: Product?, at now: Date) throws -> DeliveryRecord
    {
        let transaction = update.transaction
        return try pool.guardedWriteNow { db in
            if try isRevoked(transaction.id, db) {
                return DeliveryRecord(claim: "", delivered: false, orderId: nil, matchedBy: nil, revoked: true)
            }
            // In this write: a delivery that does not crash pays for no extra read or commit.
            if let crash = try crash(delivering: transaction.productId, transactionId: transaction.id, db) {
                return DeliveryRecord(claim: "", delivered: false, orderId: nil, matchedBy: nil, crash: crash)
            }
            if let row = try Row.fetchOne(
                db, sql: "SELECT claim, order_id, matched_by FROM ledger WHERE store_id = ? AND transaction_id = ?",
                arguments: [storeId, transaction.id])
            {
                try checkSameFacts(transaction, db)
                return DeliveryRecord(
                    claim: row["claim"], delivered: false, orderId: row["order_id"],
                    matchedBy: (row["matched_by"] as String?).flatMap(OrderMatch.init(rawValue:)))
            }
            let (orderId, matchedBy) = try matchOrder(transaction, db)
            let claim = UUID().uuidString
            try db.execute(
                sql: """
                    INSERT INTO ledger (store_id, transaction_id, claim, product_id, account, order_id, receipt, status, recorded_at, matched_by)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    storeId, transaction.id, claim, transaction.productId, transaction.payment.account, orderId,
                    update.receipt, LedgerStatus.unverified.rawValue, now.timeIntervalSince1970, matchedBy?.rawValue,
                ])
            try addDelivery(transaction, at: now, db)
            if let grant = product?.wallet, product?.type == .consumable {
                try credit(grant.amount * transaction.quantity, of: grant.balance, to: transaction.payment.account, db)
            }
            return DeliveryRecord(claim: claim, delivered: true, orderId: orderId, matchedBy: matchedBy)
        }
    }

    /// The delivery row that says the app granted this transaction, in the caller's write.
    func addDelivery(_ transaction: Transaction, at now: Date, _ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO deliveries (store_id, transaction_id, account, product_id, quantity, delivered_at, purchased_at) VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                storeId, transaction.id, transaction.payment.account, transaction.productId, transaction.quantity,
                now.timeIntervalSince1970, transaction.purchaseDate.timeIntervalSince1970,
            ])
    }

    /// Adds `amount` to the account's wallet balance, in the caller's write.
    func credit(_ amount: Int, of balance: String, to account: String, _ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO balances (account, balance, amount) VALUES (?, ?, ?)
                ON CONFLICT(account, balance) DO UPDATE SET amount = amount + excluded.amount
                """,
            arguments: [account, balance, amount])
    }

    /// Closes the order of a failed transaction, so a later purchase of the same product is not
    /// matched to it. Idempotent: a transaction settles at most one order.
    public func settleOrder(_ transaction: Transaction) throws {
        try pool.guardedWriteNow { db in
            guard
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM orders WHERE store_id = ? AND transaction_id = ?",
                    arguments: [storeId, transaction.id]) == 0
            else { return }
            _ = try matchOrder(transaction, db)
        }
    }

    /// The app's order for a transaction: by `applicationUsername` when it came back, else the
    /// oldest open order of the same account and product (field reports: it can come back empty).
    private func matchOrder(_ transaction: Transaction, _ db: Database) throws -> (String?, OrderMatch?) {
        let payment = transaction.payment
        var match: (String, OrderMatch)?
        if let orderId = payment.applicationUsername {
            match = (orderId, .orderId)
        } else if let open = try String.fetchOne(
            db,
            sql: """
                SELECT order_id FROM orders WHERE account = ? AND product_id = ? AND transaction_id IS NULL
                ORDER BY created_at, rowid LIMIT 1
                """, arguments: [payment.account, payment.productId])
        {
            match = (open, .accountAndProduct)
        }
        guard let (orderId, how) = match else { return (nil, nil) }
        try db.execute(
            sql: "UPDATE orders SET transaction_id = ?, store_id = ? WHERE order_id = ? AND transaction_id IS NULL",
            arguments: [transaction.id, storeId, orderId])
        return (orderId, how)
    }

    /// Takes back this app's delivery of a transaction that another claim (another device of the
    /// account) had verified first: the delivery row and the consumable credit go, in one commit,
    /// and the entry is marked rejected with the reason. Idempotent: a second call finds no delivery.
    public func takeBack(_ transactionId: String, product: Product?, reason: String, at now: Date) throws {
        try pool.guardedWriteNow { db in
            _ = try withdraw(transactionId, product: product, db)
            try db.execute(
                sql:
                    "UPDATE ledger SET status = ?, last_error = ?, next_attempt_at = NULL WHERE store_id = ? AND transaction_id = ?",
                arguments: [LedgerStatus.rejected.rawValue, reason, storeId, transactionId])
        }
    }

    /// Removes the transaction's delivery, and a consumable's credit from its balance, in the
    /// caller's write; what was taken from which balance, or nil when nothing was credited.
    func withdraw(_ transactionId: String, product: Product?, _ db: Database) throws -> (balance: String, amount: Int)?
    {
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT account, quantity FROM deliveries WHERE store_id = ? AND transaction_id = ?",
                arguments: [storeId, transactionId])
        else { return nil }
        try db.execute(
            sql: "DELETE FROM deliveries WHERE store_id = ? AND transaction_id = ?",
            arguments: [storeId, transactionId])
        guard let grant = product?.wallet, product?.type == .consumable else { return nil }
        let amount = grant.amount * (row["quantity"] as Int)
        try db.execute(
            sql: "UPDATE balances SET amount = amount - ? WHERE account = ? AND balance = ?",
            arguments: [amount, row["account"] as String, grant.balance])
        return (grant.balance, amount)
    }

    /// The claim and the receipt an entry was recorded with, to verify it again when the queue no
    /// longer offers the transaction (another device finished it).
    func claimAndReceipt(transactionId: String) throws -> (claim: String, receipt: String?)? {
        try pool.guardedReadNow { db in
            try Row.fetchOne(
                db, sql: "SELECT claim, receipt FROM ledger WHERE store_id = ? AND transaction_id = ?",
                arguments: [storeId, transactionId]
            )
            .map { (claim: $0["claim"], receipt: $0["receipt"]) }
        }
    }

    /// Records the outcome of a verification attempt or the finish; a retryable failure schedules
    /// the next attempt with `VerificationBackoff`, so retries survive a restart.
    func mark(_ transactionId: String, status: LedgerStatus, error: String? = nil, at now: Date) throws {
        try pool.guardedWriteNow { db in
            let attempts =
                (try Int.fetchOne(
                    db, sql: "SELECT attempts FROM ledger WHERE store_id = ? AND transaction_id = ?",
                    arguments: [storeId, transactionId]) ?? 0)
                + (status == .finished ? 0 : 1)
            let next =
                status == .unverified
                ? now.addingTimeInterval(VerificationBackoff.delay(afterAttempts: attempts)).timeIntervalSince1970 : nil
            try db.execute(
                sql: """
                    UPDATE ledger SET status = ?, attempts = ?, last_error = COALESCE(?, last_error), next_attempt_at = ?
                    WHERE store_id = ? AND transaction_id = ?
                    """, arguments: [status.rawValue, attempts, error, next, storeId, transactionId])
        }
    }
}

/// How long the app waits before verifying again after the server could not answer: doubling
/// from 1 s, capped at 5 minutes, so an outage is not hammered and a recovery is noticed soon.
public enum VerificationBackoff {
    public static let cap: TimeInterval = 300

    public static func delay(afterAttempts attempts: Int) -> TimeInterval {
        guard attempts > 0 else { return 0 }
        return min(cap, pow(2, Double(min(attempts - 1, 20))))
    }
}
