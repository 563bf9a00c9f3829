import Foundation
import GRDB
import LocalState
import StoreCore
import StoreKitModel
import TestSupport
import Testing

@testable import StoreEngine

/// A payment with latency reaches its outcome in a second commit. When that commit cannot be
/// written (a full disk, played here by a writer that may only read), the store tries again
/// until it can, reporting the failure as its storage health meanwhile, instead of leaving the
/// transaction `purchasing` until the store opens again.
@Suite(.disabled(if: StoreFixture.onPostgres, "works on the SQLite file under the store")) struct StorageRetryTests {
    func writable(_ store: SimulatedStore, _ writable: Bool) async throws {
        try await store.database.pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA query_only = \(writable ? 0 : 1)")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aPaymentWhoseOutcomeCannotBeWrittenReachesItOnceTheStoreCanWrite() async throws {
        let fixture = try StoreFixture()
        // A second of latency: the writer turns read-only before the outcome is due, even on a
        // loaded machine.
        try await fixture.setControls { $0.latencyMilliseconds = 1000 }
        let updates = await fixture.store.updates()
        let started = try await fixture.store.add(Payment(productId: StoreFixture.gems, account: "alice"))
        try await writable(fixture.store, false)
        // The outcome's commit fails at least once: the failure is the store's health.
        while fixture.store.storageHealth.problem == nil { try await Task.sleep(for: .milliseconds(10)) }
        #expect(try await fixture.store.transactions(account: "alice").first?.state == .purchasing)
        try await writable(fixture.store, true)
        for await update in updates where update.transaction.id == started.id && update.transaction.state != .purchasing
        {
            #expect(update.transaction.state == .purchased)
            break
        }
        #expect(fixture.store.storageHealth.problem == nil)
    }
}
