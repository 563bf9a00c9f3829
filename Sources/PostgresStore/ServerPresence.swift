import Foundation
import Logging
import PostgresNIO
import StoreCore
import StoreSQL
import Synchronization

/// A running server's sign of life on its database, which `storefront reset --db` checks before
/// it drops anything: a shared advisory lock held for as long as the server runs (reset takes it
/// exclusively, so no server starts while a reset drops), and a row of `storefront_servers`
/// touched every second. The row outlives a connection the database dropped (a restart, an
/// idle-connection killer, a failover) until the server is connected again, when the lock is gone.
final class ServerPresence: @unchecked Sendable {
    /// The presence lock: "SFSV", beside the write lock's "SFST".
    static let lock: Int64 = 0x5346_5356
    static let table = "storefront_servers"
    /// How long after its last touch a server still counts as running: one killed without
    /// stopping is forgotten this long after.
    static let lifetimeSeconds = 10
    static let createTable = """
        CREATE TABLE IF NOT EXISTS \(table) (
            server TEXT PRIMARY KEY, host TEXT NOT NULL, pid BIGINT NOT NULL,
            started_at TIMESTAMPTZ NOT NULL, seen_at TIMESTAMPTZ NOT NULL)
        """

    private let connection: PooledConnection
    private let location: String
    private let server = UUID().uuidString.lowercased()
    private let queue = DispatchQueue(label: "storefront.postgres.presence")
    /// Touched only on `queue` (and in `init`, before the first tick).
    private var holdsLock = false
    private let stopped = Mutex(false)

    /// Takes the shared lock now, failing with what to do while a reset holds it.
    init(connection: PooledConnection, location: String) throws {
        self.connection = connection
        self.location = location
        try takeLock()
    }

    /// Touches the row now and then every second until `stop`.
    func start() throws {
        try queue.sync { try touch() }
        schedule()
    }

    private func schedule() {
        queue.asyncAfter(deadline: .now() + 1) { [self] in
            guard !stopped.withLock({ $0 }) else { return }
            // A dropped connection takes the lock with it: taken again once connected again.
            if !connection.isOpen { holdsLock = false }
            try? touch()
            schedule()
        }
    }

    private func takeLock() throws {
        connection.beginUse()
        let session = PostgresSession(connection)
        let granted = try Int.fetchOne(
            session, sql: "SELECT CASE WHEN pg_try_advisory_lock_shared(\(Self.lock)) THEN 1 ELSE 0 END")
        guard granted == 1 else {
            throw StoreFailure(
                "storefront reset is dropping the store in \(location) now: start the server again once it has finished",
                kind: .unavailable)
        }
        holdsLock = true
    }

    private func touch() throws {
        connection.beginUse()
        if !holdsLock { try takeLock() }
        try PostgresSession(connection).execute(
            sql: """
                INSERT INTO \(Self.table) (server, host, pid, started_at, seen_at)
                VALUES (?, ?, ?, clock_timestamp(), clock_timestamp())
                ON CONFLICT (server) DO UPDATE SET seen_at = clock_timestamp()
                """,
            arguments: [server, ProcessInfo.processInfo.hostName, Int64(ProcessInfo.processInfo.processIdentifier)])
    }

    /// Removes the row and lets the lock go, so a reset right after the server stops is not
    /// refused; waits at most `deadline` for a database that does not answer.
    func stop(deadline: DispatchTime = .now() + 2) {
        let first = stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        let done = DispatchSemaphore(value: 0)
        queue.async { [self] in
            // Connected again if the database dropped the connection meanwhile.
            connection.beginUse()
            try? PostgresSession(connection).execute(
                sql: "DELETE FROM \(Self.table) WHERE server = ?", arguments: [server])
            connection.close()
            done.signal()
        }
        _ = done.wait(timeout: deadline)
    }
}
