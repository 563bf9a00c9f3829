import Foundation
import StoreCore
import Synchronization

/// A database's last storage failure (disk full, a damaged page), until a write succeeds again:
/// what a server's `/v1/health` reports as `degraded`.
public final class StorageHealth: Sendable {
    public struct Problem: Sendable, Hashable {
        public let reason: String
        public let since: Date
    }

    private let current = Mutex<Problem?>(nil)

    public init() {}

    public var problem: Problem? { current.withLock { $0 } }

    /// Keeps `error` if it is a storage failure; the first one's time is kept while they repeat.
    public func record(_ error: any Error) {
        guard let failure = error as? StoreFailure, failure.kind == .storage else { return }
        current.withLock { $0 = Problem(reason: failure.message, since: $0?.since ?? Date()) }
    }

    /// A write reached the disk: the storage works again.
    public func recovered() {
        current.withLock { $0 = nil }
    }
}
