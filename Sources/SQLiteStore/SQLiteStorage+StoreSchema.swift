import Foundation
import LocalState
import StoreCore
import StoreSQL

/// The store's schema in SQLite: every step of its history, oldest first, as GRDB's migrator
/// records them in `store.sqlite`. PostgreSQL's history is `PostgresStorage.storeMigrations`; a
/// change of the schema is a step in both, and `SchemaParityTests` compares what they make.
/// A step's text never changes once released, so values in it are written out as they were
/// then: transaction states 1 (purchased) and 4 (deferred), ownership 'PURCHASED'.
extension SQLiteStorage {
    /// `store.sqlite` in the state directory, created and migrated if need be. `thorough`: check
    /// every index against its table before use (a server's start; commands check each page only).
    public static func store(in state: StateDirectory, thorough: Bool = false) throws -> SQLiteStorage {
        let path = try state.filePath(storeFile)
        do {
            return try SQLiteStorage(
                file: storeFile, kind: storeKind, migrations: storeMigrations, state: state, lock: storeLock,
                thorough: thorough)
        } catch let failure as StoreFailure {
            throw failure
        } catch {
            throw StoreFailure("cannot open the store database \(path): \(StateLock.explain(error, path: path))")
        }
    }

    static let storeFile = "store.sqlite"

    /// The lock file that serialises opening the store (`StateDirectory.withOpenLock`); earlier
    /// versions used it for the ledger too.
    static let storeLock = "open.lock"

    /// What `store.sqlite` is: SQLite's application id "SFST" marks the file as a store.
    static let storeKind = DatabaseKind(
        description: "the store database", applicationId: 0x5346_5354, signatureTable: "transactions")

    /// The SQLite schema's history, oldest first.
    package static var storeMigrations: [SchemaMigration] {
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
                            WHERE auto_renew = 1 AND expires_date IS NOT NULL AND state = 1 AND revocation_date IS NULL;
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
                        ALTER TABLE transactions ADD COLUMN ownership TEXT NOT NULL DEFAULT 'PURCHASED';
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
        migrations.append(
            SchemaMigration("v25: explicit ordering") { db in
                // The order rows were written in, as a column both dialects have, in place of
                // SQLite's implicit rowid (which PostgreSQL has no equivalent of).
                try db.execute(
                    sql: """
                        ALTER TABLE idempotency_keys ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
                        UPDATE idempotency_keys SET seq = rowid;
                        CREATE INDEX idempotency_keys_seq ON idempotency_keys(seq);
                        ALTER TABLE mass_extensions ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
                        UPDATE mass_extensions SET seq = rowid;
                        ALTER TABLE notification_attempts ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
                        UPDATE notification_attempts SET seq = rowid;
                        """)
            })
        migrations.append(
            SchemaMigration("v26: introductory offer eligibility") { db in
                // The app server's signed decision on the introductory offer, kept with a payment
                // until it completes, which may be after a restart.
                try db.execute(sql: "ALTER TABLE transactions ADD COLUMN intro_offer_allowed INTEGER")
            })
        migrations.append(
            SchemaMigration("v27: refund reversals") { db in
                // When a refund was last reversed: the transaction's signed facts changed then, in
                // the row and in the snapshot the journal keeps of the reversal.
                try db.execute(
                    sql: """
                        ALTER TABLE transactions ADD COLUMN refund_reversed_at REAL;
                        ALTER TABLE journal ADD COLUMN refund_reversed_at REAL;
                        """)
            })
        migrations.append(
            SchemaMigration("v28: prorated refunds") { db in
                // The share of the transaction a prorated refund gave back, in thousandths of a
                // percent as Apple's revocationPercentage counts it; NULL for a full refund.
                try db.execute(
                    sql: """
                        ALTER TABLE transactions ADD COLUMN revocation_percentage INTEGER;
                        ALTER TABLE journal ADD COLUMN revocation_percentage INTEGER;
                        """)
            })
        migrations.append(
            SchemaMigration("v29: family edits") { db in
                // The Sandbox Test Family each edited account is in while the store runs (NULL:
                // none), in place of the catalog's `family`.
                try db.execute(sql: "CREATE TABLE family_edits (account TEXT PRIMARY KEY, family TEXT)")
            })
        migrations.append(
            SchemaMigration("v30: refund request reasons") { db in
                // The customer's reason, kept with the waiting request so the manager shows it
                // wherever the request was made. A request opened before had none kept: `other`,
                // the reason `manage request-refund` gives when it is not told one.
                try db.execute(sql: "ALTER TABLE refund_requests ADD COLUMN reason TEXT NOT NULL DEFAULT 'other'")
            })
        migrations.append(
            SchemaMigration("v31: StoreKit messages") { db in
                // The messages the App Store sent each account (`Message.messages`): one waits
                // until an app of the account takes it (`delivered_at` NULL). A win-back offer's
                // is sent once per lapse, `episode` naming it (the latest transaction of the
                // group), so the same lapse never sends it twice.
                try db.execute(
                    sql: """
                        CREATE TABLE store_messages (
                            seq INTEGER PRIMARY KEY AUTOINCREMENT, account TEXT NOT NULL, reason TEXT NOT NULL,
                            product_id TEXT, offer_id TEXT, episode TEXT, sent_at REAL NOT NULL, delivered_at REAL);
                        CREATE INDEX store_messages_account ON store_messages(account, seq);
                        """)
            })
        migrations.append(
            SchemaMigration("v32: purchase intents") { db in
                // Purchases customers started outside the app (`PurchaseIntent`), each waiting
                // until an app of the account takes it (`delivered_at` NULL).
                try db.execute(
                    sql: """
                        CREATE TABLE purchase_intents (
                            seq INTEGER PRIMARY KEY AUTOINCREMENT, account TEXT NOT NULL, product_id TEXT NOT NULL,
                            offer_id TEXT, created_at REAL NOT NULL, delivered_at REAL);
                        CREATE INDEX purchase_intents_account ON purchase_intents(account, seq);
                        """)
            })
        return migrations
    }
}

