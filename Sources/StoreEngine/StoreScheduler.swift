import Foundation
import StoreCore

/// The one place where time-driven work runs: renewals and expired Ask to Buy requests, the
/// notifications that time alone brings about (an expiry with auto-renew off, the end of a grace
/// period), mass extensions, and idempotency keys past their lifetime. Each kind reads whether
/// anything is due before it takes the write lock, so an idle store takes none, and reads of the
/// store never write.
///
/// Each process has one: `storefront serve`'s maintenance (a pass a second), the terminal app's
/// loop (a pass a second beside the screen), and a command's one pass as it opens the store
/// (`SimulatedStore.resume`). A write whose outcome depends on a subscription's state (a payment,
/// a test control's action, a restore, an extension) first brings renewals up to date itself.
public struct StoreScheduler: Sendable {
    let store: SimulatedStore

    public init(_ store: SimulatedStore) {
        self.store = store
    }

    /// One pass over the work due now. `purgingKeysBefore`: forget idempotency keys reserved
    /// before this date (a server's, whose keys have a lifetime); nil leaves them. Returns how
    /// many keys it forgot.
    @discardableResult
    public func runDue(purgingKeysBefore: Date? = nil) async throws -> Int {
        try await store.renewDue()
        try await store.sweepTimedEvents()
        try await store.massExtensions.advance()
        guard let purgingKeysBefore else { return 0 }
        return try await store.idempotencyKeys.purgeIfDue(reservedBefore: purgingKeysBefore)
    }

    /// Runs a pass every `interval` seconds of the store's clock until the task is cancelled;
    /// a failed pass is reported to `failed` and the next one runs as usual.
    public func run(every interval: TimeInterval, failed: @Sendable (any Error) -> Void) async {
        while !Task.isCancelled {
            do {
                try await runDue()
            } catch is CancellationError {
                return
            } catch {
                failed(error)
            }
            do {
                try await store.clock.sleep(for: interval)
            } catch {
                return
            }
        }
    }
}

extension SimulatedStore {
    /// The scheduler of this store's time-driven work.
    public nonisolated var scheduler: StoreScheduler { StoreScheduler(self) }
}
