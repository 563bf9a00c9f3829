import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LocalState
import StoreAPI
import StoreCore
import StoreEngine
import StoreKitModel
import StoreServer
import Testing

/// One test per server bug Fuzz/http (schemathesis over docs/openapi.json) found; see "HTTP fuzzing" in RELIABILITY.md.
@Suite struct FuzzRegressionTests {
    /// Unknown fields were silently ignored: `{"askTobuy": true}` answered 200 and changed nothing.
    /// Every field of each request type is still accepted (the lists cannot drift from StoreAPI).
    @Test func unknownBodyFieldsAre422AndEveryKnownFieldIsAccepted() async throws {
        let fixture = try await ServerFixture()
        let encoder = JSONEncoder()
        var controls = TestControls()
        controls.storefront = "JPN"
        controls.account = "alice"
        controls.productOutcomes = [ServerFixture.gems: .cancel]
        let bought = try await fixture.buy(ServerFixture.gems).transaction.id
        let full: [(HTTPRequest.Method, String, Data)] = [
            (.post, "/v1/products", try encoder.encode(ProductsRequest(ids: [ServerFixture.gems], storefront: "JPN"))),
            (
                .post, "/v1/payments",
                try encoder.encode(
                    PaymentRequest(
                        Payment(productId: ServerFixture.gems, quantity: 2, applicationUsername: "o", account: "alice"))
                )
            ),
            (
                .post, "/v1/verify",
                try encoder.encode(
                    VerifyRequest(receipt: "x", transactionId: "1", productId: ServerFixture.gems, claim: "c"))
            ),
            (.put, "/admin/controls", try encoder.encode(WireControls(controls))),
            (
                .post, "/v1/accounts/alice/transactions/\(bought)/finish",
                try encoder.encode(FinishRequest(transactionId: bought, finished: true))
            ),
        ]
        try await fixture.test { client in
            for (method, path, data) in full {
                let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
                let headers = ["Idempotency-Key": UUID().uuidString, "Authorization": "Bearer \(ServerFixture.token)"]
                let accepted = try await client.send(
                    method, path, json: String(decoding: data, as: UTF8.self), headers: headers)
                #expect(
                    accepted.status.code < 300,
                    "\(path) with every field (\(object.keys.sorted())): \(String(buffer: accepted.body))")
                var typo = object
                typo["askTobuy"] = true
                let body = String(decoding: try JSONSerialization.data(withJSONObject: typo), as: UTF8.self)
                let refused = try await client.send(
                    method, path, json: body, headers: headers.merging(["Idempotency-Key": UUID().uuidString]) { $1 })
                #expect(refused.status == .unprocessableContent, "\(path)")
                #expect((try json(refused)["error"] as? [String: Any])?["field"] as? String == "askTobuy", "\(path)")
            }
            let unchanged = try await client.object(.get, "/v1/controls")
            #expect(unchanged["storefront"] as? String == "JPN")
        }
    }

    /// Lengths were counted in UTF-8 bytes while the schema (JSON Schema maxLength) counts code
    /// points, so a valid 64-character transaction id or a 255-character productId of non-ASCII
    /// characters was refused (400/422). Transaction ids are digits now; account names in a path
    /// (at most 40) show the same.
    @Test func lengthLimitsCountCharactersNotBytes() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            let name =
                String(repeating: "é", count: 40).addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? ""
            _ = try await client.object(.get, "/v1/accounts/\(name)/wallet", expect: .notFound)
            let tooLong =
                String(repeating: "é", count: 41).addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? ""
            _ = try await client.object(.get, "/v1/accounts/\(tooLong)/wallet", expect: .badRequest)
            let product = String(repeating: "商", count: 255)
            let paid = try await client.send(
                .post, "/v1/payments",
                json: #"{"account":"alice","productId":"\#(product)","applicationUsername":"\#(product)"}"#,
                headers: ["Idempotency-Key": UUID().uuidString])
            #expect(paid.status == .created, "\(String(buffer: paid.body).prefix(200))")
            let over = try await client.send(
                .post, "/v1/payments", json: #"{"account":"alice","productId":"\#(product)x"}"#,
                headers: ["Idempotency-Key": UUID().uuidString])
            #expect(over.status == .unprocessableContent)
        }
    }

    /// Path parameters were used percent-encoded, as sent, so their length was checked on the
    /// encoded form (the fuzzer's 64-character id above) and an account written with an encoded
    /// character (`%61lice`, the same URI as `alice` by RFC 3986) was not found.
    @Test func pathParametersArePercentDecoded() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            let wallet = try await client.object(.get, "/v1/accounts/%61lice/wallet")
            #expect(wallet["account"] as? String == "alice")
            _ = try await client.object(.get, "/v1/accounts/%ZZ/wallet", expect: .notFound)
            _ = try await client.object(.post, "/v1/accounts/alice/transactions/%ZZ/finish", expect: .badRequest)
        }
    }

    /// An explicit null was read as "left out": `{"storefront": null}` was accepted and did nothing.
    @Test func explicitNullsAre422() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            let products = try await client.object(
                .post, "/v1/products", json: #"{"ids":[],"storefront":null}"#, expect: .unprocessableContent)
            #expect((products["error"] as? [String: Any])?["field"] as? String == "storefront")
            let controls = try await client.object(
                .put, "/admin/controls", json: #"{"dropOrderIds":null}"#, admin: true, expect: .unprocessableContent)
            #expect((controls["error"] as? [String: Any])?["field"] as? String == "dropOrderIds")
            _ = try await client.object(.post, "/v1/products", json: #"{"ids":[]}"#)
        }
    }

    /// `network:NAME` was refused though the parser meant to accept names: the name fallback sat
    /// behind a guard that required a number.
    @Test func aNetworkOutcomeByNameIsAccepted() async throws {
        #expect(PaymentOutcome(token: "network:networkConnectionLost") == .network(.networkConnectionLost))
        #expect(PaymentOutcome(token: "network:-1009") == .network(.notConnectedToInternet))
        #expect(PaymentOutcome(token: "network:nothing") == nil)
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            let set = try await client.object(
                .put, "/admin/controls", json: #"{"nextOutcome":"network:networkConnectionLost"}"#, admin: true)
            #expect(set["nextOutcome"] as? String == "network:-1005")
        }
    }
}
