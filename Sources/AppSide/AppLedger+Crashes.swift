import Foundation
import GRDB
import StoreCore

/// The app build's crash while delivering a product, as a scenario plants it: the transaction is
/// never finished, so the queue offers it at every launch, and every launch crashes again.
public struct AppCrash: Error, Sendable, Hashable, CustomStringConvertible {
    public let transactionId: String
    public let productId: String
    /// How many times delivering this product has crashed the app, this one included.
    public let crashes: Int

    public init(transactionId: String, productId: String, crashes: Int) {
        self.transactionId = transactionId
        self.productId = productId
        self.crashes = crashes
    }

    public var description: String {
        "the app crashed delivering \(productId) (transaction \(transactionId), crash \(crashes)): the transaction stays unfinished, "
            + "so the queue offers it at every launch and the app crashes again. Break the loop: fix the app (storefront reset, or `x` "
            + "on the crash screen), or remove the transaction (storefront manage delete \(transactionId))"
    }
}

extension AppLedger {
    static func registerCrashes(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v5: crashes while delivering") { db in
            // A product whose delivery crashes this app build, and how often it has.
            try db.execute(
                sql: """
                    CREATE TABLE crashing_products (
                        product_id TEXT PRIMARY KEY,
                        crashes INTEGER NOT NULL DEFAULT 0
                    );
                    """)
        }
    }

    /// From now on, delivering any of `productIds` crashes the app.
    public func crash(delivering productIds: [String]) throws {
        try pool.guardedWriteNow { db in
            for id in productIds {
                try db.execute(
                    sql: "INSERT INTO crashing_products (product_id) VALUES (?) ON CONFLICT(product_id) DO NOTHING",
                    arguments: [id])
            }
        }
    }

    /// The fixed build: no delivery crashes any more.
    public func fixCrashes() throws {
        try pool.guardedWriteNow { db in try db.execute(sql: "DELETE FROM crashing_products") }
    }

    /// In the caller's write: counts a crash delivering `productId`, durably (the next launch
    /// knows it crashed before); nil when delivering it does not crash.
    func crash(delivering productId: String, transactionId: String, _ db: Database) throws -> AppCrash? {
        try db.execute(
            sql: "UPDATE crashing_products SET crashes = crashes + 1 WHERE product_id = ?", arguments: [productId])
        guard db.changesCount > 0,
            let crashes = try Int.fetchOne(
                db, sql: "SELECT crashes FROM crashing_products WHERE product_id = ?", arguments: [productId])
        else { return nil }
        return AppCrash(transactionId: transactionId, productId: productId, crashes: crashes)
    }
}
