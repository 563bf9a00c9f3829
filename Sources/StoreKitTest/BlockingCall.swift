import Foundation

/// StoreKitTest's calls are synchronous, as Apple declares them, while the store is async. The
/// work runs on a thread of its own (a task executor over a serial queue, which the store's
/// actor then runs on too), so the caller waiting for it never starves Swift's cooperative
/// threads of the one the work needs.
enum BlockingCall {
    static let executor = QueueExecutor()

    static func run<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
        let done = DispatchSemaphore(value: 0)
        let result = ResultBox<T>()
        Task(executorPreference: executor) {
            do { result.value = .success(try await work()) } catch { result.value = .failure(error) }
            done.signal()
        }
        done.wait()
        switch result.value {
        case .success(let value): return value
        case .failure(let error): throw error
        case nil: throw SKTestError(.invalidAction)
        }
    }
}

/// A task executor that runs every job on one serial dispatch queue.
final class QueueExecutor: TaskExecutor, @unchecked Sendable {
    private let queue = DispatchQueue(label: "storefront.storekittest")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

/// Written once by the work, read after its signal.
final class ResultBox<T: Sendable>: @unchecked Sendable {
    var value: Result<T, any Error>?
}
