import Foundation

/// Runs tasks on Dispatch's threads instead of the concurrency pool's: on two cores the pool has
/// two threads, and the terminal tests block them with synchronous waits, so an async test that
/// polls (a server, a writer) could sleep past its deadline without running once. A test body
/// under `withTaskExecutorPreference(DispatchExecutor())` runs on threads no other test holds.
public final class DispatchExecutor: TaskExecutor {
    let queue = DispatchQueue(label: "storefront-test-executor", attributes: .concurrent)

    public init() {}

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
