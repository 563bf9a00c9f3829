import GRDB
import LocalState
import StoreCore
import StoreSQL
import Synchronization

/// Group commit: writes that arrive while a commit is on its way to the disk wait for it, then go
/// to the disk together in one transaction, each in a savepoint of its own. Every commit is still
/// durable (WAL, synchronous FULL: one fsync) before any of its writers hears back, and a writer
/// whose closure throws has its savepoint rolled back and gets its own error, as if it had had a
/// transaction to itself. One writer waits no longer than before (writes that come one at a
/// time are committed on the writer's own thread); many share the fsync.
///
/// Closures must not write through the same `GroupCommit` again (they already run inside its
/// transaction) and must not use statements that a savepoint forbids (`VACUUM`, `PRAGMA journal_mode`).
public final class GroupCommit: Sendable {
    /// Writes in one transaction at most: a long batch keeps the first writer waiting.
    static let batchLimit = 256

    let pool: DatabasePool
    /// Storage failures of these writes, cleared by the next commit that succeeds.
    public let health = StorageHealth()
    private let queue = Mutex(Queue())

    private struct Queue {
        var jobs: [Job] = []
        var draining = false
        /// Whether the last batch was one writer, with nobody arriving while it committed: writes
        /// come one at a time (one connection, one terminal), and the next is committed in place.
        var lone = true
    }

    private struct Job: Sendable {
        /// Runs the closure in its savepoint and keeps its result.
        let run: @Sendable (Database, TransactionMemo) -> Void
        /// Called after the commit: nil when it succeeded, else why it did not.
        let finish: @Sendable ((any Error)?) -> Void
        /// The closure's own error, once it has run.
        let failure: @Sendable () -> (any Error)?
    }

    public init(pool: DatabasePool) {
        self.pool = pool
    }

    public func write<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await write { db, _ in try updates(db) }
    }

    /// `write`, with what the batch's transaction has read so far (`TransactionMemo`): a write
    /// rolled back to its savepoint makes the batch forget it, since it may have read its own
    /// changes.
    public func write<T: Sendable>(_ updates: @escaping @Sendable (Database, TransactionMemo) throws -> T) async throws
        -> T
    {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let outcome = Mutex<Result<T, any Error>?>(nil)
            let job = Job(
                run: { db, memo in
                    let result: Result<T, any Error>
                    do {
                        var value: T?
                        try db.inSavepoint {
                            value = try updates(db, memo)
                            return .commit
                        }
                        result = value.map { .success($0) } ?? .failure(StoreFailure("a write produced no result"))
                    } catch {
                        memo.forgetAll()
                        result = .failure(error)
                    }
                    outcome.withLock { $0 = result }
                },
                finish: { [pool, health] commitFailure in
                    if let commitFailure {
                        continuation.resume(throwing: commitFailure)
                        return
                    }
                    // A writer's own statement can meet the storage failure (a full disk on its insert).
                    let result = (outcome.withLock { $0 } ?? .failure(StoreFailure("a write was not run")))
                        .mapError { StateLock.explain($0, path: pool.path) }
                    if case .failure(let error) = result { health.record(error) }
                    continuation.resume(with: result)
                },
                failure: {
                    if case .failure(let error)? = outcome.withLock({ $0 }) { error } else { nil }
                })
            let (leads, inPlace) = queue.withLock { queue in
                queue.jobs.append(job)
                guard !queue.draining else { return (false, false) }
                queue.draining = true
                return (true, queue.lone)
            }
            if leads { inPlace ? commitInPlace() : commit(nextBatch(after: nil)) }
        }
    }

    /// A lone writer's batch, committed on its own thread. GRDB's synchronous write runs on the
    /// writer's queue, which, idle, runs it in place: the request neither waits for the writer's
    /// thread to wake nor for its task to be woken back (two of a payment's eight thread switches).
    /// Only while writes come one at a time: under load a blocked thread of the concurrency pool
    /// (two on this machine) cost more than the switches (16 connections: 0.62x health, not 0.77x).
    private func commitInPlace() {
        let jobs = nextBatch(after: nil)
        if jobs.isEmpty { return }
        do {
            try pool.write { db in
                let memo = TransactionMemo()
                for job in jobs { job.run(db, memo) }
            }
            finished(jobs, failure: nil)
        } catch {
            finished(jobs, failure: error)
        }
    }

    /// After a batch's commit, on either path: tells its writers, then commits what came meanwhile.
    private func finished(_ jobs: [Job], failure: (any Error)?) {
        var failure = failure.map { StateLock.explain($0, path: pool.path) }
        // SQLite rolls the whole transaction back on a full disk; the commit then only says
        // "aborted", and every writer of the batch is told the cause a statement met.
        if failure != nil,
            let cause = jobs.lazy.compactMap({ $0.failure() }).map({ StateLock.explain($0, path: self.pool.path) })
                .first(where: { ($0 as? StoreFailure)?.kind == .storage })
        {
            failure = cause
        }
        if let failure { health.record(failure) } else { health.recovered() }
        for job in jobs { job.finish(failure) }
        commit(nextBatch(after: jobs.count))
    }

    /// Up to `batchLimit` queued jobs; when none is left the group is idle again. `finished`: the
    /// size of the batch just committed, which with what arrived meanwhile says whether writes
    /// come one at a time.
    private func nextBatch(after finished: Int?) -> [Job] {
        queue.withLock { queue in
            if let finished { queue.lone = finished == 1 && queue.jobs.isEmpty }
            let batch = Array(queue.jobs.prefix(Self.batchLimit))
            queue.jobs.removeFirst(batch.count)
            if batch.isEmpty { queue.draining = false }
            return batch
        }
    }

    /// Commits `jobs`, then what is queued, batch after batch, until nothing is left. Each batch
    /// runs on the pool's writer queue, and its completion (on the same queue, after the commit)
    /// takes the next one there: a writer's request goes from its task to the writer and back,
    /// with no task of the group's own in between to wake.
    private func commit(_ jobs: [Job]) {
        if jobs.isEmpty { return }
        pool.asyncWrite(
            { db in
                let memo = TransactionMemo()
                for job in jobs { job.run(db, memo) }
            },
            completion: { _, result in
                let failure: (any Error)? = if case .failure(let error) = result { error } else { nil }
                self.finished(jobs, failure: failure)
            })
    }
}
