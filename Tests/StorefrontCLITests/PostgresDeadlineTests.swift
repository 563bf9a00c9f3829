import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A server on PostgreSQL answers within its deadlines whatever the database does, and says
/// nothing of the database in its answers. Before, a frozen PostgreSQL made payments and
/// `/v1/health` hang for the whole freeze (PostgreSQL's statement timeout is PostgreSQL's own),
/// health said `ok` while every write timed out on a held lock, and the 503's body carried
/// PostgreSQL's message, user, host, database and SQL. Runs in the conformance pass of `.ci/run`.
@Suite(.enabled(if: StoreFixture.onPostgres, "needs PostgreSQL: STOREFRONT_TEST_POSTGRES, which .ci/run sets"))
struct PostgresDeadlineTests {
    /// The store's write lock (`PostgresStorage.writeLock`, "SFST").
    static let writeLock = 0x5346_5354

    func pay(_ server: ServeProcess, key: String) async throws -> HTTP.Reply {
        try await HTTP.send(
            "POST", server.baseURL + "/v1/payments", body: Data(SharedPostgresServerTests.payment.utf8),
            headers: ["Content-Type": "application/json", "Idempotency-Key": key], timeout: 60)
    }

    func header(_ reply: HTTP.Reply, _ name: String) -> String? {
        reply.headers.first { $0.key.lowercased() == name }?.value
    }

    /// What no answer may carry: the database's address, user and name, PostgreSQL's words, SQL.
    func expectNoInternals(_ reply: HTTP.Reply, url: String, _ comment: Comment) {
        let text = reply.text
        let database = String(url.split(separator: "/").last ?? "")
        for secret in ["127.0.0.1", "postgres@", database, "PostgreSQL at", "SELECT", "pg_advisory", "SQLSTATE"] {
            #expect(!text.contains(secret), "\(comment): \(secret) in \(text)")
        }
    }

    /// Runs `sql` in psql as `name`, in the background, until `stop`.
    func background(_ url: String, name: String, _ sql: String) throws -> SpawnedProcess {
        var environment = ProcessInfo.processInfo.environment
        environment["PGAPPNAME"] = name
        return try SpawnedProcess(
            executable: "/usr/bin/env", arguments: ["psql", url, "-qc", sql], environment: environment,
            directory: Executable.repositoryRoot, output: "/dev/null", errors: "/dev/null")
    }

    func terminate(_ url: String, name: String) throws {
        _ = try Executable.shell(
            "psql '\(url)' -qc \"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '\(name)'\""
        )
    }

    @Test func aHeldWriteLockIs503WithRetryAfterAndDegradedHealthWithoutInternals() async throws {
        let url = try SharedPostgresServerTests.freshDatabase()
        let server = try ServeProcess.start(
            db: scratchDirectory("pg-deadline").appendingPathComponent("a"),
            arguments: ["--db", url, "--db-statement-timeout", "2"], defaultDB: true)
        defer { server.stop() }
        #expect(try await HTTP.send("GET", server.baseURL + "/v1/health").json["status"] as? String == "ok")

        let holder = "lock-holder-\(UUID().uuidString.prefix(8))"
        let lock = try background(url, name: holder, "SELECT pg_advisory_lock(\(Self.writeLock)), pg_sleep(50)")
        defer {
            try? terminate(url, name: holder)
            if lock.isRunning { _ = kill(lock.processIdentifier, SIGKILL) }
        }
        try await Task.sleep(for: .seconds(1))

        let refused = try await pay(server, key: "held-1")
        #expect(refused.status == 503, "\(refused.text)")
        #expect(header(refused, "retry-after") != nil)
        #expect((refused.json["error"] as? [String: Any])?["message"] as? String != nil, "\(refused.text)")
        expectNoInternals(refused, url: url, "the refused payment")
        #expect(server.stderr.contains("pg_advisory_xact_lock"), "the log has the details: \(server.stderr)")

        let start = Date()
        let degraded = try await HTTP.send("GET", server.baseURL + "/v1/health", timeout: 30)
        #expect(Date().timeIntervalSince(start) < 20)
        #expect(degraded.status == 503, "\(degraded.text)")
        #expect(degraded.json["status"] as? String == "degraded", "\(degraded.text)")
        #expect((degraded.json["reason"] as? String)?.isEmpty == false, "\(degraded.text)")
        expectNoInternals(degraded, url: url, "degraded health")

        try terminate(url, name: holder)
        var health: [String: Any] = [:]
        for _ in 0..<20 where health["status"] as? String != "ok" {
            health = try await HTTP.send("GET", server.baseURL + "/v1/health").json
            try await Task.sleep(for: .milliseconds(250))
        }
        #expect(health["status"] as? String == "ok", "health once the lock is free: \(health)")
        #expect(try await pay(server, key: "held-1").status == 201)
    }

