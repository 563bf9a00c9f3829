import Foundation
import GRDB
import LocalState
import StoreCore
import StoreKitModel

/// The careful app's own durable records, in a separate file from the store's (as an app's data
/// is separate from Apple's): the orders it placed, deliveries keyed by transaction id so nothing
/// is credited twice, consumable balances, and the ledger of paid-but-unverified transactions,
/// kept until the app's server confirms them.
public struct AppLedger: Sendable {
    let pool: DatabasePool

    /// The lock file that serialises opening the ledger (`StateDirectory.withOpenLock`).
    static let lockName = "app.lock"

    public init(state: StateDirectory) throws {
        let path = try state.databasePath("app.sqlite")
        do {
            pool = try DurablePool.open(path: path, migrator: Self.migrator, state: state, lock: Self.lockName)
        } catch let failure as StoreFailure {
            throw failure
        } catch {
            throw StoreFailure("cannot open the app ledger \(path): \(StateLock.explain(error, path: path))")
        }
    }

    static var migrator: DatabaseMigrator {
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
        migrator.registerMigration("v2: orders and verification backoff") { db in
            try db.execute(sql: """
                ALTER TABLE ledger ADD COLUMN next_attempt_at REAL;
                ALTER TABLE ledger ADD COLUMN matched_by TEXT;
                CREATE TABLE orders (
                    order_id TEXT PRIMARY KEY,
                    account TEXT NOT NULL,
                    product_id TEXT NOT NULL,
                    quantity INTEGER NOT NULL,
                    created_at REAL NOT NULL,
                    transaction_id TEXT UNIQUE
                );
                CREATE INDEX orders_open ON orders(account, product_id, transaction_id);
                """)
        }
        return migrator
    }
}

/// Where a ledger entry stands between delivery and `finishTransaction`.
public enum LedgerStatus: String, Sendable, Hashable {
    /// Delivered; the app's server has not confirmed the receipt yet (never finished in this state).
    case unverified
    case verified
    /// The server refused the receipt for good; the transaction is finished without a new delivery.
    case rejected
    case finished
}

/// One paid transaction the app has delivered, as its ledger keeps it.
public struct LedgerEntry: Sendable, Hashable {
    public let transactionId: String
    public let productId: String
    public let account: String
    public let orderId: String?
    public let status: LedgerStatus
    public let recordedAt: Date
    public let attempts: Int
    public let lastError: String?
    public let nextAttempt: Date?
    /// How the order was found: `orderId` (applicationUsername came back) or `accountAndProduct`.
    public let matchedBy: OrderMatch?
}

/// How a transaction was tied to the app's order.
public enum OrderMatch: String, Sendable, Hashable {
    case orderId
    /// `applicationUsername` came back empty; the oldest open order for the account and product.
    case accountAndProduct
}
