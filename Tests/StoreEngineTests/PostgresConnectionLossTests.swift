import Foundation
import PostgresStore
import StoreCore
import StoreSQL
import TestSupport
import Testing

/// A read or write whose connection closes midway (PostgreSQL restarted, an idle-session killer)
/// was rolled back by PostgreSQL: the rest of it must fail, not run on a new connection outside
/// its transaction. Runs in the conformance pass of `.ci/run`.
@Suite(.enabled(if: StoreFixture.onPostgres, "needs PostgreSQL: STOREFRONT_TEST_POSTGRES, which .ci/run sets"))
struct PostgresConnectionLossTests {
    @Test func aWriteWhoseConnectionClosesMidwayRecordsNothing() async throws {
        let url = try #require(StoreFixture.testPostgres)
        let storage = try PostgresStorage(
            PostgresLocation(url), migrations: [], poolSize: 1,
            schema: "loss_\(UUID().uuidString.prefix(8).lowercased())")
        defer { storage.close() }
        try await storage.write { db in try db.execute(sql: "CREATE TABLE marks (n BIGINT)") }
        await #expect(throws: StoreFailure.self) {
            try await storage.write { db in
                try db.execute(sql: "INSERT INTO marks VALUES (1)")
                _ = try? db.execute(sql: "SELECT pg_terminate_backend(pg_backend_pid())")
                try db.execute(sql: "INSERT INTO marks VALUES (2)")
            }
        }
        let marks = try await storage.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM marks") }
        #expect(marks == 0)
    }
}
