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
    /// Held while the ledger is open, so `storefront reset` refuses to delete it meanwhile.
    let inUse: StateInUse
    /// The store this ledger records deliveries from (`bound(to:)`): transaction ids are unique
    /// within one store only. Empty until bound, for a ledger used with one store.
    public let storeId: String

    /// The lock file that serialises opening the ledger (`StateDirectory.withOpenLock`).
    static let lockName = "app.lock"

    /// What `app.sqlite` is: SQLite's application id "SFAP" marks the file as an app ledger.
    static let kind = DatabaseKind(description: "the app ledger", applicationId: 0x5346_4150, signatureTable: "ledger")

    public init(state: StateDirectory) throws {
        let path = try state.filePath("app.sqlite")
        do {
            inUse = try StateInUse(sharing: state)
            pool = try DurablePool.open(
                "app.sqlite", kind: Self.kind, migrator: Self.migrator, state: state, lock: Self.lockName)
            storeId = ""
        } catch let failure as StoreFailure {
            throw failure
        } catch {
            throw StoreFailure("cannot open the app ledger \(path): \(StateLock.explain(error, path: path))")
        }
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
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
            try db.execute(
                sql: """
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
        migrator.registerMigration("v3: deliveries per store") { db in
            try Self.keyByStore(db)
        }
        migrator.registerMigration("v4: revocations") { db in
            // Each refund the app has acted on, so a revocation seen again (a relaunch, a second
            // update) takes nothing back twice.
            try db.execute(
                sql: """
                    CREATE TABLE revocations (
                        store_id TEXT NOT NULL,
                        transaction_id TEXT NOT NULL,
                        account TEXT NOT NULL,
                        product_id TEXT NOT NULL,
                        taken_back INTEGER NOT NULL,
                        revoked_at REAL NOT NULL,
                        PRIMARY KEY (store_id, transaction_id)
                    );
                    """)
        }
        registerCrashes(&migrator)
        registerPurchaseDates(&migrator)
        return migrator
    }

    private init(pool: DatabasePool, inUse: StateInUse, storeId: String) {
        self.pool = pool
        self.inUse = inUse
        self.storeId = storeId
    }

    /// This ledger for the store `id`: what it records and reads from now on is that store's. The
    /// first store a ledger meets takes the deliveries recorded before stores had identities; a
    /// different store is reported once, as `StoreChange`, and every credit is kept.
    public func bound(to id: String) throws -> (ledger: AppLedger, change: StoreChange?) {
        // Read first: a command's start should not pay for a commit (and its fsync) when nothing changed.
        if try pool.guardedReadNow({ db in try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'store'") })
            == id
        {
            return (AppLedger(pool: pool, inUse: inUse, storeId: id), nil)
        }
        let previous: String? = try pool.guardedWriteNow { db in
            let previous = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'store'")
            if previous == nil {
                for table in ["ledger", "deliveries", "orders"] {
                    try db.execute(sql: "UPDATE \(table) SET store_id = ? WHERE store_id = ''", arguments: [id])
                }
            }
            try db.execute(
                sql:
                    "INSERT INTO meta (key, value) VALUES ('store', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                arguments: [id])
            return previous
        }
        let change = previous.flatMap { $0 == id ? nil : StoreChange(previous: $0, current: id) }
        return (AppLedger(pool: pool, inUse: inUse, storeId: id), change)
    }

    /// Adds `store_id` to the key of the ledger, the deliveries and the orders (tables rebuilt:
    /// SQLite cannot change a primary key in place). Rows recorded before get an empty store id.
    private static func keyByStore(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                CREATE TABLE ledger_new (
                    store_id TEXT NOT NULL DEFAULT '',
                    transaction_id TEXT NOT NULL,
                    claim TEXT NOT NULL,
                    product_id TEXT NOT NULL,
                    account TEXT NOT NULL,
                    order_id TEXT,
                    receipt TEXT,
                    status TEXT NOT NULL,
                    recorded_at REAL NOT NULL,
                    attempts INTEGER NOT NULL DEFAULT 0,
                    last_error TEXT,
                    next_attempt_at REAL,
                    matched_by TEXT,
                    PRIMARY KEY (store_id, transaction_id)
                );
                INSERT INTO ledger_new (transaction_id, claim, product_id, account, order_id, receipt, status, recorded_at, attempts,
                                        last_error, next_attempt_at, matched_by)
                    SELECT transaction_id, claim, product_id, account, order_id, receipt, status, recorded_at, attempts,
                           last_error, next_attempt_at, matched_by FROM ledger;
                DROP TABLE ledger;
                ALTER TABLE ledger_new RENAME TO ledger;
                CREATE TABLE deliveries_new (
                    store_id TEXT NOT NULL DEFAULT '',
                    transaction_id TEXT NOT NULL,
                    account TEXT NOT NULL,
                    product_id TEXT NOT NULL,
                    quantity INTEGER NOT NULL,
                    delivered_at REAL NOT NULL,
                    PRIMARY KEY (store_id, transaction_id)
                );
                INSERT INTO deliveries_new (transaction_id, account, product_id, quantity, delivered_at)
                    SELECT transaction_id, account, product_id, quantity, delivered_at FROM deliveries;
                DROP TABLE deliveries;
                ALTER TABLE deliveries_new RENAME TO deliveries;
                CREATE TABLE orders_new (
                    order_id TEXT PRIMARY KEY,
                    account TEXT NOT NULL,
                    product_id TEXT NOT NULL,
                    quantity INTEGER NOT NULL,
                    created_at REAL NOT NULL,
                    store_id TEXT NOT NULL DEFAULT '',
                    transaction_id TEXT,
                    UNIQUE (store_id, transaction_id)
                );
                INSERT INTO orders_new (order_id, account, product_id, quantity, created_at, transaction_id)
                    SELECT order_id, account, product_id, quantity, created_at, transaction_id FROM orders;
                DROP TABLE orders;
                ALTER TABLE orders_new RENAME TO orders;
                CREATE INDEX orders_open ON orders(account, product_id, transaction_id);
                """)
    }
}

/// The app's ledger met a store other than the one it last recorded deliveries from (a device
/// moved from the simulated store to a server, or to a fresh server).
public struct StoreChange: Sendable, Hashable {
    public let previous: String
    public let current: String

    public init(previous: String, current: String) {
        self.previous = previous
        self.current = current
    }

    public var message: String {
        "this device's purchases were recorded with store \(previous) and it now talks to store \(current): "
            + "each store's transactions are delivered once, and every credit so far is kept"
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
