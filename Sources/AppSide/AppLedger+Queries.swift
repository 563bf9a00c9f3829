import Foundation
import GRDB

extension AppLedger {
    /// Ledger entries of the account from this store, oldest first; `open` keeps only those not finished yet.
    public func entries(account: String, openOnly: Bool = false) throws -> [LedgerEntry] {
        try pool.guardedReadNow { db in
            let filter = openOnly ? " AND status != 'finished'" : ""
            return try Row.fetchAll(
                db, sql: "SELECT * FROM ledger WHERE store_id = ? AND account = ?\(filter) ORDER BY recorded_at, rowid",
                arguments: [storeId, account]
            )
            .map(LedgerEntry.init(row:))
        }
    }

    public func entry(transactionId: String) throws -> LedgerEntry? {
        try pool.guardedReadNow { db in
            try Row.fetchOne(
                db, sql: "SELECT * FROM ledger WHERE store_id = ? AND transaction_id = ?",
                arguments: [storeId, transactionId]
            )
            .map(LedgerEntry.init(row:))
        }
    }

    /// Consumable balances the app credited, by balance name.
    public func balances(account: String) throws -> [String: Int] {
        try pool.guardedReadNow { db in
            var balances: [String: Int] = [:]
            for row in try Row.fetchAll(
                db, sql: "SELECT balance, amount FROM balances WHERE account = ?", arguments: [account])
            {
                balances[row["balance"]] = row["amount"]
            }
            return balances
        }
    }

    /// How many times this store's transaction id was delivered (always 0 or 1; the crash test checks it).
    public func deliveryCount(transactionId: String) throws -> Int {
        try pool.guardedReadNow { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM deliveries WHERE store_id = ? AND transaction_id = ?",
                arguments: [storeId, transactionId]) ?? 0
        }
    }
}

extension LedgerEntry {
    init(row: Row) {
        transactionId = row["transaction_id"]
        productId = row["product_id"]
        account = row["account"]
        orderId = row["order_id"]
        status = LedgerStatus(rawValue: row["status"]) ?? .unverified
        recordedAt = Date(timeIntervalSince1970: row["recorded_at"])
        attempts = row["attempts"]
        lastError = row["last_error"]
        nextAttempt = (row["next_attempt_at"] as Double?).map(Date.init(timeIntervalSince1970:))
        matchedBy = (row["matched_by"] as String?).flatMap(OrderMatch.init(rawValue:))
    }
}
