import Foundation
import StorefrontUI

/// Actions produced off the UI loop (effects, store updates), collected until the loop drains
/// them between keys. A lock, not an actor: the loop must read it without suspending.
public final class Inbox: @unchecked Sendable {
    private let lock = NSLock()
    private var actions: [Action] = []

    public init() {}

    public func push(_ action: Action) {
        lock.withLock { actions.append(action) }
    }

    public func drain() -> [Action] {
        lock.withLock {
            defer { actions.removeAll(keepingCapacity: true) }
            return actions
        }
    }
}
