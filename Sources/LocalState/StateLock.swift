import Foundation
import GRDB
import StoreCore

/// Turns SQLite's errors into messages a user can act on, naming the file. WAL mode lets readers
/// and one writer share a state directory; a writer that waits longer than the busy timeout means
/// another process holds a long write (or a stuck `sqlite3` shell), and the user must know which
/// file. A full disk or a damaged page is a storage failure (`StoreFailure.Kind.storage`).
package enum StateLock {
    package static let busyTimeoutSeconds = 5.0

    package static func configuration() -> Configuration {
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeoutSeconds)
        return configuration
    }

    /// SQLite's errors a user can act on, as a `StoreFailure` naming the file; others unchanged.
    package static func explain(_ error: any Error, path: String) -> any Error {
        guard let database = error as? DatabaseError else { return error }
        switch database.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return StoreFailure(
                "\(path) is locked by another process (waited \(Int(busyTimeoutSeconds)) s): close the other storefront or sqlite3 session using this state directory, or pass a different --state",
                kind: .unavailable)
        case .SQLITE_FULL:
            return storage(
                path, database, advice: "the disk (or the file system's quota) is full: free space, then retry")
        case .SQLITE_CORRUPT, .SQLITE_NOTADB:
            return storage(
                path, database,
                advice:
                    "a page of the file is damaged: stop the server, keep a copy of the file, and restore it from a backup or `storefront reset`"
            )
        case .SQLITE_IOERR, .SQLITE_CANTOPEN:
            // A full disk can fail before SQLite says so: growing the -shm file is an I/O error.
            guard !isFull(path) else {
                return storage(
                    path, database, advice: "the disk (or the file system's quota) is full: free space, then retry")
            }
            return storage(
                path, database,
                advice: "the file cannot be read or written: check the disk, the file's permissions and the mount")
        case .SQLITE_READONLY, .SQLITE_PERM:
            return storage(
                path, database,
                advice: "the file cannot be read or written: check the disk, the file's permissions and the mount")
        default:
            return error
        }
    }

    /// Whether the file system holding `path` has no block left for this user.
    static func isFull(_ path: String) -> Bool {
        var status = statvfs()
        let directory = (path as NSString).deletingLastPathComponent
        return statvfs(directory.isEmpty ? "." : directory, &status) == 0 && status.f_bavail == 0
    }

    private static func storage(_ path: String, _ error: DatabaseError, advice: String) -> StoreFailure {
        StoreFailure(
            "storage failure in \(path): \(error.message ?? "SQLite error \(error.resultCode.rawValue)") (SQLite error \(error.extendedResultCode.rawValue)); \(advice)",
            kind: .storage)
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
