/// An operation that did not finish by its deadline; it was cancelled.
public struct DeadlineExceeded: Error {}

/// Runs `operation`, cancelling it once `timeout` has passed: the deadline holds whatever the
/// other side does (an HTTP client's own timeouts end a silent wait, not a body that trickles in).
public func withDeadline<T: Sendable>(_ timeout: Duration, _ operation: @escaping @Sendable () async throws -> T)
    async throws -> T
{
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(for: timeout)
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else { throw DeadlineExceeded() }
        return value
    }
}
