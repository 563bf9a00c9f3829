import Foundation

/// The store's notion of now, injected so tests can run renewals without sleeping.
public protocol StoreClock: Sendable {
    func now() -> Date
}

public struct SystemClock: StoreClock {
    public init() {}
    public func now() -> Date { Date() }
}
