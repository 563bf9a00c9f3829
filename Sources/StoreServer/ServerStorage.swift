import Foundation
import GRDB
import StoreEngine

/// A response kept for an idempotency key: returned unchanged to every retry with that key.
public struct StoredResponse: Sendable, Hashable {
    public let status: Int
    public let body: Data

    public init(status: Int, body: Data) {
        self.status = status
        self.body = body
    }
}

/// What an idempotency key found.
public enum IdempotencyReservation: Sendable, Hashable {
    /// First use: the request runs. `generation` names this use of the key (a key that expired and
    /// is used again gets a new one) and is what the store records on the transaction.
    case reserved(generation: String)
    /// An earlier request with this key and body started but its answer was never stored (a crash
    /// or a concurrent retry): run it again under the same generation; the store will not repeat it.
    case pending(generation: String)
    /// Answered before: send this again.
    case completed(StoredResponse)
    /// The key was used with another request (method, path or body differ).
    case mismatch
}

/// What the server keeps beyond the store: idempotency keys with their first response and the
/// transaction-signing key. Everything a second server instance would need lives here, none of it
/// only in memory; an implementation over PostgreSQL would let several instances share it.
public protocol ServerStorage: Sendable {
    /// Reserves `key` for a request whose method, path and body hash to `requestHash`, or reports
    /// what its earlier use left. A key older than `lifetime` is forgotten and reserved anew.
    func reserve(key: String, requestHash: String, now: Date, lifetime: TimeInterval) async throws -> IdempotencyReservation
    /// Stores the first response of a reservation; returns the stored one (an earlier answer wins).
    func complete(key: String, generation: String, response: StoredResponse) async throws -> StoredResponse
    /// Deletes keys reserved before `date`; returns how many.
    @discardableResult
    func purgeKeys(reservedBefore date: Date) async throws -> Int
    /// The P-256 private key (raw representation) that signs transactions, made on first use.
    func signingKey(create: @escaping @Sendable () -> Data) async throws -> Data
}

/// `ServerStorage` in its own SQLite file (WAL, busy timeout) beside the store's.
public struct SQLiteServerStorage: ServerStorage {
    let pool: DatabasePool
    /// Reservations and stored answers of concurrent requests share commits (see `GroupCommit`).
    let writer: GroupCommit

    public init(path: String) throws {
        do {
            var configuration = Configuration()
            configuration.busyMode = .timeout(5)
            pool = try DatabasePool(path: path, configuration: configuration)
            writer = GroupCommit(pool: pool)
            try Self.migrator.migrate(pool)
        } catch {
            throw StoreFailure("cannot open the server database \(path): \(error)")
        }
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
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
                CREATE TABLE server_settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                """)
        }
        return migrator
    }

    public func reserve(key: String, requestHash: String, now: Date, lifetime: TimeInterval) async throws -> IdempotencyReservation {
        try await write { db in
            if let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM idempotency_keys WHERE key = ?"), arguments: [key]) {
                let reservedAt: Double = row["reserved_at"]
                if reservedAt >= now.timeIntervalSince1970 - lifetime {
                    guard row["request_hash"] as String == requestHash else { return .mismatch }
                    if let status = row["status"] as Int?, let body = row["body"] as Data? {
                        return .completed(StoredResponse(status: status, body: body))
                    }
                    return .pending(generation: row["generation"])
                }
                try db.cachedStatement(sql: "DELETE FROM idempotency_keys WHERE key = ?").execute(arguments: [key])
            }
            let generation = UUID().uuidString
            try db.cachedStatement(sql: "INSERT INTO idempotency_keys (key, request_hash, generation, reserved_at) VALUES (?, ?, ?, ?)").execute(arguments: [key, requestHash, generation, now.timeIntervalSince1970])
            return .reserved(generation: generation)
        }
    }

    public func complete(key: String, generation: String, response: StoredResponse) async throws -> StoredResponse {
        try await write { db in
            try db.cachedStatement(sql: """
                UPDATE idempotency_keys SET status = ?, body = ?, completed_at = ?
                WHERE key = ? AND generation = ? AND status IS NULL
                """).execute(arguments: [response.status, response.body, Date().timeIntervalSince1970, key, generation])
            guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT status, body FROM idempotency_keys WHERE key = ? AND generation = ?"), arguments: [key, generation]),
                  let status = row["status"] as Int?, let body = row["body"] as Data? else { return response }
            return StoredResponse(status: status, body: body)
        }
    }

    public func purgeKeys(reservedBefore date: Date) async throws -> Int {
        try await write { db in
            try db.cachedStatement(sql: "DELETE FROM idempotency_keys WHERE reserved_at < ?").execute(arguments: [date.timeIntervalSince1970])
            return db.changesCount
        }
    }

    public func signingKey(create: @escaping @Sendable () -> Data) async throws -> Data {
        try await write { db in
            if let saved = try String.fetchOne(db, sql: "SELECT value FROM server_settings WHERE key = 'jws_key'"),
               let data = Data(base64Encoded: saved) {
                return data
            }
            let key = create()
            try db.execute(sql: "INSERT INTO server_settings (key, value) VALUES ('jws_key', ?)", arguments: [key.base64EncodedString()])
            return key
        }
    }

    /// Through the group commit, whose commit already turns a lock timeout into a readable
    /// `StoreFailure` (503 to clients).
    private func write<T: Sendable>(_ updates: @Sendable @escaping (Database) throws -> T) async throws -> T {
        try await writer.write(updates)
    }
}
