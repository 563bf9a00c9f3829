import Foundation
import PostgresStore
import StoreCore
import StoreSQL
import TestSupport
import Testing

/// A server's concurrent writes share PostgreSQL transactions (one lock, one COMMIT), and each
/// still commits as if it had been alone: one that throws keeps nothing and hears its own error,
/// the others of its batch are kept. Runs in the conformance pass of `.ci/run`.
@Suite(.enabled(if: StoreFixture.onPostgres, "needs PostgreSQL: STOREFRONT_TEST_POSTGRES, which .ci/run sets"))
struct PostgresWriteBatchTests {
    struct Refused: Error, Equatable {
        let n: Int
    }

    private func storage() throws -> PostgresStorage {
        let url = try #require(StoreFixture.testPostgres)
        return try PostgresStorage(
            PostgresLocation(url), migrations: [], poolSize: 2,
            schema: "batch_\(UUID().uuidString.prefix(8).lowercased())")
    }

    @Test func concurrentWritesShareCommitsAndAThrowingOneKeepsNothing() async throws {
        let storage = try storage()
        defer { storage.close() }
        try await storage.write { db in try db.execute(sql: "CREATE TABLE marks (n BIGINT PRIMARY KEY)") }
        let writes = 300
        let outcomes = await withTaskGroup(of: (Int, Result<Int64, Refused>).self) { group in
            for n in 0..<writes {
                group.addTask {
                    do {
                        let transaction = try await storage.write { db in
                            try db.execute(sql: "INSERT INTO marks (n) VALUES (?)", arguments: [n])
                            if n % 7 == 3 { throw Refused(n: n) }
                            return try Int64.fetchOne(db, sql: "SELECT txid_current()") ?? 0
                        }
                        return (n, .success(transaction))
                    } catch let refused as Refused {
                        return (n, .failure(refused))
                    } catch {
                        Issue.record("write \(n) failed with another error: \(error)")
                        return (n, .failure(Refused(n: -1)))
                    }
                }
            }
            var outcomes: [Int: Result<Int64, Refused>] = [:]
            for await (n, outcome) in group { outcomes[n] = outcome }
            return outcomes
        }
        let kept = try await storage.read { db in try Int.fetchAll(db, sql: "SELECT n FROM marks ORDER BY n") }
        #expect(kept == (0..<writes).filter { $0 % 7 != 3 })
        for n in 0..<writes where n % 7 == 3 {
            #expect(outcomes[n] == .failure(Refused(n: n)), "write \(n) hears its own error")
        }
        let transactions = Set(outcomes.values.compactMap { try? $0.get() })
        #expect(transactions.count < kept.count / 2, "\(kept.count) writes in \(transactions.count) transactions")
    }

    @Test func aWriteThatFailsInPostgreSQLLeavesTheRestOfItsBatch() async throws {
        let storage = try storage()
        defer { storage.close() }
        try await storage.write { db in try db.execute(sql: "CREATE TABLE marks (n BIGINT PRIMARY KEY)") }
        // Each pair inserts the same key: the second of a pair breaks the unique key, in SQL.
        let failures = await withTaskGroup(of: Bool.self) { group in
            for n in 0..<100 {
                group.addTask {
                    do {
                        try await storage.write { db in
                            try db.execute(sql: "INSERT INTO marks (n) VALUES (?)", arguments: [n / 2])
                        }
                        return false
                    } catch {
                        return true
                    }
                }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        let kept = try await storage.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM marks") }
        #expect(failures == 50)
        #expect(kept == 50)
        #expect(storage.health.problem == nil)
    }
}

/// A server hears another server's commits as they land (NOTIFY with every batch), so a long
/// poll at one answers a payment made at the other without waiting for its next look.
@Suite(.enabled(if: StoreFixture.onPostgres, "needs PostgreSQL: STOREFRONT_TEST_POSTGRES, which .ci/run sets"))
struct PostgresCommitsElsewhereTests {
    @Test func aServerHearsTheOtherServersCommits() async throws {
        let url = try #require(StoreFixture.testPostgres)
        let schema = "heard_\(UUID().uuidString.prefix(8).lowercased())"
        let first = try PostgresStorage(
            PostgresLocation(url), migrations: [], poolSize: 1, schema: schema, server: true)
        defer { first.close() }
        let second = try PostgresStorage(
            PostgresLocation(url), migrations: [], poolSize: 1, schema: schema, server: true)
        defer { second.close() }
        try await first.write { db in try db.execute(sql: "CREATE TABLE marks (n BIGINT)") }
        let heard = try #require(second.commitsElsewhere).stream()
        // The listener connects in the background: commits keep coming until one is heard.
        let writer = Task {
            for n in 0..<600 where !Task.isCancelled {
                try? await first.write { db in try db.execute(sql: "INSERT INTO marks VALUES (?)", arguments: [n]) }
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
        defer { writer.cancel() }
        var iterator = heard.makeAsyncIterator()
        #expect(await iterator.next() != nil)
    }
}
