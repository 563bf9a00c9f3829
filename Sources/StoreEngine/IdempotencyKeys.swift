import Foundation
import LocalState
import StoreCore
import StoreSQL

/// A response kept for an idempotency key: returned unchanged to every retry with that key.
public struct StoredResponse: Sendable, Hashable {
    public let status: Int
    public let body: Data

    public init(status: Int, body: Data) {
        self.status = status
        self.body = body
    }
}

/// A request that carries an idempotency key: the key, a hash of what was asked (method, path and
/// body), and how long the key and its answer are kept.
public struct IdempotentRequest: Sendable, Hashable {
    public let key: String
    public let requestHash: String
    public let lifetime: TimeInterval
    public let now: Date

    public init(key: String, requestHash: String, lifetime: TimeInterval, now: Date) {
        self.key = key
        self.requestHash = requestHash
        self.lifetime = lifetime
        self.now = now
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

/// The `idempotency_keys` table of the store's database. Kept beside the transactions so that a
/// payment's key, the payment and its answer are one commit (`SimulatedStore.add(_:idempotency:respond:)`).
public struct IdempotencyKeys: Sendable {
    let store: SimulatedStore

    init(_ store: SimulatedStore) {
        self.store = store
    }

    /// Reserves a key for a request other than a payment (whose `add(_:idempotency:respond:)` does
    /// it in its own commit), or reports what its earlier use left. A key older than its lifetime
    /// is forgotten and reserved anew.
    public func reserve(_ request: IdempotentRequest) async throws -> IdempotencyReservation {
        try await store.database.write { db in try Self.reserve(request, db) }
    }

    /// Stores the first response of a reservation; returns the stored one (an earlier answer wins).
    public func complete(key: String, generation: String, response: StoredResponse) async throws
        -> StoredResponse
    {
        let now = store.clock.now()
        return try await store.database.write { db in
            try Self.complete(key: key, generation: generation, response: response, at: now, db)
        }
    }

    /// Deletes keys reserved before `date`; returns how many.
    @discardableResult
    public func purge(reservedBefore date: Date) async throws -> Int {
        try await store.database.write { db in try Self.purge(reservedBefore: date, db) }
    }

    /// `purge`, after a read that finds the oldest key still in force (nearly always): then no
    /// write lock is taken.
    func purgeIfDue(reservedBefore date: Date) async throws -> Int {
        let oldest = try await store.database.read { db in
            try Double.fetchOne(
                db.cachedStatement(sql: "SELECT reserved_at FROM idempotency_keys ORDER BY seq LIMIT 1"))
        }
        guard let oldest, oldest < date.timeIntervalSince1970 else { return 0 }
        return try await purge(reservedBefore: date)
    }

    /// The next row's place in reservation order: writes are serialised, so no two rows share it.
    private static let nextSeq = "(SELECT COALESCE(MAX(seq), 0) + 1 FROM idempotency_keys)"

    static func reserve(_ request: IdempotentRequest, _ db: any SQLDatabase) throws -> IdempotencyReservation {
        guard let generation = try unused(request, db) else { return try earlierUse(request, db) }
        try db.cachedStatement(
            sql:
                "INSERT INTO idempotency_keys (key, request_hash, generation, reserved_at, seq) VALUES (?, ?, ?, ?, \(nextSeq))"
        )
        .execute(arguments: [request.key, request.requestHash, generation, request.now.timeIntervalSince1970])
        return .reserved(generation: generation)
    }

    /// A fresh generation when the key is unused (or its earlier use has expired, which is then
    /// forgotten); nil when a use in force holds it, which `earlierUse` reports. Nothing is
    /// written for an unused key: a caller that answers in the same commit stores the key with
    /// its answer in one statement (`insertAnswered`).
    static func unused(_ request: IdempotentRequest, _ db: any SQLDatabase) throws -> String? {
        if let reservedAt = try Double.fetchOne(
            db.cachedStatement(sql: "SELECT reserved_at FROM idempotency_keys WHERE key = ?"), arguments: [request.key])
        {
            guard reservedAt < request.now.timeIntervalSince1970 - request.lifetime else { return nil }
            try db.cachedStatement(sql: "DELETE FROM idempotency_keys WHERE key = ?").execute(arguments: [request.key])
        }
        return UUID().uuidString
    }

    /// What the use in force of the key left: its answer, a generation to run again under, or a
    /// mismatch.
    static func earlierUse(_ request: IdempotentRequest, _ db: any SQLDatabase) throws -> IdempotencyReservation {
        guard
            let row = try SQLRow.fetchOne(
                db.cachedStatement(sql: "SELECT * FROM idempotency_keys WHERE key = ?"), arguments: [request.key])
        else { throw StoreFailure("idempotency key \(request.key) vanished inside its own write") }
        guard try row["request_hash"] as String == request.requestHash else { return .mismatch }
        if let status = try row["status"] as Int?, let body = try row["body"] as Data? {
            return .completed(StoredResponse(status: status, body: body))
        }
        return .pending(generation: try row["generation"])
    }

    /// A key used for the first time, stored with its answer.
    static func insertAnswered(
        _ request: IdempotentRequest, generation: String, response: StoredResponse, _ db: any SQLDatabase
    ) throws -> StoredResponse {
        try db.cachedStatement(
            sql: """
                INSERT INTO idempotency_keys (key, request_hash, generation, reserved_at, status, body, completed_at, seq)
                VALUES (?, ?, ?, ?, ?, ?, ?, \(nextSeq))
                """
        ).execute(arguments: [
            request.key, request.requestHash, generation, request.now.timeIntervalSince1970, response.status,
            response.body, request.now.timeIntervalSince1970,
        ])
        return response
    }

    /// Stores the first response of a reservation; returns the stored one (an earlier answer wins).
    static func complete(key: String, generation: String, response: StoredResponse, at now: Date, _ db: any SQLDatabase)
        throws
        -> StoredResponse
    {
        try db.cachedStatement(
            sql: """
                UPDATE idempotency_keys SET status = ?, body = ?, completed_at = ?
                WHERE key = ? AND generation = ? AND status IS NULL
                """
        ).execute(arguments: [response.status, response.body, now.timeIntervalSince1970, key, generation])
        if try db.changesCount == 1 { return response }  // this is the first answer
        guard
            let row = try SQLRow.fetchOne(
                db.cachedStatement(sql: "SELECT status, body FROM idempotency_keys WHERE key = ? AND generation = ?"),
                arguments: [key, generation]),
            let status = try row["status"] as Int?, let body = try row["body"] as Data?
        else { return response }
        return StoredResponse(status: status, body: body)
    }

    /// Deletes the keys reserved before `date`: every row before the first key still in force.
    /// Rows are in the order their keys were reserved (a key reserved again after it expired is a
    /// new row), so the expired ones come first, with no index on `reserved_at` for every payment
    /// to update. A key reserved a moment out of order may wait for the next purge; `reserve`
    /// treats it as expired meanwhile.
    static func purge(reservedBefore date: Date, _ db: any SQLDatabase) throws -> Int {
        try db.execute(
            sql: """
                DELETE FROM idempotency_keys WHERE seq < COALESCE(
                    (SELECT seq FROM idempotency_keys WHERE reserved_at >= ? ORDER BY seq LIMIT 1), \(Int64.max))
                """, arguments: [date.timeIntervalSince1970])
        return try db.changesCount
    }
}
