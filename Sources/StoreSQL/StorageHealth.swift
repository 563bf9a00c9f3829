import StoreCore
import Synchronization

/// A database's last storage failure (disk full, a damaged page), until a write succeeds again:
/// what a server's `/v1/health` reports as `degraded`.
public final class StorageHealth: Sendable {
    private let current = Mutex<String?>(nil)
    private let retirement = Mutex<String?>(nil)

    public init() {}

    /// The failure's message, naming the file and what to do; nil while the storage works.
    public var problem: String? { retired ?? current.withLock { $0 } }

    /// Why the store may no longer be used by this process, once it was found changed under it.
    public var retired: String? { retirement.withLock { $0 } }

    /// Retires the store for this process, for good: every later use fails with `message`.
    public func retire(_ message: String) {
        retirement.withLock { $0 = $0 ?? message }
    }

    /// Keeps `error` if it is a storage failure.
    public func record(_ error: any Error) {
        guard let failure = error as? StoreFailure, failure.kind == .storage else { return }
        current.withLock { $0 = failure.message }
    }

    /// A write reached the disk: the storage works again.
    public func recovered() {
        current.withLock { $0 = nil }
    }
}
