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
final class PooledConnection: @unchecked Sendable {
    private let location: PostgresLocation
    private let configuration: PostgresConnection.Configuration
    private let schema: String?
    private let id: Int
    private let logger: Logger
    private var connection: PostgresConnection?
    /// The SQL it has run, with `$N` placeholders: numbered once, not at every use.
    private var numberedCache: [String: NumberedSQL] = [:]

    init(
        location: PostgresLocation, configuration: PostgresConnection.Configuration, schema: String?, id: Int,
        logger: Logger
    ) {
        self.location = location
        self.configuration = configuration
        self.schema = schema
        self.id = id
        self.logger = logger
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
        let opened: PostgresConnection
        do {
            opened = try PostgresConnection.connect(
                on: PostgresConnection.defaultEventLoopGroup.any(), configuration: configuration, id: id, logger: logger
            ).wait()
        } catch {
            throw PostgresFailure.cannotConnect(location, error)
        }
        if let schema {
            // Kept only once it is in its schema: a failed SET leaves no connection behind.
            let set = "SET search_path TO \(PostgresFailure.quoted(schema))"
            do {
                _ = try opened.query(PostgresQuery(unsafeSQL: set), logger: logger).wait()
            } catch {
                Self.closeWithoutWaiting(opened)
                throw PostgresFailure.statement(set, error, location: location)
            }
        }
        connection = opened
        return opened
    }

    func query(_ query: PostgresQuery, sql: String) throws -> PostgresQueryResult {
        let connection = try open()
        do {
            return try connection.query(query, logger: logger).wait()
        } catch {
            throw PostgresFailure.statement(sql, error, location: location)
        }
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
    private let free: Mutex<[PooledConnection]>
    private let available: DispatchSemaphore
    let size: Int

    init(_ connections: [PooledConnection]) {
        free = Mutex(connections)
        available = DispatchSemaphore(value: connections.count)
        size = connections.count
    }

    func with<T>(_ body: (PooledConnection) throws -> T) throws -> T {
        available.wait()
        let connection = free.withLock { $0.removeLast() }
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
