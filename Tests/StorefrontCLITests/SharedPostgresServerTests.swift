import Foundation
import TestSupport
import Testing

/// Several `storefront serve` on one PostgreSQL database are one store: a payment's key, its id
/// and its updates hold whichever server a client asks. Runs in the conformance pass of
/// `.ci/run`, which starts PostgreSQL and sets STOREFRONT_TEST_POSTGRES.
@Suite(.enabled(if: StoreFixture.onPostgres, "needs PostgreSQL: STOREFRONT_TEST_POSTGRES, which .ci/run sets"))
struct SharedPostgresServerTests {
    static let token = "shared-postgres-admin-token"
    static let payment = #"{"account":"alice","productId":"com.example.storefront.gems.100","quantity":1}"#

    /// A new database on the test server, and its URL.
    static func freshDatabase() throws -> String {
        let base = try #require(StoreFixture.testPostgres)
        let name = "serve_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let created = try Executable.shell("psql '\(base)' -qc 'CREATE DATABASE \(name)'")
        try #require(created.status == 0, "psql: \(created.stderr)")
        return base.replacing(/\/[^\/?]*(\?.*)?$/, with: "/\(name)")
    }

    /// Two servers on one fresh database.
    static func twoServers() throws -> (ServeProcess, ServeProcess) {
        let url = try freshDatabase()
        let logs = scratchDirectory("shared-postgres")
        let first = try ServeProcess.start(
            db: logs.appendingPathComponent("a"), arguments: ["--db", url, "--admin-token", token], defaultDB: true)
        let second = try ServeProcess.start(
            db: logs.appendingPathComponent("b"), arguments: ["--db", url, "--admin-token", token], defaultDB: true)
        return (first, second)
    }

    static func pay(_ server: ServeProcess, key: String) async throws -> HTTP.Reply {
        try await HTTP.send(
            "POST", server.baseURL + "/v1/payments", body: Data(payment.utf8),
            headers: ["Content-Type": "application/json", "Idempotency-Key": key])
    }

    static func transactionId(_ reply: HTTP.Reply) -> String? {
        (reply.json["transaction"] as? [String: Any])?["transactionId"] as? String
    }

    @Test func aRetryAtTheOtherServerAfterAKillGetsTheSameAnswer() async throws {
        let (first, second) = try Self.twoServers()
        defer {
            first.stop()
            second.stop()
        }
        let answered = try await Self.pay(first, key: "retry-1")
        #expect(answered.status == 201)
        first.stop()  // SIGKILL: the client never heard back, and retries elsewhere
        let retried = try await Self.pay(second, key: "retry-1")
        #expect(retried.status == 201)
        #expect(retried.headers.first { $0.key.lowercased() == "idempotent-replayed" }?.value == "true")
        #expect(retried.body == answered.body)
        let health = try await HTTP.send("GET", second.baseURL + "/v1/health")
        #expect(health.json["database"] as? String == "postgresql")
        #expect(health.json["cursor"] as? Int == 2)  // one payment: purchasing, then purchased
    }

    @Test func paymentsAtBothServersAtOnceGetDistinctIds() async throws {
        let (first, second) = try Self.twoServers()
        defer {
            first.stop()
            second.stop()
        }
        let ids = try await withThrowingTaskGroup(of: String?.self) { group in
            for index in 0..<24 {
                let server = index.isMultiple(of: 2) ? first : second
                group.addTask { Self.transactionId(try await Self.pay(server, key: "both-\(index)")) }
            }
            return try await group.reduce(into: [String]()) { ids, id in if let id { ids.append(id) } }
        }
        #expect(ids.count == 24)
        #expect(Set(ids).count == 24)
        // One store, one identity: the same root certificate and signing key at both.
        for path in ["/.well-known/storefront-root-ca.pem", "/.well-known/jwks.json"] {
            let (one, other) = (
                try await HTTP.send("GET", first.baseURL + path), try await HTTP.send("GET", second.baseURL + path)
            )
            #expect(one.status == 200 && one.body == other.body, "\(path) differs between the servers")
        }
        for server in [first, second] {
            let listed = try await HTTP.send(
                "GET", server.baseURL + "/admin/transactions", headers: ["Authorization": "Bearer \(Self.token)"])
            #expect((listed.json["transactions"] as? [Any])?.count == 24)
        }
    }

    @Test func aLongPollAtOneServerHearsAPaymentAtTheOther() async throws {
        let (first, second) = try Self.twoServers()
        defer {
            first.stop()
            second.stop()
        }
        async let polled = HTTP.send(
            "GET", second.baseURL + "/v1/accounts/alice/updates?after=0&wait=60", timeout: 90)
        try await Task.sleep(for: .milliseconds(300))
        let paid = try await Self.pay(first, key: "poll-1")
        let answered = Date()
        let updates = try await polled
        let heard = (updates.json["updates"] as? [[String: Any]])?.compactMap {
            ($0["transaction"] as? [String: Any])?["transactionId"] as? String
        }
        #expect(heard?.first == Self.transactionId(paid))
        // Another server's commit is seen at the next one-second look, not at the wait's end (a
        // minute): the margin is for a busy machine, where a look can take seconds.
        #expect(Date().timeIntervalSince(answered) < 45)
    }
}
