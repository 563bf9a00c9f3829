import StoreCore
import StoreSQL
import Synchronization

/// A server's writes waiting for PostgreSQL, taken in batches: one transaction, one advisory lock
/// and one COMMIT (one WAL flush) for every write that arrived while the previous batch was on its
/// way, as SQLite's `GroupCommit` shares one fsync. Each write still hears back only after the
/// commit that holds it.
///
/// No savepoint per write: a write whose closure throws rolls the batch back, hears its own error,
/// and the rest of the batch runs again without it, so every write commits as if it had had a
/// transaction to itself, and PostgreSQL keeps no subtransaction per write (more than 64 in one
/// transaction slow every snapshot beside it).
final class WriteBatches: Sendable {
    /// Writes in one transaction at most: a long batch keeps its first writer waiting.
    static let limit = 128

    /// One write: `run` executes the closure on the batch's connection and keeps its value;
    /// `finish` tells its caller, once, after the commit or the failure.
    struct Job: Sendable {
        let queued: ContinuousClock.Instant
        let run: @Sendable (any SQLDatabase) throws -> Void
        let finish: @Sendable ((any Error)?) -> Void
    }

    /// A write of the batch threw: which one, and its own error.
    struct Refused: Error {
        let index: Int
        let error: any Error
    }

    private let state = Mutex(State())

    private struct State {
        var jobs: [Job] = []
        var draining = false
    }

    /// Queues `job`; true when the caller must start draining (nobody else is).
    func enqueue(_ job: Job) -> Bool {
        state.withLock { state in
            state.jobs.append(job)
            guard !state.draining else { return false }
            state.draining = true
            return true
        }
    }

    /// The next batch; empty when nothing is queued, and then the queue is idle again.
    func next() -> [Job] {
        state.withLock { state in
            let batch = Array(state.jobs.prefix(Self.limit))
            state.jobs.removeFirst(batch.count)
            if batch.isEmpty { state.draining = false }
            return batch
        }
    }

    /// Nothing will drain the queue any more: every queued write fails with `error`.
    func failAll(_ error: any Error) {
        let jobs = state.withLock { state in
            defer { state.jobs.removeAll() }
            state.draining = false
            return state.jobs
        }
        for job in jobs { job.finish(error) }
    }
}

extension PostgresStorage {
    /// Runs `body` in the server's next batch of writes.
    func batchedWrite<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) throws -> T) async throws -> T {
        let queued = ContinuousClock.now
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let value = Mutex<T?>(nil)
            let job = WriteBatches.Job(
                queued: queued,
                run: { db in
                    let result = try body(db)
                    value.withLock { $0 = result }
                },
                finish: { failure in
                    if let failure { return continuation.resume(throwing: failure) }
                    guard let result = value.withLock({ $0 }) else {
                        return continuation.resume(throwing: StoreFailure("a write produced no result"))
                    }
                    continuation.resume(returning: result)
                })
            guard batches.enqueue(job) else { return }
            threads.submit { state in
                guard state == .active else {
                    return self.batches.failAll(StoreFailure("the store in \(self.location) is closed"))
                }
                self.drain()
            }
        }
    }

    /// Commits batch after batch on this thread until the queue is empty.
    private func drain() {
        while true {
            let batch = batches.next()
            if batch.isEmpty { return }
            commit(batch)
        }
    }

    /// One batch in one transaction. A write that throws is told so and left out, and the others
    /// run again in a new transaction; a failure of the transaction itself (the connection, the
    /// lock, the COMMIT) is every write's.
    private func commit(_ batch: [WriteBatches.Job]) {
        var jobs = batch
        let now = ContinuousClock.now
        jobs.removeAll { job in
            // Waited longer than a connection may be waited for: the writes ahead of it met a
            // database that does not answer, and its client has been waiting as long.
            guard now - job.queued > connections.wait else { return false }
            let failure = PostgresFailure.busy(place, connections: connections.size, after: connections.wait)
            health.record(failure)
            job.finish(failure)
            return true
        }
        while !jobs.isEmpty {
            do {
                try transaction("BEGIN ISOLATION LEVEL READ COMMITTED", lock: true, queued: nil) { db in
                    for (index, job) in jobs.enumerated() {
                        do { try job.run(db) } catch { throw WriteBatches.Refused(index: index, error: error) }
                    }
                }
                for job in jobs { job.finish(nil) }
                return
            } catch let refused as WriteBatches.Refused {
                let error = (refused.error as? SQLRowError).map(damaged) ?? refused.error
                // The database failed, not the write: the others would meet the same failure,
                // each after its own wait.
                if let failure = error as? StoreFailure, failure.kind == .storage || failure.kind == .unavailable {
                    health.record(failure)
                    for job in jobs { job.finish(failure) }
                    return
                }
                jobs.remove(at: refused.index).finish(error)
            } catch {
                for job in jobs { job.finish(error) }
                return
            }
        }
    }
}
