import Foundation

/// The store's notion of now, and the only way the store and the server wait for time to pass,
/// injected so tests run renewals, expiries and long polls by moving a clock instead of sleeping.
public protocol StoreClock: Sendable {
    func now() -> Date
    /// Returns once `now()` has reached `deadline` (at once if it has); throws `CancellationError`
    /// if the task is cancelled first.
    func sleep(until deadline: Date) async throws
}

extension StoreClock {
    public func sleep(for seconds: TimeInterval) async throws {
        try await sleep(until: now().addingTimeInterval(seconds))
    }
}

/// The wall clock: what the executable wires in.
public struct SystemClock: StoreClock {
    public init() {}

    public func now() -> Date { Date() }

    public func sleep(until deadline: Date) async throws {
        let seconds = deadline.timeIntervalSince(now())
        guard seconds > 0 else { return try Task.checkCancellation() }
        try await Task.sleep(for: .seconds(seconds))
    }
}
