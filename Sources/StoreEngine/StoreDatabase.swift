import Foundation
import LocalState
import SQLiteStore
import ServerRecords
import StoreCore
import StoreKitModel
import StoreSQL

/// The simulated store's durable state: transactions, the test controls, the signing keys, the
/// app server's record of consumed transaction ids, and a server's idempotency keys. SQLite in WAL mode with a busy timeout,
/// so a second process on the same state directory waits instead of corrupting it.
///
/// Opened apart from `SimulatedStore`, which needs the catalog: a command opens it while the
/// catalog loads.
public struct StoreDatabase: Sendable {
    /// Where the tables are: the state directory's SQLite file unless the store was opened on
    /// another storage.
    package let storage: any StoreStorage

    /// The lock file that serialises opening the store (`StateDirectory.withOpenLock`); earlier
    /// versions used it for the ledger too.
    static let lockName = "open.lock"

    /// What `store.sqlite` is: SQLite's application id "SFST" marks the file as a store.
    static let kind = DatabaseKind(
        description: "the store database", applicationId: 0x5346_5354, signatureTable: "transactions")

    /// `store.sqlite` in the state directory, created and migrated if need be. `thorough`: check
    /// every index against its table before use (a server's start; commands check each page only).
    public init(state: StateDirectory, thorough: Bool = false) throws {
        let path = try state.filePath("store.sqlite")
        do {
            storage = try SQLiteStorage(
                file: "store.sqlite", kind: Self.kind, migrations: Self.migrations, state: state, lock: Self.lockName,
                thorough: thorough)
        } catch let failure as StoreFailure {
            throw failure
        } catch {
            throw Self.cannotOpen(path, error)
        }
    }

    /// A store on storage opened elsewhere (PostgreSQL), already migrated.
    public init(storage: any StoreStorage) {
        self.storage = storage
    }

    var location: String { storage.location }
    var dialect: SQLDialect { storage.dialect }
    var health: StorageHealth { storage.health }

