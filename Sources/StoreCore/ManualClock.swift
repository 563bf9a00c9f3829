import Foundation

/// A clock moved by hand: tests and benchmarks step time forward and whatever sleeps on it wakes
/// when its deadline is reached, so nothing waits for real time to pass.
public final class ManualClock: StoreClock, @unchecked Sendable {
    private struct Sleeper {
        let id: UInt64
        let deadline: Date
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct Watcher {
        let deadline: Date
        let count: Int
        let continuation: CheckedContinuation<Void, Never>
    }

    private let lock = NSLock()
    private var current: Date
    private var sleepers: [Sleeper] = []
    private var watchers: [Watcher] = []
    private var lastId: UInt64 = 0
    /// Sleeps cancelled before they were registered.
    private var cancelledEarly: Set<UInt64> = []

    public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = start
    }

    public func now() -> Date { lock.withLock { current } }

    /// Moves the clock forward and wakes every sleep whose deadline it reaches.
    public func advance(by seconds: TimeInterval) {
        let due = lock.withLock { () -> [Sleeper] in
            current = current.addingTimeInterval(seconds)
            let due = sleepers.filter { $0.deadline <= current }
            sleepers.removeAll { $0.deadline <= current }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    public func sleep(until deadline: Date) async throws {
        let id = lock.withLock { () -> UInt64 in
            lastId += 1
            return lastId
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                register(Sleeper(id: id, deadline: deadline, continuation: continuation))
            }
        } onCancel: {
            let sleeper = lock.withLock { () -> Sleeper? in
                guard let index = sleepers.firstIndex(where: { $0.id == id }) else {
                    cancelledEarly.insert(id)
                    return nil
                }
                return sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    private func register(_ sleeper: Sleeper) {
        enum Now { case wait, wake, cancel }
        let (now, woken) = lock.withLock { () -> (Now, [Watcher]) in
            if cancelledEarly.remove(sleeper.id) != nil { return (.cancel, []) }
            if current >= sleeper.deadline { return (.wake, []) }
            sleepers.append(sleeper)
            let woken = watchers.filter(satisfied)
            watchers.removeAll(where: satisfied)
            return (.wait, woken)
        }
        switch now {
        case .wait: break
        case .wake: sleeper.continuation.resume()
        case .cancel: sleeper.continuation.resume(throwing: CancellationError())
        }
        for watcher in woken { watcher.continuation.resume() }
    }

    /// Returns once `count` tasks sleep until exactly `deadline`: how a test knows that a long
    /// poll or a timer is waiting before it moves the clock or acts.
    public func sleeping(until deadline: Date, count: Int = 1) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let watcher = Watcher(deadline: deadline, count: count, continuation: continuation)
            let already = lock.withLock { () -> Bool in
                if satisfied(watcher) { return true }
                watchers.append(watcher)
                return false
            }
            if already { continuation.resume() }
        }
    }

    /// Called with the lock held.
    private func satisfied(_ watcher: Watcher) -> Bool {
        sleepers.count { $0.deadline == watcher.deadline } >= watcher.count
    }
}
