import Foundation
import GRDB

extension SimulatedStore {
    /// Earlier servers kept their idempotency keys and transaction-signing key in `server.sqlite`
    /// beside `store.sqlite`. Brings them into the store's database (the signing key only if the
    /// store has none, so clients keep verifying with the key they know; keys and answers not
    /// already here), then renames the file (and its `-wal` and `-shm`) `server.sqlite.imported`,
    /// or `.imported-2` and on when that name is taken. Run before the server answers anything, under
    /// the state directory's open lock. A crash in between only imports again, which changes
    /// nothing. Rows that an earlier version could not have written are skipped. Returns whether
    /// there was a file to import.
    @discardableResult
    public nonisolated func importLegacyServerFile(in state: StateDirectory) throws -> Bool {
        let path = state.url.appendingPathComponent("server.sqlite").path
        return try state.withOpenLock(StoreDatabase.lockName) {
            guard FileManager.default.fileExists(atPath: path) else { return false }
            let (jwsKey, keys) = try Self.readLegacyServerFile(path)
            try database.pool.guardedWriteNow { db in
                if let jwsKey, try StoreDatabase.setting(db, "jws_key") == nil {
                    try StoreDatabase.setSetting(db, "jws_key", jwsKey)
                }
                for key in keys {
                    try db.execute(sql: """
                        INSERT OR IGNORE INTO idempotency_keys (key, request_hash, generation, reserved_at, status, body, completed_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?)
                        """, arguments: [key.key, key.requestHash, key.generation, key.reservedAt, key.status, key.body, key.completedAt])
                }
            }
            try Self.setAside(path)
            return true
        }
    }

    /// One row of the earlier `idempotency_keys`, every column checked.
    private struct LegacyKey {
        let key: String
        let requestHash: String
        let generation: String
        let reservedAt: Double
        let status: Int?
        let body: Data?
        let completedAt: Double?

        static let columns = ["key", "request_hash", "generation", "reserved_at", "status", "body", "completed_at"]

        init?(_ row: Row) {
            guard Self.columns.allSatisfy(row.hasColumn), let key = String.fromDatabaseValue(row["key"]), let requestHash = String.fromDatabaseValue(row["request_hash"]),
                  let generation = String.fromDatabaseValue(row["generation"]), let reservedAt = Double.fromDatabaseValue(row["reserved_at"])
            else { return nil }
            let status = Int.fromDatabaseValue(row["status"])
            let body = Data.fromDatabaseValue(row["body"])
            // An answer is a status in 100...599 with a body, or nothing yet.
            guard (status == nil && body == nil) || (status.map { (100...599).contains($0) } == true && body != nil) else { return nil }
            self.key = key
            self.requestHash = requestHash
            self.generation = generation
            self.reservedAt = reservedAt
            self.status = status
            self.body = body
            completedAt = Double.fromDatabaseValue(row["completed_at"])
        }
    }

    private static func readLegacyServerFile(_ path: String) throws -> (jwsKey: String?, keys: [LegacyKey]) {
        do {
            var configuration = StateLock.configuration()
            configuration.readonly = true
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            return try queue.read { db in
                let jwsKey = try db.tableExists("server_settings")
                    ? String.fetchOne(db, sql: "SELECT value FROM server_settings WHERE key = 'jws_key'") : nil
                let keys = try db.tableExists("idempotency_keys") ? Row.fetchAll(db, sql: "SELECT * FROM idempotency_keys") : []
                return (jwsKey.flatMap { Data(base64Encoded: $0) == nil ? nil : $0 }, keys.compactMap(LegacyKey.init))
            }
        } catch {
            throw StoreFailure("cannot read \(path), the server database of an earlier version: \(StateLock.explain(error, path: path)); "
                               + "move it away to start without its idempotency keys and signing key")
        }
    }

    /// Renames the imported file and its siblings to the first free `.imported` name.
    private static func setAside(_ path: String) throws {
        let files = FileManager.default
        var suffix = ".imported"
        var attempt = 1
        while files.fileExists(atPath: path + suffix) {
            attempt += 1
            suffix = ".imported-\(attempt)"
        }
        do {
            for sibling in ["-wal", "-shm"] where files.fileExists(atPath: path + sibling) {
                try files.moveItem(atPath: path + sibling, toPath: path + suffix + sibling)
            }
            try files.moveItem(atPath: path, toPath: path + suffix)
        } catch {
            throw StoreFailure("imported \(path) into store.sqlite but cannot rename it: \(error.localizedDescription); move it away by hand")
        }
    }
}