/// Finds the waiting Ask to Buy requests without reading every transaction: the sweep looks
/// for them every time it runs.
private func askToBuyExpiryMigration(_ db: any SQLDatabase) throws {
    try db.execute(
        sql: """
            CREATE INDEX transactions_deferred ON transactions(purchase_date) WHERE state = 4
            """)
}

/// Each mass extension request, and each subscriber it handled with the outcome, keyed so a
/// subscriber is handled once per request; a summary notification names the request it sums up.
private func massExtensionsMigration(_ db: any SQLDatabase) throws {
    try db.execute(
        sql: """
            CREATE TABLE mass_extensions (
                request_identifier TEXT PRIMARY KEY,
                product_id TEXT NOT NULL,
                days INTEGER NOT NULL,
                reason INTEGER NOT NULL,
                storefronts TEXT,
                requested_at REAL NOT NULL,
                completed_at REAL
            );
            CREATE INDEX mass_extensions_open ON mass_extensions(requested_at) WHERE completed_at IS NULL;
            CREATE TABLE mass_extension_items (
                request_identifier TEXT NOT NULL,
                original_id TEXT NOT NULL,
                transaction_id TEXT NOT NULL,
                outcome TEXT NOT NULL,
                extended_at REAL NOT NULL,
                PRIMARY KEY (request_identifier, original_id)
            ) WITHOUT ROWID;
            CREATE INDEX mass_extension_items_chain ON mass_extension_items(original_id, extended_at);
            ALTER TABLE notifications ADD COLUMN mass_extension TEXT;
            """)
}

/// The tables of the Retention Messaging API. A message's images are listed beside it so an
/// image in use is found without reading every message.
private func retentionMessagesMigration(_ db: any SQLDatabase) throws {
    try db.execute(
        sql: """
            CREATE TABLE retention_images (
                id TEXT PRIMARY KEY, state TEXT NOT NULL, size TEXT NOT NULL, png BLOB NOT NULL,
                uploaded_at REAL NOT NULL);
            CREATE TABLE retention_messages (
                id TEXT PRIMARY KEY, state TEXT NOT NULL, body TEXT NOT NULL, uploaded_at REAL NOT NULL);
            CREATE TABLE retention_message_images (
                message_id TEXT NOT NULL, image_id TEXT NOT NULL, PRIMARY KEY (message_id, image_id));
            CREATE INDEX retention_message_images_by_image ON retention_message_images(image_id);
            CREATE TABLE retention_defaults (
                product_id TEXT NOT NULL, locale TEXT NOT NULL, message_id TEXT NOT NULL,
                PRIMARY KEY (product_id, locale));
            CREATE TABLE retention_performance_tests (
                id TEXT PRIMARY KEY, target TEXT NOT NULL, started_at REAL NOT NULL, result TEXT);
            """)
}

/// Billing plans: how each auto-renewable period was paid, a monthly payment's place in its
/// commitment (the journal keeps it with the rest of the snapshot), and on a subscription's
/// latest period whether a new commitment follows and which plan the next renewal switches to.
private func billingPlansMigration(_ db: any SQLDatabase) throws {
    try db.execute(
        sql: """
            ALTER TABLE transactions ADD COLUMN billing_plan TEXT;
            ALTER TABLE transactions ADD COLUMN commitment_period INTEGER;
            ALTER TABLE transactions ADD COLUMN commitment_price TEXT;
            ALTER TABLE transactions ADD COLUMN commitment_expires REAL;
            ALTER TABLE transactions ADD COLUMN commitment_auto_renew INTEGER;
            ALTER TABLE transactions ADD COLUMN renewal_plan TEXT;
            ALTER TABLE journal ADD COLUMN billing_plan TEXT;
            ALTER TABLE journal ADD COLUMN commitment_period INTEGER;
            ALTER TABLE journal ADD COLUMN commitment_price TEXT;
            ALTER TABLE journal ADD COLUMN commitment_expires REAL;
            """)
}
