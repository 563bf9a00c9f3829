import Foundation
import TestSupport
import Testing

/// What `/admin` sets through one server on a shared store holds at every server on it within a
/// second: notification URLs, App Store Server API keys (added, replaced, revoked) and the test
/// controls. Runs in the conformance pass of `.ci/run`.
@Suite(.enabled(if: StoreFixture.onPostgres, "needs PostgreSQL: STOREFRONT_TEST_POSTGRES, which .ci/run sets"))
struct SharedPostgresSettingsTests {
    static let admin = ["Authorization": "Bearer \(SharedPostgresServerTests.token)"]
    static let json = ["Content-Type": "application/json"]
    static let issuer = "57246542-96fe-1a63-e053-0824d011072a"

    /// Whether `condition` holds within `seconds`, looking every 100 ms.
    static func eventually(within seconds: Double = 5, _ condition: () async throws -> Bool) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return try await condition()
    }

    static func urls(_ server: ServeProcess) async throws -> [String]? {
        try await HTTP.send("GET", server.baseURL + "/admin/notification-urls", headers: admin).json["urls"]
            as? [String]
    }

    static func notifications(_ server: ServeProcess) async throws -> [[String: Any]] {
        try await HTTP.send("GET", server.baseURL + "/admin/notifications", headers: admin).json["notifications"]
            as? [[String: Any]] ?? []
    }

    @Test func notificationURLsSetThroughOneServerAreWrittenByTheOther() async throws {
        let (first, second) = try SharedPostgresServerTests.twoServers()
        defer {
            first.stop()
            second.stop()
        }
        let url = "http://127.0.0.1:9/notifications"
        let set = try await HTTP.send(
            "PUT", first.baseURL + "/admin/notification-urls", body: Data(#"{"urls":["\#(url)"]}"#.utf8),
            headers: Self.admin.merging(Self.json) { $1 })
        #expect(set.status == 200)
        #expect(try await Self.eventually { try await Self.urls(second) == [url] })
        let paid = try await SharedPostgresServerTests.pay(second, key: "urls-1")
        let id = try #require(SharedPostgresServerTests.transactionId(paid))
        let written = try await Self.notifications(first)
        #expect(written.contains { $0["transactionId"] as? String == id }, "\(written)")
        // Cleared through the other server: neither writes one any more.
        let cleared = try await HTTP.send(
            "PUT", second.baseURL + "/admin/notification-urls", body: Data(#"{"urls":[]}"#.utf8),
            headers: Self.admin.merging(Self.json) { $1 })
        #expect(cleared.status == 200)
        #expect(try await Self.eventually { try await Self.urls(first) == [] })
        _ = try await SharedPostgresServerTests.pay(first, key: "urls-2")
        #expect(try await Self.notifications(second).count == written.count)
    }

    /// A key file as App Store Connect hands one out, and its PEM.
    static func key(_ directory: URL, _ name: String) throws -> (file: URL, pem: String) {
        let file = directory.appendingPathComponent("\(name).p8")
        let made = try Executable.shell(
            "openssl ecparam -name prime256v1 -genkey -noout | openssl pkcs8 -topk8 -nocrypt -out '\(file.path)'")
        try #require(made.status == 0, "openssl: \(made.stderr)")
        return (file, try String(contentsOf: file, encoding: .utf8))
    }

    static func token(_ file: URL, keyId: String) throws -> String {
        let script = Executable.repositoryRoot.appendingPathComponent("Tests/Python/server_api_token.py")
        let made = try Executable.run(python: [
            script.path, file.path, issuer, keyId, "com.example.storefront.demo",
        ])
        try #require(made.status == 0, "\(made.stderr)")
        return made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func register(_ server: ServeProcess, keyId: String, pem: String) async throws -> Int {
        let body = try JSONSerialization.data(withJSONObject: ["issuerId": issuer, "keyId": keyId, "key": pem])
        return try await HTTP.send(
            "POST", server.baseURL + "/admin/api-keys", body: body, headers: admin.merging(json) { $1 }
        ).status
    }

    /// The status of Get Transaction Info at `server` with `token`.
    static func read(_ server: ServeProcess, _ id: String, token: String) async throws -> Int {
        try await HTTP.send(
            "GET", server.baseURL + "/inApps/v1/transactions/\(id)", headers: ["Authorization": "Bearer \(token)"]
        ).status
    }

    @Test func apiKeysAddedReplacedAndRevokedThroughOneServerHoldAtTheOther() async throws {
        let (first, second) = try SharedPostgresServerTests.twoServers()
        defer {
            first.stop()
            second.stop()
        }
        let directory = scratchDirectory("shared-api-keys")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let (old, new) = (try Self.key(directory, "old"), try Self.key(directory, "new"))
        let (oldToken, newToken) = (try Self.token(old.file, keyId: "KEY1"), try Self.token(new.file, keyId: "KEY1"))
        let id = try #require(
            SharedPostgresServerTests.transactionId(try await SharedPostgresServerTests.pay(first, key: "k")))
        #expect(try await Self.read(second, id, token: oldToken) == 401)
        #expect(try await Self.register(first, keyId: "KEY1", pem: old.pem) == 201)
        #expect(try await Self.eventually { try await Self.read(second, id, token: oldToken) == 200 })
        // Rotated through the first server: the old key is refused at both, the new one taken.
        #expect(try await Self.register(first, keyId: "KEY1", pem: new.pem) == 201)
        #expect(try await Self.eventually { try await Self.read(second, id, token: oldToken) == 401 })
        #expect(try await Self.read(first, id, token: oldToken) == 401)
        #expect(try await Self.read(second, id, token: newToken) == 200)
        // Revoked through the second server.
        let revoked = try await HTTP.send("DELETE", second.baseURL + "/admin/api-keys/KEY1", headers: Self.admin)
        #expect(revoked.status == 204)
        #expect(try await Self.eventually { try await Self.read(first, id, token: newToken) == 401 })
        #expect(try await Self.read(second, id, token: newToken) == 401)
        let again = try await HTTP.send("DELETE", first.baseURL + "/admin/api-keys/KEY1", headers: Self.admin)
        #expect(again.status == 404)
        let listed = try await HTTP.send("GET", first.baseURL + "/admin/api-keys", headers: Self.admin)
        #expect((listed.json["keys"] as? [Any])?.isEmpty == true, "\(listed.text)")
    }

    @Test func testControlsSetThroughOneServerHoldAtTheOther() async throws {
        let (first, second) = try SharedPostgresServerTests.twoServers()
        defer {
            first.stop()
            second.stop()
        }
        let set = try await HTTP.send(
            "PUT", first.baseURL + "/admin/controls", body: Data(#"{"askToBuy":true}"#.utf8),
            headers: Self.admin.merging(Self.json) { $1 })
        #expect(set.status == 200)
        let paid = try await SharedPostgresServerTests.pay(second, key: "controls-1")
        let id = try #require(SharedPostgresServerTests.transactionId(paid))
        #expect(
            try await Self.eventually {
                let listed = try await HTTP.send("GET", second.baseURL + "/admin/transactions", headers: Self.admin)
                return (listed.json["transactions"] as? [[String: Any]])?.contains {
                    $0["transactionId"] as? String == id && $0["state"] as? String == "deferred"
                } == true
            })
    }
}
