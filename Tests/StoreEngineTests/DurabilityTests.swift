import Foundation
import GRDB
import LocalState
import SQLiteStore
import StoreCore
import TestSupport
import Testing

@testable import AppSide
@testable import StoreEngine

/// A commit is on the disk before the write returns: the writer connection of each state database
/// syncs the WAL at every commit (`synchronous = FULL`, 2), not only at checkpoints as GRDB's WAL
/// default (NORMAL, 1) does.
@Suite(.disabled(if: StoreFixture.onPostgres, "works on the SQLite file under the store")) struct DurabilityTests {
    private static func synchronous(_ pool: DatabasePool) throws -> Int? {
        try pool.writeWithoutTransaction { try Int.fetchOne($0, sql: "PRAGMA synchronous") }
    }

    @Test func theStoreDatabaseSyncsEveryCommit() throws {
        let state = StateDirectory(url: scratchDirectory("durable-store"))
        let database = try StoreDatabase(storage: SQLiteStorage.store(in: state))
        #expect(try Self.synchronous(database.pool) == 2)
        try database.writeNow { try StoreDatabase.setSetting($0, "probe", "1") }
        #expect(try Self.synchronous(database.pool) == 2)
    }

    @Test func theAppLedgerSyncsEveryCommit() throws {
        let ledger = try AppLedger(state: StateDirectory(url: scratchDirectory("durable-ledger")))
        #expect(try Self.synchronous(ledger.pool) == 2)
    }
}
