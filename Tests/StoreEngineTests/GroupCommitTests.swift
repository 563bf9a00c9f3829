import Foundation
import GRDB
import LocalState
import SQLiteStore
import StoreCore
import Synchronization
import TestSupport
import Testing

@testable import StoreEngine

/// Concurrent writes share commits, and each still behaves as if it had a transaction of its own.
@Suite(.disabled(if: StoreFixture.onPostgres, "works on the SQLite file under the store")) struct GroupCommitTests {
    final class CommitCounter: TransactionObserver, Sendable {
        let commits = Mutex(0)
        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
        func databaseDidChange(with event: DatabaseEvent) {}
        func databaseDidCommit(_ db: Database) { commits.withLock { $0 += 1 } }
        func databaseDidRollback(_ db: Database) {}
    }

    final class CallCounter: Sendable {
        let calls = Mutex(0)
    }

    static func pool() throws -> (DatabasePool, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "storefront-group-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let pool = try DatabasePool(path: directory.appendingPathComponent("test.sqlite").path)
        try pool.write { db in
            try db.execute(sql: "CREATE TABLE items (id INTEGER PRIMARY KEY, value TEXT NOT NULL UNIQUE)")
        }
        return (pool, directory)
    }

    @Test func concurrentWritesShareCommitsAndAFailingOneIsRolledBackAlone() async throws {
        let (pool, directory) = try Self.pool()
        defer { try? FileManager.default.removeItem(at: directory) }
        let counter = CommitCounter()
        pool.add(transactionObserver: counter)
        let writer = GroupCommit(pool: pool)
        let count = 300
        // The first write to run holds its batch until every writer has been called: however the
        // tasks are scheduled, the writes overlap, and all but the first wait in shared batches.
        // One deadline for the whole test, not one per write (on a pool starved by other tests,
        // 300 waits of a second each held a thread for five minutes). The writers run on their
        // own threads (`DispatchExecutor`), which no other test can hold.
        let called = CallCounter()
        let deadline = Date().addingTimeInterval(30)
        let executor = DispatchExecutor()
        let results = await withTaskGroup(of: (Int, Result<Int64, any Error>).self) { group in
            for index in 0..<count {
                group.addTask(executorPreference: executor) {
                    do {
                        called.calls.withLock { $0 += 1 }
                        return (
                            index,
                            .success(
                                try await writer.write { db in
                                    while called.calls.withLock({ $0 }) < count, Date() < deadline { usleep(200) }
                                    // Every tenth write inserts, then fails: its row must not survive.
                                    try db.execute(
                                        sql: "INSERT INTO items (value) VALUES (?)", arguments: ["item \(index)"])
                                    if index % 10 == 7 { throw StoreFailure("write \(index) refused") }
                                    return db.lastInsertedRowID
                                })
                        )
                    } catch {
                        return (index, .failure(error))
                    }
                }
            }
            var all: [Int: Result<Int64, any Error>] = [:]
            for await (index, result) in group { all[index] = result }
            return all
        }
        var ids = Set<Int64>()
        for index in 0..<count {
            switch results[index] {
            case .success(let id)?:
                #expect(index % 10 != 7)
                ids.insert(id)
            case .failure(let error)?:
                #expect(index % 10 == 7 && "\(error)".contains("write \(index) refused"), "\(index): \(error)")
            case nil:
                Issue.record("write \(index) never answered")
            }
        }
        #expect(ids.count == count - count / 10)
        let values = try await pool.read { db in try String.fetchAll(db, sql: "SELECT value FROM items") }
        #expect(values.count == count - count / 10)
        #expect(!values.contains("item 7") && values.contains("item 8"))
        let commits = counter.commits.withLock { $0 }
        #expect(commits < count - count / 10, "\(commits) commits for \(count) writes: no write shared a commit")
    }

    @Test func aLoneWriteCommitsAtOnceAndSeesEarlierWrites() async throws {
        let (pool, directory) = try Self.pool()
        defer { try? FileManager.default.removeItem(at: directory) }
        let writer = GroupCommit(pool: pool)
        for index in 0..<5 {
            let total = try await writer.write { db in
                try db.execute(sql: "INSERT INTO items (value) VALUES (?)", arguments: ["item \(index)"])
                return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM items") ?? 0
            }
            #expect(total == index + 1)
        }
        // A constraint error in one write leaves the next one unaffected.
        await #expect(throws: DatabaseError.self) {
            try await writer.write { db in try db.execute(sql: "INSERT INTO items (value) VALUES ('item 0')") }
        }
        #expect(try await writer.write { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM items") } == 5)
    }
}
