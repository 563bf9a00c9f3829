import StoreCore
import Synchronization

/// A database's last storage failure (disk full, a damaged page), until a write succeeds again:
/// what a server's `/v1/health` reports as `degraded`.
public final class StorageHealth: Sendable {
    private let current = Mutex<String?>(nil)

    public init() {}

    /// The failure's message, naming the file and what to do; nil while the storage works.
    public var problem: String? { current.withLock { $0 } }

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
