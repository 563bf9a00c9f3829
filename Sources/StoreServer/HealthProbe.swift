import Foundation
import StoreCore
import StoreEngine
import Synchronization

/// `/v1/health`'s look at the database, answered within `deadline` whatever the database does: a
/// database call on a frozen server cannot be cancelled, so a check stops waiting for it instead.
/// One read at a time, and while the last write timed out one write of nothing at a time (which
/// clears the failure once writes work again), however many checks arrive: a load balancer's
/// checks never pile calls up on a database that does not answer.
final class HealthProbe: Sendable {
    /// How long a health check waits for the database.
    static let deadline: Duration = .seconds(2)

    /// What a check found.
    struct Look: Sendable {
        /// The newest cursor; nil when the read failed or did not answer in time.
        var cursor: Int64?
        /// Why the database is degraded, in words for anyone (no names of hosts, users, files or
        /// SQL: the server's log has those); nil when it is not.
        var reason: String?
        /// What the log gets: the failure's own message.
        var detail: String?
    }

    private let reading = Shared<Result<Int64, any Error>>()
    private let writing = Shared<Void>()

    func look(at store: SimulatedStore, deadline: Duration = HealthProbe.deadline) async -> Look {
        let start = ContinuousClock.now
        let read = reading.task {
            do {
                return .success(try await store.journalCursor())
            } catch {
                return .failure(error)
            }
        }
        switch await Self.first(of: read, within: deadline) {
        case nil:
            return Look(
                cursor: nil, reason: "the database did not answer a read within \(Self.seconds(deadline)) s",
                detail: nil)
        case .failure(let error)?:
            return Look(cursor: nil, reason: PublicMessage.reason(error), detail: "\(error)")
        case .success(let cursor)?:
            // A write that timed out is tried again (a write of nothing takes the write lock); a
            // storage failure (a full disk) clears only with a real write, which a write of
            // nothing is not.
            if store.storageHealth.failure?.kind == .unavailable {
                let write = writing.task { _ = try? await store.checkWrites() }
                _ = await Self.first(of: write, within: max(.zero, deadline - (ContinuousClock.now - start)))
            }
            let failure = store.storageHealth.failure
            return Look(cursor: cursor, reason: failure.map(PublicMessage.reason), detail: failure?.message)
        }
    }

    /// One task at a time: a caller joins the one running, or starts it.
    private final class Shared<T: Sendable>: Sendable {
        private let running = Mutex<Task<T, Never>?>(nil)

        func task(_ operation: @escaping @Sendable () async -> T) -> Task<T, Never> {
            running.withLock { running in
                if let running { return running }
                let started = Task<T, Never> {
                    let value = await operation()
                    // Waits for the lock, so it runs after `running` is set below.
                    self.running.withLock { $0 = nil }
                    return value
                }
                running = started
                return started
            }
        }
    }

    /// The task's value, or nil once `timeout` has passed (the task runs on, unwaited).
    static func first<T: Sendable>(of task: Task<T, Never>, within timeout: Duration) async -> T? {
        let answer = Answer<T>()
        return await withCheckedContinuation { continuation in
            answer.set(continuation)
            Task { answer.resume(await task.value) }
            Task {
                try? await Task.sleep(for: timeout)
                answer.resume(nil)
            }
        }
    }

    /// A continuation resumed once, by whichever comes first.
    private final class Answer<T: Sendable>: Sendable {
        private let continuation = Mutex<CheckedContinuation<T?, Never>?>(nil)

        func set(_ continuation: CheckedContinuation<T?, Never>) {
            self.continuation.withLock { $0 = continuation }
        }

        func resume(_ value: T?) {
            continuation.withLock { $0.take() }?.resume(returning: value)
        }
    }

    static func seconds(_ duration: Duration) -> String {
        let seconds = duration / .seconds(1)
        return seconds == seconds.rounded() ? String(Int(seconds)) : String(format: "%.1f", seconds)
    }
}
