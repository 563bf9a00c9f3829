import Foundation
import Logging
import NIOCore
import PostgresNIO
import StoreCore
import StoreSQL
import Synchronization

/// One connection of the storage's pool, used by one read or write at a time. It waits for each
/// answer on the calling thread (a thread of the storage's own, see `PostgresStorage`), and is
/// opened again when the server closed it between two uses.
///
/// Every wait has a deadline of this side's (`Deadlines`): PostgreSQL's statement timeout is
/// PostgreSQL's, and a server that is frozen, or a network that drops everything, never sends
/// it. postgres-nio cannot cancel a query, so a connection whose answer is late is in an unknown
/// state (the statement may still run, a COMMIT may still land): it is closed and refuses every
/// further statement of the read or write it was in (`lost`); the next use opens a new one.
final class PooledConnection: @unchecked Sendable {
    /// How long this side waits for PostgreSQL.
    struct Deadlines: Sendable {
        /// For a connection to be made and ready (TCP, TLS, start-up and authentication).
        var connect: Duration
        /// For one statement's answer.
        var statement: Duration
    }

    private let location: PostgresLocation
    private let configuration: PostgresConnection.Configuration
    private let schema: String?
    private let id: Int
    private let logger: Logger
    let deadlines: Deadlines
    private var connection: PostgresConnection?
    /// Why this use's connection was given up; every later statement of the use fails with it.
    private(set) var lost: StoreFailure?
    /// The SQL it has run, with `$N` placeholders: numbered once, not at every use.
    private var numberedCache: [String: NumberedSQL] = [:]

    init(
        location: PostgresLocation, configuration: PostgresConnection.Configuration, schema: String?, id: Int,
        deadlines: Deadlines, logger: Logger
    ) {
        self.location = location
        self.configuration = configuration
        self.schema = schema
        self.id = id
        self.deadlines = deadlines
        self.logger = logger
    }

    /// Whether this read or write has sent a statement: a connection that closes after that is not
    /// opened again within it (`PostgresFailure.lostMidUse`).
    private var sent = false

    /// A new read or write begins: a connection given up in an earlier one is already replaced.
    func beginUse() {
        lost = nil
        sent = false
    }

    func numbered(_ sql: String, cached: Bool) -> NumberedSQL {
        if let numbered = numberedCache[sql] { return numbered }
        let numbered = NumberedSQL(Placeholders.numbered(sql))
        if cached { numberedCache[sql] = numbered }
        return numbered
    }

    /// Whether the connection is open (it may still have been dropped by the server since its last use).
    var isOpen: Bool { connection.map { !$0.isClosed } ?? false }

    /// The open connection, opened now if need be.
    func open() throws -> PostgresConnection {
        if let connection, !connection.isClosed { return connection }
        if let lost { throw lost }
        if sent { throw give(up: PostgresFailure.lostMidUse(location)) }
        let opened: PostgresConnection
        let connecting = PostgresConnection.connect(
            on: PostgresConnection.defaultEventLoopGroup.any(), configuration: configuration, id: id, logger: logger)
        do {
            opened = try Self.wait(for: connecting, deadline: deadlines.connect)
        } catch is LateAnswer {
            // Made late, it is closed as soon as it is made.
            connecting.whenSuccess { Self.closeWithoutWaiting($0) }
            throw give(up: PostgresFailure.late(connecting: location, after: deadlines.connect))
        } catch {
            throw PostgresFailure.cannotConnect(location, error)
        }
        if let schema {
            // Kept only once it is in its schema: a failed SET leaves no connection behind.
            let set = "SET search_path TO \(PostgresFailure.quoted(schema))"
            do {
                _ = try Self.wait(
                    for: opened.query(PostgresQuery(unsafeSQL: set), logger: logger), deadline: deadlines.statement)
            } catch is LateAnswer {
                Self.closeWithoutWaiting(opened)
                throw give(up: PostgresFailure.late(set, location: location, after: deadlines.statement))
            } catch {
                Self.closeWithoutWaiting(opened)
                throw PostgresFailure.statement(set, error, location: location)
            }
        }
        connection = opened
        return opened
    }

