import StoreCore
import Synchronization

/// A database's last failure to write (disk full, a damaged page, a database that cannot be
/// reached, a write that timed out), until a write succeeds again: what a server's `/v1/health`
/// reports as `degraded`.
public final class StorageHealth: Sendable {
    private let current = Mutex<StoreFailure?>(nil)
    private let retirement = Mutex<String?>(nil)

    public init() {}

    /// The failure, whose message names the file or database and what to do (for the server's
    /// log, not for answers); nil while the storage works. A retired store's is for answers too.
    public var failure: StoreFailure? {
        if let retired { return StoreFailure(retired, kind: .unavailable, shareable: true) }
        return current.withLock { $0 }
    }

    /// Why the store may no longer be used by this process, once it was found changed under it:
    /// words for anyone, naming nothing of the server's.
    public var retired: String? { retirement.withLock { $0 } }

    /// Retires the store for this process, for good: every later use fails with `message`.
    public func retire(_ message: String) {
        retirement.withLock { $0 = $0 ?? message }
    }

    /// The failure's message; nil while the storage works.
    public var problem: String? { failure?.message }

    /// Keeps `error` if it is a storage failure or a timeout.
    public func record(_ error: any Error) {
        guard let failure = error as? StoreFailure, failure.kind == .storage || failure.kind == .unavailable else {
            return
        }
        current.withLock { $0 = failure }
    }

    /// A write reached the disk: the storage works again.
    public func recovered() {
        current.withLock { $0 = nil }
    }
}
