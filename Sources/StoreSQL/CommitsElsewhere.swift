import Foundation
import Synchronization

/// Commits that other processes made to the same store, as this one hears of them (PostgreSQL's
/// NOTIFY): a long poll waits on them beside its own process's updates, instead of finding
/// another server's commit only at its next look.
public final class CommitsElsewhere: Sendable {
    private let listeners = Mutex<[UUID: AsyncStream<Void>.Continuation]>([:])

    public init() {}

    /// Yields once for each commit heard after it was made (several at once may yield once).
    public func stream() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        listeners.withLock { $0[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            _ = self?.listeners.withLock { $0.removeValue(forKey: id) }
        }
        return stream
    }

    /// Another process committed.
    public func heard() {
        let current = listeners.withLock { Array($0.values) }
        for listener in current { listener.yield() }
    }
}