    func read<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) throws -> T) async throws -> T {
        try await storage.read(body)
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) throws -> T) async throws -> T {
        try await storage.write(body)
    }

    func writeNow<T>(_ body: (any SQLDatabase) throws -> T) throws -> T {
        try storage.writeNow(body)
    }

    /// Opening failed, here or in the store's first write (`SimulatedStore.init`): which of the two
    /// meets a lock another process holds depends on what the last process left in the log, and the
    /// user reads the same message either way.
    static func cannotOpen(_ path: String, _ error: any Error) -> StoreFailure {
        StoreFailure("cannot open the store database \(path): \(StateLock.explain(error, path: path))")
    }

    /// The SQLite schema's history, oldest first.
    static var migrations: [SchemaMigration] {
        var migrations: [SchemaMigration] = []
        migrations.append(
            SchemaMigration("v1") { db in
                try db.execute(
                    sql: """
                        CREATE TABLE transactions (
                            seq INTEGER PRIMARY KEY AUTOINCREMENT,
                            id TEXT NOT NULL UNIQUE,
                            original_id TEXT NOT NULL,
                            product_id TEXT NOT NULL,
                            quantity INTEGER NOT NULL,
                            account TEXT NOT NULL,
                            order_id TEXT,
                            state INTEGER NOT NULL,
                            error_domain TEXT,
                            error_code INTEGER,
                            purchase_date REAL NOT NULL,
                            expires_date REAL,
                            revocation_date REAL,
                            auto_renew INTEGER NOT NULL DEFAULT 1,
                            finished INTEGER NOT NULL DEFAULT 0,
                            pending_outcome TEXT,
                            storefront TEXT NOT NULL,
                            price TEXT NOT NULL,
                            currency TEXT NOT NULL,
                            reason TEXT NOT NULL
                        );
                        CREATE INDEX transactions_account ON transactions(account, finished);
                        CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                        CREATE TABLE consumed (
                            transaction_id TEXT PRIMARY KEY,
                            account TEXT NOT NULL,
                            product_id TEXT NOT NULL,
                            claim TEXT NOT NULL,
                            consumed_at REAL NOT NULL
                        );
                        """)
            })
        migrations.append(
            SchemaMigration("v2: purchase owners") { db in
                // The process waiting to complete a purchasing transaction (see ProcessIdentity).
                try db.execute(sql: "ALTER TABLE transactions ADD COLUMN owner TEXT")
            })
        migrations.append(
            SchemaMigration("v3: journal and request keys") { db in
                // Every update the queue delivers, in commit order, so a server can hand them to clients by
                // cursor (no miss, no repeat) and a second process on the same file sees them too. Each row
                // is a snapshot: a later change of the transaction appends a new row.
                try db.execute(
                    sql: """
                        CREATE TABLE journal (
                            cursor INTEGER PRIMARY KEY AUTOINCREMENT,
                            account TEXT NOT NULL,
                            transaction_id TEXT NOT NULL,
                            original_id TEXT NOT NULL,
                            product_id TEXT NOT NULL,
                            quantity INTEGER NOT NULL,
                            order_id TEXT,
                            state INTEGER NOT NULL,
                            error_domain TEXT,
                            error_code INTEGER,
                            purchase_date REAL NOT NULL,
                            recorded_at REAL NOT NULL
                        );
                        CREATE INDEX journal_account ON journal(account, cursor);
                        ALTER TABLE transactions ADD COLUMN request_key TEXT;
                        CREATE UNIQUE INDEX transactions_request_key ON transactions(request_key) WHERE request_key IS NOT NULL;
                        """)
            })
        migrations.append(
            SchemaMigration("v4: idempotency keys") { db in
                // A server's idempotency keys with their first answers, here rather than in a file of
                // their own so that a payment, its key and its answer are one commit.
                try db.execute(
                    sql: """
                        CREATE TABLE idempotency_keys (
                            key TEXT PRIMARY KEY,
                            request_hash TEXT NOT NULL,
                            generation TEXT NOT NULL,
                            reserved_at REAL NOT NULL,
                            status INTEGER,
                            body BLOB,
                            completed_at REAL
                        );
                        CREATE INDEX idempotency_keys_reserved ON idempotency_keys(reserved_at);
                        """)
            })
        migrations.append(
            SchemaMigration("v5: keys purged in reservation order") { db in
                // Keys are purged oldest first in rowid order (`IdempotencyKeys.purge`): the index on
                // reserved_at served only that hourly purge, and every payment's commit wrote a page of it.
                try db.execute(sql: "DROP INDEX IF EXISTS idempotency_keys_reserved")
            })
        migrations.append(
            SchemaMigration("v6: offers and revocation reasons") { db in
                // The offer a transaction was bought with and why it was refunded, on the transaction
                // and on each journaled snapshot, with what was charged: a client reading the journal
                // sees what StoreKit 2's Transaction.updates would show.
                try db.execute(
                    sql: """
                        ALTER TABLE transactions ADD COLUMN offer_type TEXT;
                        ALTER TABLE transactions ADD COLUMN offer_id TEXT;
                        ALTER TABLE transactions ADD COLUMN offer_mode TEXT;
                        ALTER TABLE transactions ADD COLUMN offer_period TEXT;
                        ALTER TABLE transactions ADD COLUMN revocation_reason INTEGER;
                        ALTER TABLE journal ADD COLUMN price TEXT;
                        ALTER TABLE journal ADD COLUMN currency TEXT;
                        ALTER TABLE journal ADD COLUMN expires_date REAL;
                        ALTER TABLE journal ADD COLUMN offer_type TEXT;
                        ALTER TABLE journal ADD COLUMN offer_id TEXT;
                        ALTER TABLE journal ADD COLUMN offer_mode TEXT;
                        ALTER TABLE journal ADD COLUMN offer_period TEXT;
                        ALTER TABLE journal ADD COLUMN revocation_date REAL;
                        ALTER TABLE journal ADD COLUMN revocation_reason INTEGER;
                        """)
            })
        migrations.append(
            SchemaMigration("v7: renewal state") { db in
                // A subscription chain's renewal state, on its latest transaction: what it renews to,
                // an open billing issue (retrying until, grace until), a price increase, and why it
                // stopped renewing.
                try db.execute(
                    sql: """
                        ALTER TABLE transactions ADD COLUMN renewal_product_id TEXT;
                        ALTER TABLE transactions ADD COLUMN billing_retry_until REAL;
                        ALTER TABLE transactions ADD COLUMN grace_expires REAL;
                        ALTER TABLE transactions ADD COLUMN price_increase INTEGER;
                        ALTER TABLE transactions ADD COLUMN expiration_reason INTEGER;
                        """)
            })
        migrations.append(
            SchemaMigration("v8: offer nonces and codes") { db in
                // A promotional offer's nonce is good once; a one-time offer code redeems once, a
                // custom code once per account.
                try db.execute(
                    sql: """
                        CREATE TABLE offer_nonces (nonce TEXT PRIMARY KEY, used_at REAL NOT NULL);
                        CREATE TABLE redeemed_codes (code TEXT NOT NULL, account TEXT NOT NULL, transaction_id TEXT NOT NULL, redeemed_at REAL NOT NULL);
                        CREATE INDEX redeemed_codes_code ON redeemed_codes(code, account);
                        """)
            })
        migrations.append(
            SchemaMigration("v9: renewal indexes") { db in
                // A sweep for due renewals runs every second in a server: it reads only the chains in
                // force (their latest transaction alone has auto-renew on), not the whole history, and
                // a chain's latest is found by its original id, not by scanning every later row.
                try db.execute(
                    sql: """
                        CREATE INDEX transactions_renewal_due ON transactions(expires_date)
                            WHERE auto_renew = 1 AND expires_date IS NOT NULL AND state = \(StateSQL.purchased) AND revocation_date IS NULL;
                        CREATE INDEX transactions_chain ON transactions(original_id, seq);
                        """)
            })
        migrations.append(
            SchemaMigration("v10: offers at the next renewal") { db in
                // An offer taken on the plan in force starts at its next renewal: the chain's latest
                // transaction keeps it until then.
                try db.execute(
                    sql: """
                        ALTER TABLE transactions ADD COLUMN renewal_offer_type TEXT;
                        ALTER TABLE transactions ADD COLUMN renewal_offer_id TEXT;
                        ALTER TABLE transactions ADD COLUMN renewal_offer_mode TEXT;
                        ALTER TABLE transactions ADD COLUMN renewal_offer_period TEXT;
                        """)
            })
        migrations.append(
            SchemaMigration("v11: upgrades and declines") { db in
                // A subscription a higher level replaced: when, and the unused part refunded (an
                // exact decimal, as `price`). A declined Ask to Buy request, which the app sees as a
                // cancellation. The journal keeps them with the rest of the snapshot, and whether
                // it was a renewal (transactions have `reason`).
                try db.execute(
                    sql: """
                        ALTER TABLE transactions ADD COLUMN upgrade_date REAL;
                        ALTER TABLE transactions ADD COLUMN upgrade_refund TEXT;
                        ALTER TABLE transactions ADD COLUMN declined INTEGER NOT NULL DEFAULT 0;
                        ALTER TABLE journal ADD COLUMN upgrade_date REAL;
                        ALTER TABLE journal ADD COLUMN upgrade_refund TEXT;
                        ALTER TABLE journal ADD COLUMN failure_context TEXT;
                        ALTER TABLE journal ADD COLUMN renewal INTEGER NOT NULL DEFAULT 0;
                        """)
            })
        migrations.append(
            SchemaMigration("v12: App Store Server API") { db in
                // What a developer's server told the store through the App Store Server API: the app
                // account token set on a chain, the consumption information sent for a refund request
                // (as sent, for /admin to show), and each renewal-date extension by its request id,
                // so a retried request is answered the same and extensions per year can be counted.
                try db.execute(
                    sql: """
                        ALTER TABLE transactions ADD COLUMN app_account_token TEXT;
                        CREATE TABLE consumption (
                            transaction_id TEXT PRIMARY KEY,
                            body TEXT NOT NULL,
                            received_at REAL NOT NULL
                        );
                        CREATE TABLE renewal_extensions (
                            request_identifier TEXT PRIMARY KEY,
                            original_id TEXT NOT NULL,
                            transaction_id TEXT NOT NULL,
                            days INTEGER NOT NULL,
                            reason INTEGER NOT NULL,
                            new_expires_date REAL NOT NULL,
                            extended_at REAL NOT NULL
                        );
                        CREATE INDEX renewal_extensions_chain ON renewal_extensions(original_id, extended_at);
                        CREATE INDEX transactions_account_seq ON transactions(account, seq);
                        """)
            })
        migrations.append(
            SchemaMigration("v13: server notifications") { db in
                // The outbox of App Store Server Notifications: each is written in the commit of its
                // event, with one delivery row per URL set then. The payload is signed once, when the
                // deliverer first takes it, so every retry sends the same bytes and UUID. `dedupe`
                // names an event that a sweep finds by time (an expiry), so it is told once; the
                // sweep reads expiries by time through the two partial indexes.
                try db.execute(
                    sql: """
                        CREATE TABLE notifications (
                            seq INTEGER PRIMARY KEY AUTOINCREMENT,
                            uuid TEXT NOT NULL UNIQUE,
                            type TEXT NOT NULL,
                            subtype TEXT,
                            transaction_id TEXT,
                            original_id TEXT,
                            created_at REAL NOT NULL,
                            dedupe TEXT UNIQUE,
                            signed_payload TEXT
                        );
                        CREATE INDEX notifications_created ON notifications(created_at, seq);
                        CREATE INDEX notifications_transaction ON notifications(transaction_id);
                        CREATE TABLE notification_deliveries (
                            uuid TEXT NOT NULL,
                            url TEXT NOT NULL,
                            attempts INTEGER NOT NULL DEFAULT 0,
                            next_attempt REAL,
                            delivered_at REAL,
                            PRIMARY KEY (uuid, url)
                        ) WITHOUT ROWID;
                        CREATE INDEX notification_deliveries_due ON notification_deliveries(next_attempt) WHERE next_attempt IS NOT NULL;
                        CREATE TABLE notification_attempts (
                            uuid TEXT NOT NULL,
                            url TEXT NOT NULL,
                            attempted_at REAL NOT NULL,
                            result TEXT NOT NULL,
                            http_status INTEGER,
                            detail TEXT
                        );
                        CREATE INDEX notification_attempts_uuid ON notification_attempts(uuid, attempted_at);
                        CREATE INDEX transactions_expiry ON transactions(expires_date) WHERE expires_date IS NOT NULL AND auto_renew = 0;
                        CREATE INDEX transactions_grace ON transactions(grace_expires) WHERE grace_expires IS NOT NULL;
                        """)
            })
        migrations.append(
            SchemaMigration("v14: refund requests") { db in
                // A refund the customer asked for, until the App Store grants or declines it.
                try db.execute(
                    sql: "CREATE TABLE refund_requests (transaction_id TEXT PRIMARY KEY, requested_at REAL NOT NULL)")
            })
        migrations.append(
            SchemaMigration("v15: issued signatures") { db in
                // The signature of each transaction JWS a server issued, by the SHA-256 of its signing
                // input, so the same transaction state is answered with the same JWS after a restart.
                try db.execute(
                    sql:
                        "CREATE TABLE issued_signatures (digest BLOB PRIMARY KEY, signature TEXT NOT NULL) WITHOUT ROWID"
                )
            })
        migrations.append(
            SchemaMigration("v16: deliveries by URL") { db in
                // The deliverer reads what is due URL by URL, so one URL's backlog does not hide another's.
                try db.execute(
                    sql: """
                        CREATE INDEX notification_deliveries_url_due ON notification_deliveries(url, next_attempt) WHERE next_attempt IS NOT NULL
                        """)
            })
        migrations.append(
            SchemaMigration("v17: family sharing") { db in
                // A family member's copy of a shared purchase names the purchaser's transaction it
                // copies (`shared_from`); a purchase whose sharing was stopped is not shared again.
                try db.execute(
                    sql: """
                        ALTER TABLE transactions ADD COLUMN ownership TEXT NOT NULL DEFAULT '\(OwnershipType.purchased.rawValue)';
                        ALTER TABLE transactions ADD COLUMN shared_from TEXT;
                        CREATE INDEX transactions_shared_from ON transactions(shared_from) WHERE shared_from IS NOT NULL;
                        ALTER TABLE journal ADD COLUMN ownership TEXT;
                        CREATE TABLE sharing_stopped (original_id TEXT PRIMARY KEY, stopped_at REAL NOT NULL);
                        """)
            })
        migrations.append(
            SchemaMigration("v18: renewal prices") { db in
                // A price increase's new renewal price, on the subscription's latest period (an exact
                // decimal, as `price`); each renewal at it keeps it for the next.
                try db.execute(sql: "ALTER TABLE transactions ADD COLUMN renewal_price TEXT")
            })
        migrations.append(SchemaMigration("v19: Ask to Buy expiry", askToBuyExpiryMigration))
        migrations.append(SchemaMigration("v20: mass extensions", massExtensionsMigration))
        migrations.append(SchemaMigration("v21: retention messages", retentionMessagesMigration))
        migrations.append(
            SchemaMigration("v22: consumption request reasons") { db in
                // The customer's reason for a refund request, which CONSUMPTION_REQUEST signs.
                try db.execute(sql: "ALTER TABLE notifications ADD COLUMN consumption_request_reason TEXT")
            })
        migrations.append(
            SchemaMigration("v23: server finishes") { db in
                // Transactions the app's server finished with Finish Transaction, not the app.
                try db.execute(
                    sql: "CREATE TABLE server_finishes (transaction_id TEXT PRIMARY KEY, finished_at REAL NOT NULL)")
            })
        migrations.append(SchemaMigration("v24: billing plans", billingPlansMigration))
        return migrations
    }
}

