import StoreCore
import StoreSQL
import Synchronization

/// A server's writes waiting for PostgreSQL, taken in batches: one transaction, one advisory lock
/// and one COMMIT (one WAL flush) for every write that arrived while the previous batch was on its
/// way, as SQLite's `GroupCommit` shares one fsync. Each write still hears back only after the
/// commit that holds it.
///
/// No savepoint per write while none fails: a write whose closure throws rolls the batch back and
/// hears its own error, and the rest run again without it, so every write commits as if it had
/// had a transaction to itself, and PostgreSQL keeps no subtransaction per write (more than 64 in
/// one transaction slow every snapshot beside it).
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
            let now = ContinuousClock.now
            commit(
                batch.filter { job in
                    // Waited longer than a connection may be waited for: the writes ahead of it
                    // met a database that does not answer, and its client has been waiting as long.
                    guard now - job.queued > connections.wait else { return true }
                    let failure = PostgresFailure.busy(place, connections: connections.size, after: connections.wait)
                    health.record(failure)
                    job.finish(failure)
                    return false
                })
        }
    }

    /// One batch in one transaction. A write that throws is told so, the batch rolls back, and
    /// the rest commit in one more transaction (`commitGuarded`). A failure of the database
    /// itself (the connection, the lock, the COMMIT) is every write's.
    private func commit(_ jobs: [WriteBatches.Job]) {
        if jobs.isEmpty { return }
        do {
            try transaction("BEGIN ISOLATION LEVEL READ COMMITTED", lock: true, queued: nil) { db in
                try Self.run(jobs[...], on: db)
                try announceCommit(db)
            }
            for job in jobs { job.finish(nil) }
        } catch let refused as WriteBatches.Refused {
            guard let error = ownFailure(refused.error) else {
                return fail(jobs, refused.error)
            }
            var rest = jobs
            rest.remove(at: refused.index).finish(error)
            commitGuarded(rest, plainUpTo: refused.index)
        } catch {
            fail(jobs, error)
        }
    }

    /// The rest of a batch after one of its writes threw: those ahead of it run again as before,
    /// and each behind it in a savepoint of its own, so one more that throws is rolled back alone
    /// and the batch takes two transactions, not one per failure.
    private func commitGuarded(_ jobs: [WriteBatches.Job], plainUpTo boundary: Int) {
        if jobs.isEmpty { return }
        do {
            let failures = try transaction("BEGIN ISOLATION LEVEL READ COMMITTED", lock: true, queued: nil) { db in
                try Self.run(jobs[..<boundary], on: db)
                var failures: [Int: any Error] = [:]
                for index in boundary..<jobs.count {
                    try db.execute(sql: "SAVEPOINT write")
                    do {
                        try Self.run(jobs[index...index], on: db)
                    } catch let refused as WriteBatches.Refused {
                        guard let error = ownFailure(refused.error) else { throw refused.error }
                        try db.execute(sql: "ROLLBACK TO SAVEPOINT write")
                        db.memo.forgetAll()
                        failures[index] = error
                    }
                    try db.execute(sql: "RELEASE SAVEPOINT write")
                }
                try announceCommit(db)
                return failures
            }
            for (index, job) in jobs.enumerated() { job.finish(failures[index]) }
        } catch let refused as WriteBatches.Refused {
            // One ahead of the first failure threw this time: the same again without it.
            guard let error = ownFailure(refused.error) else { return fail(jobs, refused.error) }
            var rest = jobs
            rest.remove(at: refused.index).finish(error)
            commitGuarded(rest, plainUpTo: refused.index)
        } catch {
            fail(jobs, error)
        }
    }

    /// A write's own error, as its caller hears it; nil when the database failed rather than the
    /// write (storage, timeout, lost connection): the others would meet it too, each after a wait.
    private func ownFailure(_ error: any Error) -> (any Error)? {
        let error = (error as? SQLRowError).map(damaged) ?? error
        if let failure = error as? StoreFailure, failure.kind == .storage || failure.kind == .unavailable {
            return nil
        }
        return error
    }

    private func fail(_ jobs: [WriteBatches.Job], _ error: any Error) {
        health.record(error)
        for job in jobs { job.finish(error) }
    }

    /// Runs each write's closure in order, then waits for the statements they sent; the first
    /// that throws, or whose statement failed, stops the batch.
    private static func run(_ jobs: ArraySlice<WriteBatches.Job>, on db: any SQLDatabase) throws {
        let session = db as? PostgresSession
        defer { session?.job = nil }
        do {
            for (index, job) in zip(jobs.indices, jobs) {
                session?.job = index
                do {
                    try job.run(db)
                } catch let failure as PostgresSession.SentFailure {
                    throw failure
                } catch {
                    throw WriteBatches.Refused(index: index, error: error)
                }
            }
            try session?.flush()
        } catch let failure as PostgresSession.SentFailure {
            throw WriteBatches.Refused(index: failure.job, error: failure.error)
        }
    }
}
