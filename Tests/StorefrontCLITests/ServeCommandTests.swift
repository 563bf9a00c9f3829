import Foundation
import TestSupport
import Testing

/// The real `storefront serve` on a free loopback port.
@Suite struct ServeCommandTests {
    @Test func servesOnAFreeLoopbackPortAndShutsDownGracefullyOnSIGTERM() async throws {
        let server = try ServeProcess.start(db: scratchDirectory("storefront-serve"))
        defer { server.stop() }
        let health = try await HTTP.send("GET", server.baseURL + "/v1/health")
        #expect(health.status == 200)
        #expect(health.json["environment"] as? String == "Sandbox")
        #expect(server.printedToken != nil)  // generated and printed, since none was given
        // A long poll in flight when SIGTERM arrives is answered, not cut off.
        async let poll = HTTP.send("GET", server.baseURL + "/v1/accounts/alice/updates?wait=30")
        try await Task.sleep(for: .milliseconds(500))
        let started = Date()
        #expect(server.signal(SIGTERM, timeout: 15))
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(server.process.terminationStatus == 0)
        let answered = try await poll
        #expect(answered.status == 200)
        #expect((answered.json["updates"] as? [Any])?.isEmpty == true)
        // One log line per request, without the token.
        #expect(server.stderr.contains("GET /v1/health 200"))
        #expect(!server.stderr.contains(server.printedToken ?? "-"))
    }

    /// `products --store`: the server's catalog and its answer, simulated errors included.
    @Test func productsAsksTheServedStore() async throws {
        let server = try ServeProcess.start(
            db: scratchDirectory("storefront-serve-products"), arguments: ["--admin-token", "products-token"])
        defer { server.stop() }
        let listed = try Executable.run(["products", "--store", server.baseURL, "--json"])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains(#""id":"com.example.storefront.gems.100""#))
        let set = try Executable.run([
            "manage", "set", "api-error", "load-products", "fail:0", "--store", server.baseURL,
            "--admin-token", "products-token", "--state", scratchDirectory("products-manage").path,
        ])
        #expect(set.status == 0, "\(set.stderr)")
        let failed = try Executable.run(["products", "--store", server.baseURL])
        #expect(failed.status == 1)
        #expect(
            failed.stderr.contains("the products request to \(server.baseURL) failed with SKError 0 unknown"),
            "\(failed.stderr)")
    }

    @Test func aGivenAdminTokenGuardsAdminAndIsNotPrinted() async throws {
        let token = "given-token-\(UUID().uuidString)"
        let server = try ServeProcess.start(
            db: scratchDirectory("storefront-serve"), arguments: ["--admin-token", token])
        defer { server.stop() }
        #expect(server.printedToken == nil)
        #expect(!server.stdout.contains(token))
        #expect(try await HTTP.send("GET", server.baseURL + "/admin/transactions").status == 401)
        #expect(
            try await HTTP.send(
                "GET", server.baseURL + "/admin/transactions", headers: ["Authorization": "Bearer wrong"]
            ).status == 401)
        #expect(
            try await HTTP.send(
                "GET", server.baseURL + "/admin/transactions", headers: ["Authorization": "Bearer \(token)"]
            ).status == 200)
    }

    @Test func bindingBeyondLoopbackWarns() async throws {
        let server = try ServeProcess.start(db: scratchDirectory("storefront-serve"), arguments: ["--host", "0.0.0.0"])
        defer { server.stop() }
        #expect(server.stderr.contains("not loopback"))
    }

    /// The server's state directory is its --db option; the errors about it named the client's
    /// --state, which `serve` does not have. A lock file (`open.lock`) that is a directory cannot
    /// be opened even by root; a read-only directory shows the same to anyone else.
    @Test func aStateDirectoryItCannotUseIsNamedByItsDbOption() throws {
        let scratch = scratchDirectory("storefront-serve-db")
        let unusable = scratch.appendingPathComponent("unusable")
        try FileManager.default.createDirectory(
            at: unusable.appendingPathComponent("open.lock"), withIntermediateDirectories: true)
        let file = scratch.appendingPathComponent("file")
        try Data().write(to: file)
        var cases = [(unusable, "pass a writable --db DIR"), (file.appendingPathComponent("db"), "pass --db DIR")]
        if geteuid() != 0 {
            let readOnly = scratch.appendingPathComponent("read-only")
            try FileManager.default.createDirectory(
                at: readOnly, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o500])
            cases.append((readOnly, "pass a writable --db DIR"))
        }
        for (db, advice) in cases {
            let result = try Executable.run([
                "serve", "--port", "0", "--db", db.path,
                "--catalog", Executable.repositoryRoot.appendingPathComponent("products.json").path,
            ])
            #expect(result.status == 1, "\(result.stderr)")
            #expect(result.stderr.contains(advice), "\(result.stderr)")
            #expect(!result.stderr.contains("--state"), "\(result.stderr)")
        }
    }

    @Test func badRequestsOverARealSocket() async throws {
        let server = try ServeProcess.start(db: scratchDirectory("storefront-serve"))
        defer { server.stop() }
        let key = ["Idempotency-Key": UUID().uuidString]
        let malformed = try await HTTP.json("POST", server.baseURL + "/v1/payments", "{\"account\":", headers: key)
        #expect(malformed.status == 400)
        #expect((malformed.json["error"] as? [String: Any])?["message"] is String)
        let plain = try await HTTP.send(
            "POST", server.baseURL + "/v1/payments", body: Data("{}".utf8),
            headers: ["Content-Type": "text/plain"].merging(key) { $1 })
        #expect(plain.status == 415)
        let huge = try await HTTP.json(
            "POST", server.baseURL + "/v1/payments", "{\"x\":\"" + String(repeating: "x", count: 1_000_000) + "\"}",
            headers: key)
        #expect(huge.status == 413)
        let unknown = try await HTTP.send("GET", server.baseURL + "/v1/nothing/here")
        #expect(unknown.status == 404)
        #expect((unknown.json["error"] as? [String: Any])?["code"] as? String == "not_found")
        let get = try await HTTP.send("GET", server.baseURL + "/verifyReceipt")
        #expect(get.json["status"] as? Int == 21000)
        // Still serving after all of that.
        #expect(try await HTTP.send("GET", server.baseURL + "/v1/health").status == 200)
    }

    @Test func aRetriedPaymentChargesOnce() async throws {
        let server = try ServeProcess.start(db: scratchDirectory("storefront-serve"))
        defer { server.stop() }
        let body = #"{"account":"alice","productId":"com.example.storefront.gems.100"}"#
        let key = ["Idempotency-Key": "retry-\(UUID().uuidString)"]
        let first = try await HTTP.json("POST", server.baseURL + "/v1/payments", body, headers: key)
        let second = try await HTTP.json("POST", server.baseURL + "/v1/payments", body, headers: key)
        #expect(first.status == 201)
        #expect(second.status == 201)
        #expect(first.body == second.body)
        #expect(second.headers["idempotent-replayed"] == "true")
        let history = try await HTTP.send("GET", server.baseURL + "/v1/accounts/alice/transactions")
        #expect((history.json["transactions"] as? [Any])?.count == 1)
        let conflict = try await HTTP.json(
            "POST", server.baseURL + "/v1/payments",
            #"{"account":"alice","productId":"com.example.storefront.gems.550"}"#, headers: key)
        #expect(conflict.status == 409)
    }
}
