import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import StoreCore
import StoreSQL

/// A store's tables in a PostgreSQL database, shared by any number of servers.
///
/// A server's concurrent writes are committed together, in batches (`WriteBatches`). Batches are
/// serialised across every process on the database by one transaction-scoped advisory lock,
/// taken first in each: the engine reads what it then changes (ids, keys, a
/// subscription's latest period) as SQLite's single writer lets it, journal cursors are handed out
/// in commit order (a client reading "after cursor N" never skips one committed late), and renewal
/// sweeps and notification claims are never done twice. Reads run on REPEATABLE READ snapshots
/// beside the writers. A commit returns after PostgreSQL has flushed it (`synchronous_commit` on,
/// its default).
public final class PostgresStorage: StoreStorage {
    /// The advisory lock of the store's writes: "SFST", as the SQLite file's application id.
    static let writeLock: Int64 = 0x5346_5354

    public let location: String
    public let health = StorageHealth()
    public var dialect: SQLDialect { .postgres }
    let connections: ConnectionPool
    let threads: NIOThreadPool
    let place: PostgresLocation
    /// The server's writes waiting for their batch (`batchedWrite`).
    let batches = WriteBatches()
    /// A server's sign of life for `reset`; nil for other uses of the store.
    private let presence: ServerPresence?
    /// A server's ear for the other servers' commits; nil for other uses of the store.
    private let listener: CommitListener?
    /// Where every batch of writes announces its commit (`CommitListener`).
    let commitChannel: String

    /// The record of the schema's steps applied.
    static let migrationsTable = "storefront_migrations"

    /// What a storefront's connections call themselves (`pg_stat_activity.application_name`).
    static let applicationName = "storefront"

    /// Defaults of `serve --db-pool-size` and `--db-connect-timeout`.
    public static let defaultPoolSize = 8
    public static let defaultConnectTimeout: Duration = .seconds(10)
    /// Default of `serve --db-statement-timeout`: a statement (a wait for the write lock included)
    /// that takes longer is cancelled by PostgreSQL, and its request fails instead of hanging.
    public static let defaultStatementTimeout: Duration = .seconds(30)
    /// How much longer than PostgreSQL's own timeouts this side waits for an answer before it
    /// gives the connection up (see `PooledConnection`): PostgreSQL's cancellation comes first
    /// when PostgreSQL can still send it.
    static let deadlineGrace: Duration = .seconds(2)

    /// Connects `poolSize` connections (failing at once with what to do when the server cannot be
    /// reached), creates the schema or brings it up to date, and refuses a schema newer than
    /// `migrations` knows. `schema`: a PostgreSQL schema to keep the tables in (created if
    /// missing) instead of the user's default, for tests that share one database. `server`: the
    /// storage is a server's, which holds the presence `storefront reset` checks (`ServerPresence`)
    /// from before the schema is touched until `close`.
    public convenience init(
        _ place: PostgresLocation, migrations: [SchemaMigration], poolSize: Int = defaultPoolSize,
        connectTimeout: Duration = defaultConnectTimeout, statementTimeout: Duration = defaultStatementTimeout,
        schema: String? = nil, server: Bool = false
    ) throws {
        try self.init(
            place, migrations: migrations, poolSize: poolSize, connectTimeout: connectTimeout,
            statementTimeout: statementTimeout, schema: schema, use: server ? .server : .store)
    }

    /// What the storage is opened for.
    enum Use {
        /// A server's store: presence held, schema brought up to date.
        case server
        /// The store, schema brought up to date (tests, benchmarks).
        case store
        /// `reset`: one connection, the schema left as it is.
        case reset
    }

    init(
        _ place: PostgresLocation, migrations: [SchemaMigration], poolSize: Int,
        connectTimeout: Duration = defaultConnectTimeout, statementTimeout: Duration = defaultStatementTimeout,
        schema: String? = nil, use: Use
    ) throws {
        self.place = place
        location = place.description
        var configuration = try place.connectionConfiguration()
        configuration.options.connectTimeout = .nanoseconds(Self.nanoseconds(connectTimeout))
        // Named, so `reset` can tell whether a storefront still uses the database.
        configuration.options.additionalStartupParameters = [
            ("application_name", Self.applicationName),
            (
                "statement_timeout",
                String(Self.nanoseconds(statementTimeout) / 1_000_000)
            ),
        ]
        var logger = Logger(label: "storefront.postgres")
        logger.logLevel = .critical
        let size = max(1, poolSize)
        let deadlines = PooledConnection.Deadlines(
            connect: connectTimeout + Self.deadlineGrace, statement: statementTimeout + Self.deadlineGrace)
        let pooled = (0..<size).map {
            PooledConnection(
                location: place, configuration: configuration, schema: schema, id: $0, deadlines: deadlines,
                logger: logger)
        }
        let pool = ConnectionPool(pooled, waitingAtMost: deadlines.statement)
        let threads = NIOThreadPool(numberOfThreads: size)
        threads.start()
        let presence: ServerPresence?
        do {
            if let schema {
                let create = "CREATE SCHEMA IF NOT EXISTS \(PostgresFailure.quoted(schema))"
                _ = try pooled[0].query(PostgresQuery(unsafeSQL: create), sql: create)
            }
            // One connection now, to fail at start when the server cannot be reached; the rest
            // as uses need them.
            _ = try pooled[0].open()
            // Before the schema is touched: a reset that is dropping it refuses the server.
            presence =
                use == .server
                ? try ServerPresence(
                    connection: PooledConnection(
                        location: place, configuration: configuration, schema: schema, id: size, deadlines: deadlines,
                        logger: logger),
                    location: place.description) : nil
        } catch {
            pool.closeAll()
            try? threads.syncShutdownGracefully()
            throw error
        }
        connections = pool
        self.threads = threads
        self.presence = presence
        commitChannel = CommitListener.channel(schema: schema)
        listener =
            use == .server
            ? CommitListener(configuration: configuration, channel: commitChannel, logger: logger) : nil
        do {
            if use != .reset { try migrate(migrations) }
            try presence?.start()
        } catch {
            close()
            throw error
        }
    }

