import Foundation
import GRDB

extension SimulatedStore {
    /// Earlier servers kept their idempotency keys and transaction-signing key in `server.sqlite`
    /// beside `store.sqlite`. Brings them into the store's database (the signing key only if the
    /// store has none, so clients keep verifying with the key they know; keys and answers not
    /// already here), then renames the file `server.sqlite.imported`. Run before the server
    /// answers anything. A crash in between only imports again, which changes nothing.
    /// Returns whether there was a file to import.
    @discardableResult
    public nonisolated func importLegacyServerFile(in state: StateDirectory) throws -> Bool {
        let path = state.url.appendingPathComponent("server.sqlite").path
        guard FileManager.default.fileExists(atPath: path) else { return false }
        try state.withOpenLock {
            let (jwsKey, keys) = try Self.readLegacyServerFile(path)
            try database.pool.guardedWriteNow { db in
                if let jwsKey, try StoreDatabase.setting(db, "jws_key") == nil {
                    try StoreDatabase.setSetting(db, "jws_key", jwsKey)
                }
                for row in keys {
                    try db.execute(sql: """
                        INSERT OR IGNORE INTO idempotency_keys (key, request_hash, generation, reserved_at, status, body, completed_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?)
                        """, arguments: [row["key"], row["request_hash"], row["generation"], row["reserved_at"], row["status"], row["body"],
                                         row["completed_at"]])
                }
            }
            do {
                try FileManager.default.moveItem(atPath: path, toPath: path + ".imported")
            } catch {
                throw StoreFailure("imported \(path) into store.sqlite but cannot rename it: \(error.localizedDescription); remove it by hand")
            }
        }
        return true
    }

    private static func readLegacyServerFile(_ path: String) throws -> (jwsKey: String?, keys: [Row]) {
        do {
            let queue = try DatabaseQueue(path: path, configuration: StateLock.configuration())
            defer { try? queue.close() }
            return try queue.read { db in
                let jwsKey = try db.tableExists("server_settings")
                    ? String.fetchOne(db, sql: "SELECT value FROM server_settings WHERE key = 'jws_key'") : nil
                let keys = try db.tableExists("idempotency_keys") ? Row.fetchAll(db, sql: "SELECT * FROM idempotency_keys") : []
                return (jwsKey, keys)
            }
        } catch {
            throw StoreFailure("cannot read \(path), the server database of an earlier version: \(StateLock.explain(error, path: path)); "
                               + "move it away to start without its idempotency keys and signing key")
        }
    }
}
