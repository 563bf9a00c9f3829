import Foundation
import StoreCore
import StoreEngine
import StoreKitModel
import StoreSQL
import Synchronization
import TestSupport
import Testing

/// The scheduler reads before it locks: a pass over a store with nothing due takes no write,
/// on either storage, so an idle server takes no write lock; a pass with a renewal due does.
@Suite struct IdleSchedulerTests {
    /// The fixture's storage, counting the writes made through it.
    final class CountingStorage: StoreStorage {
        let inner: any StoreStorage
        let writes = Mutex(0)

        init(_ inner: any StoreStorage) {
            self.inner = inner
        }

        var location: String { inner.location }
        var dialect: SQLDialect { inner.dialect }
        var health: StorageHealth { inner.health }

        func read<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) throws -> T) async throws -> T {
            try await inner.read(body)
        }

        func write<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) throws -> T) async throws -> T {
            writes.withLock { $0 += 1 }
            return try await inner.write(body)
        }

        func writeNow<T>(_ body: (any SQLDatabase) throws -> T) throws -> T {
            writes.withLock { $0 += 1 }
            return try inner.writeNow(body)
        }
    }

    @Test func aPassWithNothingDueTakesNoWriteAndOneWithARenewalDoes() async throws {
        let directory = scratchDirectory("idle-scheduler")
        let counting = CountingStorage(try StoreFixture.database(in: directory).storage)
        let clock = ManualClock()
        let store = try SimulatedStore(
            catalog: try StoreFixture.catalog(), database: StoreDatabase(storage: counting), clock: clock)
        _ = try await store.add(Payment(productId: StoreFixture.monthly, account: "alice"), forcing: nil)
        try await store.scheduler.runDue(purgingKeysBefore: clock.now())
        let settled = counting.writes.withLock { $0 }
        for _ in 0..<30 {
            clock.advance(by: 1)
            try await store.scheduler.runDue(purgingKeysBefore: clock.now().addingTimeInterval(-86_400))
        }
        #expect(counting.writes.withLock { $0 } == settled, "30 idle passes wrote nothing")
        clock.advance(by: 40 * 86_400)
        try await store.scheduler.runDue()
        #expect(counting.writes.withLock { $0 } > settled, "a due renewal is written")
        #expect(try await store.transactions(account: "alice").count > 1)
    }
}