    /// A PostgreSQL cluster of the test's own (`.ci/postgres`), so freezing it stops no other test.
    final class PrivateCluster {
        static let script = Executable.repositoryRoot.appendingPathComponent(".ci/postgres").path
        let directory: URL
        let url: String

        init() throws {
            // Not under the scratch directory: the cluster runs as `postgres`, which may not enter it.
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("pg-frozen-\(UUID().uuidString)")
            let started = try Executable.shell("\(Self.script) start '\(directory.path)'")
            guard started.status == 0 else { throw ServeProcess.StartFailure(description: started.stderr) }
            let server = started.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            // A name of its own, which no answer may carry ("postgres" is in "postgresql").
            let created = try Executable.shell("psql '\(server)' -qc 'CREATE DATABASE frozen_store'")
            guard created.status == 0 else { throw ServeProcess.StartFailure(description: created.stderr) }
            url = server.replacing(/\/postgres$/, with: "/frozen_store")
        }

        /// The postmaster and every backend: stopped with SIGSTOP, the cluster answers nothing and
        /// accepts connections it never serves, as a frozen machine does.
        func processes() throws -> [pid_t] {
            let pidFile = try String(
                contentsOf: directory.appendingPathComponent("data/postmaster.pid"), encoding: .utf8)
            guard let postmaster = pidFile.split(separator: "\n").first.flatMap({ pid_t($0) }) else { return [] }
            let children = try Executable.shell("pgrep -P \(postmaster)").stdout.split(separator: "\n")
            return [postmaster] + children.compactMap { pid_t($0) }
        }

        deinit {
            _ = try? Executable.shell("\(Self.script) stop '\(directory.path)'")
        }
    }

    @Test func aFrozenDatabaseIsAnsweredWithinTheDeadlines() async throws {
        let cluster = try PrivateCluster()
        let server = try ServeProcess.start(
            db: scratchDirectory("pg-deadline").appendingPathComponent("b"),
            arguments: [
                "--db", cluster.url, "--db-statement-timeout", "2", "--db-connect-timeout", "2", "--db-pool-size", "2",
            ],
            defaultDB: true)
        defer { server.stop() }
        #expect(try await pay(server, key: "frozen-0").status == 201)

        let frozen = try cluster.processes()
        try #require(frozen.count > 1, "\(frozen)")
        for pid in frozen { kill(pid, SIGSTOP) }
        defer { for pid in frozen { kill(pid, SIGCONT) } }

        let start = Date()
        let health = try await HTTP.send("GET", server.baseURL + "/v1/health", timeout: 30)
        #expect(Date().timeIntervalSince(start) < 20, "health took \(Date().timeIntervalSince(start)) s")
        #expect(health.status == 503 && health.json["status"] as? String == "degraded", "\(health.text)")
        expectNoInternals(health, url: cluster.url, "degraded health")

        let paid = Date()
        let refused = try await pay(server, key: "frozen-1")
        #expect(Date().timeIntervalSince(paid) < 40, "the payment took \(Date().timeIntervalSince(paid)) s")
        #expect(refused.status == 503, "\(refused.text)")
        #expect(header(refused, "retry-after") != nil)
        expectNoInternals(refused, url: cluster.url, "the refused payment")

        for pid in frozen { kill(pid, SIGCONT) }
        // The same key after the thaw: the payment is made once, whatever the first try did.
        let retried = try await pay(server, key: "frozen-1")
        #expect(retried.status == 201, "\(retried.text)")
        #expect(try await HTTP.send("GET", server.baseURL + "/v1/health").json["status"] as? String == "ok")
    }
}
