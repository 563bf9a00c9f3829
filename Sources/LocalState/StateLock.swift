import GRDB
import StoreCore

/// Turns SQLite's "database is locked" into a message a user can act on. WAL mode lets readers
/// and one writer share a state directory; a writer that waits longer than the busy timeout means
/// another process holds a long write (or a stuck `sqlite3` shell), and the user must know which file.
package enum StateLock {
    package static let busyTimeoutSeconds = 5.0

    package static func configuration() -> Configuration {
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeoutSeconds)
        return configuration
    }

    package static func explain(_ error: any Error, path: String) -> any Error {
        guard let database = error as? DatabaseError,
              database.resultCode == .SQLITE_BUSY || database.resultCode == .SQLITE_LOCKED else { return error }
        return StoreFailure("\(path) is locked by another process (waited \(Int(busyTimeoutSeconds)) s): close the other storefront or sqlite3 session using this state directory, or pass a different --state", kind: .unavailable)
    }
}

extension DatabasePool {
    /// Reads and writes whose lock timeout becomes a readable `StoreFailure` naming the file.
    package func guardedRead<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        do { return try await read(value) } catch { throw StateLock.explain(error, path: path) }
    }

    package func guardedWriteNow<T>(_ updates: (Database) throws -> T) throws -> T {
        do { return try write(updates) } catch { throw StateLock.explain(error, path: path) }
    }

    package func guardedReadNow<T>(_ value: (Database) throws -> T) throws -> T {
        do { return try read(value) } catch { throw StateLock.explain(error, path: path) }
    }
}
