import AppSide
import Foundation
import LocalState
import SQLiteStore
import StoreCore
import StoreEngine
import StoreKitModel
import Synchronization

/// A simulated purchase end to end, in process, as the app does it: the order placed in the app
/// ledger, the payment added, the `purchased` update, delivery, verification, finish. Zero latency;
/// every step is a durable SQLite commit, as in real use (a fresh state directory in the system's
/// temporary directory).
struct PurchaseFigures: Encodable {
    let purchases: Int
    /// One purchase, add to finished.
    let perPurchase: Stats
    let purchasesPerSecond: Double
}

func purchaseFigures(catalogBytes: [UInt8], count: Int) -> PurchaseFigures {
    let catalog = decode(catalogBytes, source: "purchase")
    let result = Mutex<Result<[Double], any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        let outcome: Result<[Double], any Error>
        do { outcome = .success(try await timedPurchases(catalog, count: count)) } catch { outcome = .failure(error) }
        result.withLock { $0 = outcome }
        done.signal()
    }
    done.wait()
    switch result.withLock({ $0 }) {
    case .success(let times)?:
        let total = times.reduce(0, +)
        return PurchaseFigures(
            purchases: times.count, perPurchase: Stats(milliseconds: times),
            purchasesPerSecond: total > 0 ? Double(times.count) / (total / 1000) : 0)
    case .failure(let error)?: fail("purchase: \(error)")
    case nil: fail("purchase: no result")
    }
}

private func timedPurchases(_ catalog: Catalog, count: Int) async throws -> [Double] {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "storefront-bench-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let state = StateDirectory(url: directory)
    let store = try SimulatedStore(catalog: catalog, database: StoreDatabase(storage: SQLiteStorage.store(in: state)))
    let observer = PurchaseObserver(store: store, ledger: try AppLedger(state: state), catalog: catalog)
    guard let product = catalog.products.first(where: { $0.type == .consumable }) else {
        throw StoreFailure("the catalog has no consumable")
    }
    let account = catalog.defaultAccount.name
    var times: [Double] = []
    for round in 0..<(count + 2) {  // the first two are the warm-up
        let start = now()
        let updates = await store.updates()
        let started = try await observer.buy(
            Payment(productId: product.id, quantity: 1, applicationUsername: nil, account: account))
        var finished = false
        for await update in updates where update.transaction.id == started.id && update.transaction.state != .purchasing
        {
            finished = try await observer.handle(update).contains(.finished(transactionId: started.id))
            break
        }
        guard finished else { throw StoreFailure("purchase \(started.id) did not finish") }
        if round >= 2 { times.append(Double(now() - start) / 1_000_000) }
    }
    return times
}
