import Foundation
import TestSupport
import Testing

/// `storefront reset --db postgres://…` drops a Storefront store's own tables only, and only while
/// no server runs on it: servers hold a presence lock and touch a presence row, which outlives a
/// connection the database dropped. Runs in the conformance pass of `.ci/run`.
@Suite(.enabled(if: StoreFixture.onPostgres, "needs PostgreSQL: STOREFRONT_TEST_POSTGRES, which .ci/run sets"))
struct SharedPostgresResetTests {
    static func psql(_ url: String, _ sql: String) throws -> String {
        let ran = try Executable.shell("psql '\(url)' -qAtX -v ON_ERROR_STOP=1 -c \"\(sql)\"")
        try #require(ran.status == 0, "psql: \(ran.stderr)")
        return ran.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func reset(_ url: String) throws -> Executable.Result {
        try Executable.run(["reset", "--db", url, "--yes"])
    }

    static func server(_ url: String, _ name: String) throws -> ServeProcess {
        try ServeProcess.start(
            db: scratchDirectory("postgres-reset").appendingPathComponent(name),
            arguments: ["--db", url, "--admin-token", SharedPostgresServerTests.token], defaultDB: true)
    }

    static func storeTables(_ url: String) throws -> Int {
        Int(try psql(url, "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()")) ?? -1
    }

    @Test func refusedWhileServersRunEvenRightAfterTheirConnectionsWereDropped() async throws {
        let url = try SharedPostgresServerTests.freshDatabase()
        let (first, second) = (try Self.server(url, "a"), try Self.server(url, "b"))
        defer {
            first.stop()
            second.stop()
        }
        #expect(try await SharedPostgresServerTests.pay(first, key: "reset-1").status == 201)
        let tables = try Self.storeTables(url)
        let refused = try Self.reset(url)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("is in use by"), "\(refused.stderr)")
        // As after a restart or an idle-connection killer, with the servers not yet connected
        // again (stopped meanwhile): no storefront connection is left, and no lock.
        for server in [first, second] { _ = kill(server.process.processIdentifier, SIGSTOP) }
        _ = try Self.psql(
            url,
            """
            SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
            WHERE application_name = 'storefront' AND datname = current_database()
            """)
        var left = "1"
        for _ in 0..<100 where left != "0" {
            left = try Self.psql(
                url,
                "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'storefront' AND datname = current_database()"
            )
            if left != "0" { usleep(50_000) }
        }
        let afterDrop = try Self.reset(url)
        for server in [first, second] { _ = kill(server.process.processIdentifier, SIGCONT) }
        #expect(left == "0")
        #expect(afterDrop.status == 1)
        #expect(afterDrop.stderr.contains("seen"), "\(afterDrop.stderr)")
        #expect(try Self.storeTables(url) == tables)
        // The servers connect again and go on with the same store.
        #expect(try await SharedPostgresServerTests.pay(second, key: "reset-2").status == 201)
        #expect(try await SharedPostgresServerTests.pay(first, key: "reset-3").status == 201)
    }

    @Test func goesThroughOnceTheServersStoppedAndTheNextServerStartsAnew() async throws {
        let url = try SharedPostgresServerTests.freshDatabase()
        let server = try Self.server(url, "a")
        defer { server.stop() }
        #expect(try await SharedPostgresServerTests.pay(server, key: "stop-1").status == 201)
        #expect(server.signal(SIGTERM))
        let reset = try Self.reset(url)
        #expect(reset.status == 0, "\(reset.stderr)")
        #expect(reset.stdout.contains("dropped the store's"))
        #expect(try Self.storeTables(url) == 0)
        let again = try Self.server(url, "b")
        defer { again.stop() }
        #expect(try await SharedPostgresServerTests.pay(again, key: "stop-1").status == 201)
    }

    @Test func aServerDoesNotStartWhileAResetHoldsTheStore() throws {
        let url = try SharedPostgresServerTests.freshDatabase()
        // What reset holds while it drops: the presence lock, exclusively.
        let holder = try SpawnedProcess(
            executable: "/bin/sh",
            arguments: ["-c", "psql '\(url)' -qAtX -c 'SELECT pg_advisory_lock(1397117782)' -c 'SELECT pg_sleep(20)'"],
            environment: ProcessInfo.processInfo.environment, directory: Executable.repositoryRoot,
            output: "/dev/null", errors: "/dev/null")
        defer {
            _ = kill(holder.processIdentifier, SIGKILL)
            holder.waitUntilExit()
        }
        var held = false
        for _ in 0..<100 where !held {
            held = try Self.psql(url, "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted") != "0"
            if !held { usleep(50_000) }
        }
        try #require(held)
        #expect(throws: ServeProcess.StartFailure.self) { try Self.server(url, "a") }
        #expect(try Self.storeTables(url) == 0)
    }

    @Test func anApplicationsOwnTablesAreRefusedAndKept() throws {
        let url = try SharedPostgresServerTests.freshDatabase()
        _ = try Self.psql(
            url,
            """
            CREATE TABLE accounts (id INT PRIMARY KEY); INSERT INTO accounts VALUES (1);
            CREATE TABLE transactions (id INT PRIMARY KEY, account INT REFERENCES accounts(id));
            INSERT INTO transactions SELECT g, 1 FROM generate_series(1, 1000) g;
            CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT);
            CREATE VIEW recent AS SELECT * FROM transactions;
            """)
        let refused = try Self.reset(url)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("holds no Storefront store"), "\(refused.stderr)")
        #expect(try Self.psql(url, "SELECT count(*) FROM recent") == "1000")
        #expect(try Self.psql(url, "SELECT count(*) FROM settings") == "0")
    }

    @Test func aStoreAnotherObjectDependsOnIsLeftWhole() async throws {
        let url = try SharedPostgresServerTests.freshDatabase()
        let server = try Self.server(url, "a")
        #expect(try await SharedPostgresServerTests.pay(server, key: "view-1").status == 201)
        #expect(server.signal(SIGTERM))
        _ = try Self.psql(url, "CREATE VIEW purchases AS SELECT id FROM transactions")
        let tables = try Self.storeTables(url)
        let refused = try Self.reset(url)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("nothing was dropped"), "\(refused.stderr)\n\(server.stdout)\n\(server.stderr)")
        #expect(try Self.storeTables(url) == tables)
        #expect(try Self.psql(url, "SELECT count(*) FROM purchases") == "1")
    }
}
