import Foundation
import GRDB
import StoreKitModel

/// The careful app's own durable records (a separate file from the store's, as an app's data
/// is separate from Apple's): deliveries keyed by transaction id, so nothing is credited twice,
/// and the ledger of paid-but-unverified transactions, kept until the app's server confirms.
public struct AppLedger: Sendable {
    let pool: DatabasePool

    public init(state: StateDirectory) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        let path = try state.databasePath("app.sqlite")
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
            var migrator = DatabaseMigrator()
            migrator.registerMigration("v1") { db in
                try db.execute(sql: """
                    CREATE TABLE ledger (
                        transaction_id TEXT PRIMARY KEY,
                        claim TEXT NOT NULL,
                        product_id TEXT NOT NULL,
                        account TEXT NOT NULL,
                        order_id TEXT,
                        receipt TEXT,
                        status TEXT NOT NULL,
                        recorded_at REAL NOT NULL,
                        attempts INTEGER NOT NULL DEFAULT 0,
                        last_error TEXT
                    );
                    CREATE TABLE deliveries (
                        transaction_id TEXT PRIMARY KEY,
                        account TEXT NOT NULL,
                        product_id TEXT NOT NULL,
                        quantity INTEGER NOT NULL,
                        delivered_at REAL NOT NULL
                    );
                    CREATE TABLE balances (
                        account TEXT NOT NULL, balance TEXT NOT NULL, amount INTEGER NOT NULL,
                        PRIMARY KEY (account, balance)
                    );
                    """)
            }
            try migrator.migrate(pool)
        } catch {
            throw StoreFailure("cannot open the app ledger \(path): \(error); if another storefront is using this state directory, wait for it or pass a different --state")
        }
    }

    /// Records the transaction as paid-but-unverified and delivers it, in one commit; a
    /// transaction id seen before is neither recorded nor delivered again. Returns the claim id
    /// for verification and whether this call delivered.
    public func recordAndDeliver(_ update: TransactionUpdate, product: Product?, at now: Date) throws -> (claim: String, delivered: Bool) {
        let transaction = update.transaction
        return try pool.write { db in
            if let claim = try String.fetchOne(db, sql: "SELECT claim FROM ledger WHERE transaction_id = ?", arguments: [transaction.id]) {
                return (claim, false)
            }
            let claim = UUID().uuidString
            try db.execute(sql: """
                INSERT INTO ledger (transaction_id, claim, product_id, account, order_id, receipt, status, recorded_at)
                VALUES (?, ?, ?, ?, ?, ?, 'unverified', ?)
                """, arguments: [transaction.id, claim, transaction.productId, transaction.payment.account,
                                 transaction.payment.applicationUsername, update.receipt, now.timeIntervalSince1970])
            try db.execute(sql: "INSERT INTO deliveries (transaction_id, account, product_id, quantity, delivered_at) VALUES (?, ?, ?, ?, ?)",
                           arguments: [transaction.id, transaction.payment.account, transaction.productId, transaction.quantity, now.timeIntervalSince1970])
            if let grant = product?.wallet, product?.type == .consumable {
                try db.execute(sql: """
                    INSERT INTO balances (account, balance, amount) VALUES (?, ?, ?)
                    ON CONFLICT(account, balance) DO UPDATE SET amount = amount + excluded.amount
                    """, arguments: [transaction.payment.account, grant.balance, grant.amount * transaction.quantity])
            }
            return (claim, true)
        }
    }

    func mark(_ transactionId: String, status: String, error: String? = nil) throws {
        try pool.write { db in
            try db.execute(sql: "UPDATE ledger SET status = ?, attempts = attempts + 1, last_error = ? WHERE transaction_id = ?",
                           arguments: [status, error, transactionId])
        }
    }
}
