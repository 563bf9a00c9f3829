import Foundation
import GRDB
import StoreCore
import StoreKitModel

/// A transaction id the ledger has delivered, coming again with other facts: the store issued
/// the id twice (a server restored from a backup, or two servers on copies of one database).
/// It is no duplicate to skip, or a paid purchase would go uncredited without a word: the
/// delivery is refused loudly and the transaction stays unfinished, in the queue, until the
/// store is put right.
extension AppLedger {
    static func registerPurchaseDates(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v6: purchase dates of deliveries") { db in
            // Null for deliveries recorded before: their product, account and quantity still count.
            try db.execute(sql: "ALTER TABLE deliveries ADD COLUMN purchased_at REAL")
        }
    }

    /// Throws when the delivery recorded for `transaction`'s id was of another purchase.
    func checkSameFacts(_ transaction: Transaction, _ db: Database) throws {
        guard
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT product_id, account, quantity, purchased_at FROM deliveries WHERE store_id = ? AND transaction_id = ?
                    """, arguments: [storeId, transaction.id])
        else { return }
        let product: String = row["product_id"]
        let account: String = row["account"]
        let quantity: Int = row["quantity"]
        let purchased: Double? = row["purchased_at"]
        let sameDate = purchased.map { abs($0 - transaction.purchaseDate.timeIntervalSince1970) < 0.001 } ?? true
        guard
            product != transaction.productId || account != transaction.payment.account
                || quantity != transaction.quantity || !sameDate
        else {
            return
        }
        let before =
            "\(product) ×\(quantity) for \(account)"
            + (purchased.map { " bought \(Date(timeIntervalSince1970: $0).formatted(.iso8601))" } ?? "")
        let now =
            "\(transaction.productId) ×\(transaction.quantity) for \(transaction.payment.account) bought \(transaction.purchaseDate.formatted(.iso8601))"
        throw StoreFailure(
            "transaction \(transaction.id) was delivered before as \(before), and now comes as \(now): the store issued "
                + "the id twice (a server restored from a backup, or two servers on copies of one database). Not credited and "
                + "not finished: it stays in the queue. Put the store right (restore its latest database), then launch again",
            kind: .conflict)
    }
}