/// Why a transaction exists, as StoreKit 2's `transactionReason` and Xcode's manager show it.
enum TransactionReason: String, Sendable {
    case purchase, renewal, restore
    /// A downgrade or crossgrade bought while another plan of the group is in force, or an offer
    /// taken on the plan in force: the payment completes as a copy in the subscription that
    /// grants nothing itself; the plan in force renews to it.
    case planChange
    /// A non-consumable the account owns, or the plan in force, bought again: delivered again as
    /// a restore is, no purchase or period of its own.
    case redownload

    /// A copy of a purchase the App Store already has (a restore, a re-download, a plan change
    /// waiting for the renewal): nothing was paid for it.
    var isCopy: Bool {
        switch self {
        case .restore, .redownload, .planChange: true
        case .purchase, .renewal: false
        }
    }
}

/// The transaction a notification is about.
struct NotificationSubject: Sendable, Hashable {
    let id: String
    let originalId: String
}

/// One row of `transactions`, with the fields the store needs beyond StoreKit's transaction.
struct StoredTransaction: Sendable, Hashable {
    var transaction: Transaction
    var storefront: String
    var price: Decimal
    var currency: String
    var expiresDate: Date?
    var revocationDate: Date?
    var autoRenew: Bool
    var pendingOutcome: PaymentOutcome?
    var reason: TransactionReason
    var offer: TransactionOffer? = nil
    var revocationReason: RevocationReason? = nil
    /// The plan a downgrade or crossgrade chose for the next renewal; nil renews the same product.
    var renewalProductId: String? = nil
    /// While a billing issue is open: when billing retry gives up.
    var billingRetryUntil: Date? = nil
    /// While a billing issue is open with the grace period on: when access ends.
    var graceExpires: Date? = nil
    var priceIncrease: PriceIncreaseStatus? = nil
    var expirationReason: ExpirationReason? = nil
    /// What the subscription renews at once a price increase set it; nil: the catalog's price.
    var renewalPrice: Decimal? = nil
    /// How an auto-renewable period was billed; nil for other products (and for periods kept
    /// from before billing plans, which were all paid up front).
    var billingPlan: BillingPlanType? = nil
    /// A monthly payment's place in its 12-month commitment.
    var commitment: TransactionCommitment? = nil
    /// On a commitment's latest payment: whether a new commitment follows its end (the
    /// customer's auto-renew choice; the monthly payments go on regardless).
    var commitmentAutoRenew: Bool? = nil
    /// The billing plan the next renewal, or the commitment's end, switches to; nil keeps the plan.
    var renewalPlan: BillingPlanType? = nil

