import Foundation
import LocalState
import PostgresStore
import SQLiteStore
import StoreCore
import StoreEngine
import StoreKitModel
import Synchronization

/// Renewals at the fastest time rate (one every 2 s) for many active subscriptions, in process:
/// each sweep renews every subscription whose period ended, in one durable commit. The store
/// keeps up when a sweep of every subscription takes less than one period, so none renews late
/// by more than a period. Then the same with billing issues (every renewal enters billing retry
/// and the grace period) and with the grace period ended.
struct RenewalFigures: Encodable {
    let subscriptions: Int
    /// `sqlite`, or `postgresql` with `stores` stores (servers) sharing one database.
    let database: String
    let stores: Int
    /// Wall-clock seconds one period lasts at the rate.
    let periodSeconds: Double
    /// Sweeps that each renewed every subscription once.
    let renewalSweeps: Stats
    /// A sweep that moved every subscription into billing retry and its grace period.
    let billingRetrySweep: Double
    /// A sweep after the grace period ended (access lost, no renewal due).
    let afterGraceSweep: Double
    /// The slowest sweep as a share of the period (below 1 keeps up).
    let worstShareOfPeriod: Double
}

/// `postgres`: a database URL; the store is then `stores` stores on it (servers sharing it), each
/// sweeping at once, instead of one on SQLite.
func renewalFigures(
    catalogBytes: [UInt8], subscriptions: Int, sweeps: Int, postgres: String? = nil, stores: Int = 1
) -> RenewalFigures {
    let base = decode(catalogBytes, source: "renewals")
    let result = Mutex<Result<RenewalFigures, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        let outcome: Result<RenewalFigures, any Error>
        do {
            outcome = .success(
                try await timedRenewals(
                    base, subscriptions: subscriptions, sweeps: sweeps, postgres: postgres, stores: stores))
        } catch {
            outcome = .failure(error)
        }
        result.withLock { $0 = outcome }
        done.signal()
    }
    done.wait()
    switch result.withLock({ $0 }) {
    case .success(let figures)?: return figures
    case .failure(let error)?: fail("renewals: \(error)")
    case nil: fail("renewals: no result")
    }
}

private func timedRenewals(
    _ base: Catalog, subscriptions: Int, sweeps: Int, postgres: String?, stores count: Int
) async throws -> RenewalFigures {
    // One account per subscription: an account holds one plan per group.
    let accounts = (0..<subscriptions).map {
        Account(name: "bench\($0)", storefront: base.defaultStorefront, askToBuy: false, note: "")
    }
    let catalog = Catalog(
        bundleId: base.bundleId, languages: base.languages, defaultStorefront: base.defaultStorefront,
        storefronts: base.storefronts,
        accounts: accounts, subscriptionGroups: base.subscriptionGroups, products: base.products,
        settings: base.settings)
    guard
        let product = catalog.products.first(where: { $0.type == .autoRenewable && $0.subscription?.introOffer == nil })
            ?? catalog.products.first(where: { $0.type == .autoRenewable })
    else { throw StoreFailure("the catalog has no subscription") }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "storefront-bench-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let clock = ManualClock()
    let stores =
        if let postgres {
            try (0..<max(1, count)).map { _ in
                try SimulatedStore(
                    catalog: catalog,
                    database: StoreDatabase(
                        storage: PostgresStorage(
                            PostgresLocation(postgres), migrations: PostgresStorage.storeMigrations, poolSize: 4)),
                    clock: clock)
            }
        } else {
            [
                try SimulatedStore(
                    catalog: catalog,
                    database: StoreDatabase(storage: SQLiteStorage.store(in: StateDirectory(url: directory))),
                    clock: clock)
            ]
        }
    let store = stores[0]
    var controls = try await store.controls()
    controls.timeRate = .oneRenewalEvery2Seconds
    try await store.setControls(controls)
    let period = TimeRate.oneRenewalEvery2Seconds.end(
        of: product.subscription?.period ?? SubscriptionPeriod(value: 1, unit: .month), from: clock.now()
    ).timeIntervalSince(clock.now())
    // Bought concurrently, so group commits share the fsyncs: setting up is not what is measured.
    try await withThrowingTaskGroup(of: Void.self) { group in
        for chunk in stride(from: 0, to: subscriptions, by: subscriptions / 8 + 1) {
            group.addTask {
                for index in chunk..<min(subscriptions, chunk + subscriptions / 8 + 1) {
                    _ = try await stores[index % stores.count].add(
                        Payment(productId: product.id, account: "bench\(index)"))
                }
            }
        }
        try await group.waitForAll()
    }
    // Every store sweeps at once, as servers sharing a database do; the sweep ends with the last.
    func sweep() async throws -> Double {
        clock.advance(by: period)
        let start = now()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for each in stores { group.addTask { try await each.scheduler.runDue() } }
            try await group.waitForAll()
        }
        return Double(now() - start) / 1_000_000_000
    }
    _ = try await sweep()  // the first period's renewals: warm-up
    var times: [Double] = []
    for _ in 0..<sweeps { times.append(try await sweep()) }
    controls.billingIssues = true
    controls.gracePeriod = true
    try await store.setControls(controls)
    let retry = try await sweep()
    let afterGrace = try await sweep()
    let worst = (times + [retry, afterGrace]).max() ?? 0
    return RenewalFigures(
        subscriptions: subscriptions, database: postgres == nil ? "sqlite" : "postgresql", stores: stores.count,
        periodSeconds: period,
        renewalSweeps: Stats(milliseconds: times.map { $0 * 1000 }),
        billingRetrySweep: retry, afterGraceSweep: afterGrace, worstShareOfPeriod: worst / period)
}