    func query(_ query: PostgresQuery, sql: String) throws -> PostgresQueryResult {
        try answer(to: send(query), sql: sql)
    }

    /// Sends `query` without waiting for its answer: PostgreSQL runs the connection's statements
    /// in the order they were sent, so a write whose result nobody reads goes ahead of the next
    /// statement instead of a round trip of its own.
    func send(_ query: PostgresQuery) throws -> EventLoopFuture<PostgresQueryResult> {
        let connection = try open()
        sent = true
        return connection.query(query, logger: logger)
    }

    /// The answer to a statement `send` sent, waited for at most the statement deadline.
    func answer(to sent: EventLoopFuture<PostgresQueryResult>, sql: String) throws -> PostgresQueryResult {
        if let lost { throw lost }
        do {
            return try Self.wait(for: sent, deadline: deadlines.statement)
        } catch is LateAnswer {
            abandon()
            throw give(up: PostgresFailure.late(sql, location: location, after: deadlines.statement))
        } catch {
            throw PostgresFailure.statement(sql, error, location: location)
        }
    }

    private func give(up failure: StoreFailure) -> StoreFailure {
        lost = failure
        return failure
    }

    /// No answer by the deadline.
    struct LateAnswer: Error {}

    /// Where a future's outcome lands for the thread that waits for it.
    private final class Answer<T: Sendable>: Sendable {
        let outcome = Mutex<Result<T, any Error>?>(nil)
        let arrived = DispatchSemaphore(value: 0)
    }

    /// The future's value, waited for on this thread at most `deadline`.
    static func wait<T: Sendable>(for future: EventLoopFuture<T>, deadline: Duration) throws -> T {
        let answer = Answer<T>()
        future.whenComplete { outcome in
            answer.outcome.withLock { $0 = outcome }
            answer.arrived.signal()
        }
        guard answer.arrived.wait(timeout: .after(deadline)) == .success,
            let outcome = answer.outcome.withLock({ $0 })
        else { throw LateAnswer() }
        return try outcome.get()
    }

    func close() {
        try? connection?.close().wait()
        connection = nil
    }

    /// Closes without waiting: the storage is going away.
    func abandon() {
        guard let connection else { return }
        self.connection = nil
        Self.closeWithoutWaiting(connection)
    }

    /// postgres-nio requires a connection to be closed before it is freed: it lives until then.
    private static func closeWithoutWaiting(_ connection: PostgresConnection) {
        connection.close().whenComplete { _ in withExtendedLifetime(connection) {} }
    }
}

/// Connections handed to one use at a time; a use waits while all are taken.
final class ConnectionPool: Sendable {
    /// Every connection stayed taken for the whole wait.
    struct Busy: Error {}

    private let free: Mutex<[PooledConnection]>
    private let available: DispatchSemaphore
    let size: Int
    /// The longest wait for a free connection.
    let wait: Duration

    init(_ connections: [PooledConnection], waitingAtMost wait: Duration) {
        free = Mutex(connections)
        available = DispatchSemaphore(value: connections.count)
        size = connections.count
        self.wait = wait
    }

    /// A use that finds every connection taken for `wait` fails with `Busy` instead of queueing
    /// behind uses that may each wait out their whole deadline.
    func with<T>(_ body: (PooledConnection) throws -> T) throws -> T {
        guard available.wait(timeout: .after(wait)) == .success else { throw Busy() }
        let connection = free.withLock { $0.removeLast() }
        connection.beginUse()
        defer {
            free.withLock { $0.append(connection) }
            available.signal()
        }
        return try body(connection)
    }

    /// Closes every connection without waiting (nothing uses the pool any more).
    func abandon() {
        free.withLock { connections in for connection in connections { connection.abandon() } }
    }

    func closeAll() {
        for _ in 0..<size { available.wait() }
        free.withLock { connections in for connection in connections { connection.close() } }
        for _ in 0..<size { available.signal() }
    }
}

extension DispatchTime {
    /// `duration` from now.
    static func after(_ duration: Duration) -> DispatchTime {
        let nanoseconds = duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
        return .now() + .nanoseconds(Int(max(0, nanoseconds)))
    }
}