    public func read<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) throws -> T) async throws -> T {
        let queued = ContinuousClock.now
        return try await threads.runIfActive { try self.readNow(body, queued: queued) }
    }

    public func write<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) throws -> T) async throws -> T {
        try await batchedWrite(body)
    }

    public func writeNow<T>(_ body: (any SQLDatabase) throws -> T) throws -> T {
        try writeNow(body, queued: nil)
    }

    func writeNow<T>(_ body: (any SQLDatabase) throws -> T, queued: ContinuousClock.Instant?) throws -> T {
        try transaction("BEGIN ISOLATION LEVEL READ COMMITTED", lock: true, queued: queued, body)
    }

    func readNow<T>(_ body: (any SQLDatabase) throws -> T, queued: ContinuousClock.Instant? = nil) throws -> T {
        try transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", lock: false, queued: queued, body)
    }

    public var commitsElsewhere: CommitsElsewhere? { listener?.commits }

    /// In a batch's transaction: the servers that listen hear of its commit when it lands (and
    /// not at all if it rolls back).
    func announceCommit(_ db: any SQLDatabase) throws {
        try db.execute(
            sql: "SELECT pg_notify(?, ?)", arguments: [commitChannel, listener?.server ?? "storefront"])
    }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
    }

    /// Closes the connections; later uses fail.
    public func close() {
        listener?.stop()
        presence?.stop()
        connections.closeAll()
        try? threads.syncShutdownGracefully()
    }

    deinit {
        listener?.stop()
        presence?.stop(deadline: .now())
        connections.abandon()
        threads.shutdownGracefully { _ in }
    }

    /// `queued`: when the read or write was handed to the storage's threads. One that waited
    /// there longer than a free connection may be waited for fails at once: the uses ahead of it
    /// met a database that does not answer, and its client has been waiting as long.
    func transaction<T>(
        _ begin: String, lock: Bool, queued: ContinuousClock.Instant?, _ body: (any SQLDatabase) throws -> T
    ) throws -> T {
        do {
            if let queued, ContinuousClock.now - queued > connections.wait { throw ConnectionPool.Busy() }
            let (value, actions) = try connections.with { connection in
                let session = PostgresSession(connection)
                session.pipelined = lock
                try session.command(begin)
                do {
                    if lock { try session.command("SELECT pg_advisory_xact_lock(\(Self.writeLock))") }
                    let value = try body(session)
                    try session.command("COMMIT")
                    return (value, session.afterCommitActions)
                } catch {
                    // A connection given up is closed: PostgreSQL rolls its transaction back.
                    session.discardPending()
                    if connection.lost == nil { try? session.command("ROLLBACK") }
                    throw error
                }
            }
            if lock { health.recovered() }
            for action in actions { action() }
            return value
        } catch let error as SQLRowError {
            throw damaged(error)
        } catch is ConnectionPool.Busy {
            let failure = PostgresFailure.busy(place, connections: connections.size, after: connections.wait)
            health.record(failure)
            throw failure
        } catch {
            if lock { health.record(error) }
            throw error
        }
    }

    /// A value of the wrong kind read from the database, with what to do.
    func damaged(_ error: SQLRowError) -> StoreFailure {
        StoreFailure(
            "the store in \(location) holds a damaged row: \(error.detail). Nothing was changed; restore the database from a backup (pg_dump), or start anew with storefront reset --db \(location) --yes"
        )
    }

    /// The schema's steps not yet applied, in order, in one write; a step this binary does not
    /// know means a newer storefront migrated the database.
    private func migrate(_ migrations: [SchemaMigration]) throws {
        try writeNow { db in
            try db.execute(
                sql:
                    "CREATE TABLE IF NOT EXISTS \(Self.migrationsTable) (name TEXT PRIMARY KEY, applied_at DOUBLE PRECISION NOT NULL)"
            )
            try db.execute(sql: ServerPresence.createTable)
            let applied = try String.fetchAll(
                db, sql: "SELECT name FROM \(Self.migrationsTable) ORDER BY applied_at, name")
            let known = Set(migrations.map(\.name))
            let unknown = applied.filter { !known.contains($0) }
            guard unknown.isEmpty else {
                throw StoreFailure(
                    "the store in \(location) has a schema newer than this storefront knows (steps \(unknown.joined(separator: ", "))): a newer storefront migrated it. Run that version, or pass another --db."
                )
            }
            for migration in migrations where !applied.contains(migration.name) {
                try migration.apply(db)
                try db.execute(
                    sql: "INSERT INTO \(Self.migrationsTable) (name, applied_at) VALUES (?, ?)",
                    arguments: [migration.name, Date().timeIntervalSince1970])
            }
        }
    }
}
