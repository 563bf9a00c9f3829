import Foundation
import TestSupport
import Testing

/// No secret reaches the server's output: not the admin token (given by flag or environment), not
/// verifyReceipt's shared secret, not the signing key of JWS and receipts, not even a near miss
/// of the token sent by a client, whatever the requests do (refusals, errors, request logging).
@Suite struct ServeSecretsTests {
    /// Requests that reach every place a secret could leak from: refusals of near-miss tokens,
    /// wrong and right passwords, bad input, server-side errors of the store, the admin routes.
    static func exercise(_ server: ServeProcess, token: String, secret: String) async throws {
        let base = server.baseURL
        let nearMisses = [
            "Bearer \(token.dropLast())", "Bearer \(token)x", "Bearer \(token.uppercased())", "Basic \(token)", token,
        ]
        for header in nearMisses {
            #expect(
                try await HTTP.send("GET", base + "/admin/transactions", headers: ["Authorization": header]).status
                    == 401)
            #expect(
                try await HTTP.json(
                    "PUT", base + "/admin/controls", #"{"askToBuy":true}"#, headers: ["Authorization": header]
                ).status == 401)
        }
        let admin = ["Authorization": "Bearer \(token)"]
        #expect(try await HTTP.send("GET", base + "/admin/transactions", headers: admin).status == 200)
        #expect(
            try await HTTP.json("PUT", base + "/admin/controls", #"{"nextOutcome":"explode"}"#, headers: admin).status
                == 422)
        let paid = try await HTTP.json(
            "POST", base + "/v1/payments", #"{"account":"alice","productId":"com.example.storefront.premium.monthly"}"#,
            headers: ["Idempotency-Key": UUID().uuidString])
        #expect(paid.status == 201)
        let page = try await HTTP.send("GET", base + "/v1/accounts/alice/updates?after=0&wait=10")
        let receipt =
            ((page.json["updates"] as? [[String: Any]])?.first { $0["receipt"] != nil })?["receipt"] as? String ?? ""
        for password in [secret, String(secret.dropLast()), secret + "x", ""] {
            let body = #"{"receipt-data":"\#(receipt)","password":"\#(password)"}"#
            #expect(try await HTTP.json("POST", base + "/verifyReceipt", body).status == 200)
        }
        #expect(
            try await HTTP.json(
                "POST", base + "/verifyReceipt", #"{"receipt-data":"\#(receipt)x","password":"\#(secret)"}"#
            ).status == 200)
        #expect(
            try await HTTP.json("POST", base + "/v1/payments", "{\"account\":", headers: ["Idempotency-Key": "k"])
                .status == 400)
        #expect(try await HTTP.send("POST", base + "/v1/accounts/alice/transactions/999/finish").status == 404)
        #expect(try await HTTP.send("POST", base + "/admin/reset", headers: admin).status == 200)
    }

    @Test(arguments: ["flags", "environment"])
    func noSecretReachesTheServersOutput(_ how: String) async throws {
        let token = "admin-token-\(UUID().uuidString)"
        let secret = "shared-secret-\(UUID().uuidString)"
        let db = scratchDirectory("storefront-secrets")
        let server =
            how == "flags"
            ? try ServeProcess.start(db: db, arguments: ["--admin-token", token, "--shared-secret", secret])
            : try ServeProcess.start(
                db: db, environment: ["STOREFRONT_ADMIN_TOKEN": token, "STOREFRONT_SHARED_SECRET": secret])
        defer { server.stop() }
        try await Self.exercise(server, token: token, secret: secret)
        #expect(server.signal(SIGTERM))
        let output = server.stdout + server.stderr
        #expect(output.contains("GET /admin/transactions 401"))  // the requests were logged, without their secrets
        var secrets = [token, String(token.dropLast()), token.uppercased(), secret, String(secret.dropLast())]
        let files = try StateDir()
        let jwsKey = try #require(
            try files.query(
                db.appendingPathComponent("store.sqlite").path,
                "SELECT value FROM settings WHERE key = 'jws_key'"
            ).first?["value"] as? String)
        let raw = Data(base64Encoded: jwsKey) ?? Data()
        secrets += [jwsKey, raw.map { String(format: "%02x", $0) }.joined(), raw.base64EncodedString()]
        for value in secrets {
            #expect(!output.contains(value), "the server printed a secret (\(value.prefix(6))…)")
        }
    }
}