    /// The price a price increase set for a renewal to `productId`: it applies to the plan it was
    /// made on; a plan change renews at the new plan's price (nil).
    func increasedPrice(renewingTo productId: String) -> Decimal? {
        productId == transaction.productId ? renewalPrice : nil
    }
    /// An offer the next renewal takes (one bought on the plan in force).
    var renewalOffer: TransactionOffer? = nil
    /// Set when a higher level replaced this subscription before its period ended.
    var upgrade: Upgrade? = nil
    /// A parent declined this Ask to Buy request.
    var declined = false
    /// Set by a server through the App Store Server API; renewals and restores keep it.
    var appAccountToken: UUID? = nil
    /// `familyShared`: a family member's copy of the purchase `sharedFrom`.
    var ownership: OwnershipType = .purchased
    var sharedFrom: String? = nil
    /// What a server notification will tell of this change when it is recorded; not stored.
    var notification: NotificationEvent? = nil
    /// The transaction that notification is about when it is not this one (a plan change tells
    /// of the plan in force, which renews to it); not stored.
    var notificationSubject: NotificationSubject? = nil

    var id: String { transaction.id }

    /// The transaction as the app is told of it: with StoreKit 2's terms once it is purchased
    /// or restored (nothing was charged before, or for a failure).
    var published: Transaction {
        var published = transaction
        published.failureContext = failureContext
        if transaction.state.hasReceipt { published.terms = terms }
        return published
    }

    /// StoreKit 2's terms as this row has them.
    var terms: TransactionTerms {
        TransactionTerms(
            price: price, currency: currency, expirationDate: expiresDate, offer: offer,
            revocation: Revocation(date: revocationDate, reason: revocationReason), upgrade: upgrade,
            isRenewal: reason == .renewal,
            ownership: ownership, billingPlan: billingPlan, commitment: commitment)
    }
}
