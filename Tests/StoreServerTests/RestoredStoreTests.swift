import Foundation
import GRDB
import StoreCore
import StoreServer
import TestSupport
import Testing

@testable import StoreEngine

/// A server restored from a backup of its database (or started on a copy) numbers its
/// transactions from its own start, above every id the first run issued, so no id names two
/// purchases and no app skips a paid one as already delivered.
@Suite struct RestoredStoreTests {
    @Test(.disabled(if: StoreFixture.onPostgres, "works on the SQLite file under the store"))
    func aRestoredServerIssuesNoIdTheFirstRunIssued() async throws {
        let live = try await ServerFixture()
        let first = try await live.buy(ServerFixture.gems).transaction.id
        let backup = scratchDirectory("backup")
        try FileManager.default.createDirectory(at: backup, withIntermediateDirectories: true)
        let store = live.service.store
        try await store.database.pool.writeWithoutTransaction { db in
            try db.execute(sql: "VACUUM INTO ?", arguments: [backup.appendingPathComponent("store.sqlite").path])
        }
        var issued = [first]
        for _ in 0..<2 { issued.append(try await live.buy(ServerFixture.gems).transaction.id) }

        // The backup restored a second later: a run of its own.
        let restored = try await ServerFixture(
            directory: backup, configuration: ServerFixture.configuration(),
            start: live.clock.now().addingTimeInterval(1))
        let again = try await restored.buy(ServerFixture.gems).transaction.id
        #expect(!issued.contains(again), "\(again) was issued before: \(issued)")
        let newest = try #require(issued.compactMap(Int64.init).max())
        #expect(try #require(Int64(again)) > newest)
        let (restoredId, liveId) = (restored.service.store.storeId(), live.service.store.storeId())
        #expect(restoredId == liveId, "the same store, restored")
        #expect(OrderId.of(transactionId: again) != nil, "an order id still names it")
    }
}
