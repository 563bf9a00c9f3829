import Foundation
import TestSupport
import Testing

/// A transaction's JWS is signed once per change: every read, before and after a restart, gets
/// the same bytes, and a change (a refund) gets a new JWS that is then as stable.
@Suite struct IssuedJWSTests {
    static let adminToken = "jws-admin-token-0123"

    static func jws(_ server: ServeProcess) async throws -> [String] {
        let reply = try await HTTP.send(
            "GET", server.baseURL + "/admin/transactions", headers: ["Authorization": "Bearer \(adminToken)"])
        #expect(reply.status == 200, "\(reply.text)")
        return reply.text.matches(of: /"jwsRepresentation":"([^"]+)"/).map { String($0.1) }
    }

    @Test func aTransactionsJWSIsTheSameOnEveryReadAndAfterARestart() async throws {
        let root = scratchDirectory("issued-jws")
        let db = root.appendingPathComponent("server")
        var server = try ServeProcess.start(db: db, arguments: ["--admin-token", Self.adminToken])
        defer { server.stop() }
        let bought = try Executable.run(
            [
                "buy", "com.example.storefront.removeads", "--account", "alice", "--state",
                root.appendingPathComponent("device").path,
            ],
            environment: ["STOREFRONT_STORE": server.baseURL])
        #expect(bought.status == 0, "\(bought.stderr)")
        let first = try await Self.jws(server)
        #expect(first.count == 1)
        #expect(try await Self.jws(server) == first, "read twice")
        #expect(server.signal(SIGTERM))
        server = try ServeProcess.start(db: db, arguments: ["--admin-token", Self.adminToken])
        #expect(try await Self.jws(server) == first, "after a restart")

        let id = try #require(bought.stdout.firstMatch(of: /(2\d{15})/).map { String($0.1) })
        let refund = try await HTTP.send(
            "POST", server.baseURL + "/admin/transactions/\(id)/refund",
            headers: ["Authorization": "Bearer \(Self.adminToken)"])
        #expect(refund.status == 200, "\(refund.text)")
        let refunded = try await Self.jws(server)
        #expect(refunded.count == 1 && refunded != first, "a change is signed anew")
        #expect(try await Self.jws(server) == refunded)
    }
}
