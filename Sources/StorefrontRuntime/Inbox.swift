import Foundation
import StorefrontUI

/// Actions produced off the UI loop (effects' results, store updates), collected until the loop
/// takes them in its next turn. A lock, not an actor: the loop must read it without suspending.
final class Inbox: @unchecked Sendable {
    private let lock = NSLock()
    private var actions: [Action] = []

    func push(_ action: Action) {
        lock.withLock { actions.append(action) }
    }

    func drain() -> [Action] {
        lock.withLock {
            defer { actions.removeAll(keepingCapacity: true) }
            return actions
        }
    }
}
