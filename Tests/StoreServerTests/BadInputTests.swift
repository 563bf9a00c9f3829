import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LocalState
import StoreCore
import StoreServer
import Testing

@Suite struct BadInputTests {
    @Test func malformedJSONIs400AndChangesNothing() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            for body in ["{\"account\": ", "not json", "", "\u{00}\u{01}"] {
                let response = try await client.send(
                    .post, "/v1/payments", json: body, headers: ["Idempotency-Key": UUID().uuidString])
                #expect(response.status == .badRequest, "\(body.debugDescription)")
                // Exactly application/json: Apple's Python client reads no error from any other value.
                #expect(response.headers[.contentType] == "application/json")
                #expect((try json(response)["error"] as? [String: Any])?["message"] is String)
            }
            // A syntax error says where, and speaks of the body, not of a file.
            let truncated = try await client.send(
                .post, "/v1/payments", json: "{\"account\": ", headers: ["Idempotency-Key": UUID().uuidString])
            let message = try #require((try json(truncated)["error"] as? [String: Any])?["message"] as? String)
            #expect(
                message.hasPrefix("the request body is not valid JSON (line 1, column 13: unexpected end of the body"),
                "\(message)")
            #expect(!message.contains("file"), "\(message)")
            let history = try await client.object(.get, "/v1/accounts/alice/transactions")
            #expect((history["transactions"] as? [Any])?.isEmpty == true)
        }
    }

    @Test func wrongShapesAndValuesAre422() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            let cases: [(String, String)] = [
                (#"{"productId":"x"}"#, "account"),
                (#"{"account":"alice","productId":7}"#, "productId"),
                (#"{"account":"alice","productId":"x","quantity":0}"#, "quantity"),
                (#"{"account":"alice","productId":"x","quantity":11}"#, "quantity"),
                (#"{"account":"nobody","productId":"x"}"#, "account"),
                (#"[]"#, ""),
            ]
            for (body, field) in cases {
                let response = try await client.send(
                    .post, "/v1/payments", json: body, headers: ["Idempotency-Key": UUID().uuidString])
                #expect(response.status == .unprocessableContent, "\(body)")
                let error = try #require(try json(response)["error"] as? [String: Any])
                #expect(error["status"] as? Int == 422)
                if !field.isEmpty { #expect(error["field"] as? String == field, "\(body)") }
            }
            _ = try await client.object(
                .post, "/v1/products", json: #"{"ids":[],"storefront":"XXX"}"#, expect: .unprocessableContent)
            let history = try await client.object(.get, "/v1/accounts/alice/transactions")
            #expect((history["transactions"] as? [Any])?.isEmpty == true)
        }
    }

    /// Foundation's decoder called a body that is not an object "the wrong type; expected an
    /// array", the type it tried being a dictionary, and so was a field that must be an object.
    @Test func aBodyThatIsNotAnObjectIsNamedAndAnObjectAsked() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            for (body, kind) in [
                ("[]", "an array"), (#""x""#, "a string"), ("3", "a number"), ("true", "a boolean"), ("null", "null"),
            ] {
                for (method, path) in [
                    (HTTPRequest.Method.post, "/v1/payments"), (.post, "/v1/products"), (.put, "/admin/controls"),
                ] {
                    let refused = try await client.object(
                        method, path, json: body, headers: ["Idempotency-Key": UUID().uuidString],
                        admin: true, expect: .unprocessableContent)
                    let message = try #require((refused["error"] as? [String: Any])?["message"] as? String)
                    #expect(
                        message == "the body is \(kind); expected a JSON object with this route's fields (docs/api.md)",
                        "\(path) \(body)")
                }
            }
            let nested = try await client.object(
                .put, "/admin/controls", json: #"{"productOutcomes":[]}"#, admin: true, expect: .unprocessableContent)
            #expect(
                (nested["error"] as? [String: Any])?["message"] as? String
                    == "productOutcomes has the wrong type; expected an object")
        }
    }

    /// Foundation's decoder reports a number an integer cannot hold as "not valid JSON" at no path.
    @Test func aNumberThatIsNotAnIntegerNamesItsFieldAndAsksForOne() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            let cases: [(HTTPRequest.Method, String, String, String)] = [
                (.post, "/v1/payments", #"{"account":"alice","productId":"x","quantity":1.5}"#, "quantity"),
                (.post, "/v1/payments", #"{"account":"alice","productId":"x","quantity":1e30}"#, "quantity"),
                (.put, "/admin/controls", #"{"askToBuy":false,"latencyMilliseconds":2.5}"#, "latencyMilliseconds"),
            ]
            for (method, path, body, field) in cases {
                let refused = try await client.object(
                    method, path, json: body, headers: ["Idempotency-Key": UUID().uuidString],
                    admin: true, expect: .unprocessableContent)
                let error = try #require(refused["error"] as? [String: Any])
                #expect(error["field"] as? String == field, "\(body)")
                #expect((error["message"] as? String)?.hasPrefix("\(field): ") == true, "\(error)")
                #expect((error["message"] as? String)?.contains("expected an integer") == true, "\(error)")
            }
            let history = try await client.object(.get, "/v1/accounts/alice/transactions")
            #expect((history["transactions"] as? [Any])?.isEmpty == true)
        }
    }

    /// A catalog file with a key written twice is refused; a request body was read with either
    /// value (Foundation's decoder keeps one), so what was charged depended on the decoder.
    @Test func aKeyWrittenTwiceIs400NamingTheKeyAndWhere() async throws {
        let fixture = try await ServerFixture()
        let gems = ServerFixture.gems
        let cases: [(HTTPRequest.Method, String, String, String)] = [
            (.post, "/v1/payments", #"{"account":"alice","productId":"\#(gems)","account":"kenji"}"#, "account"),
            (
                .post, "/v1/payments", #"{"account":"alice","productId":"\#(gems)","quantity":1,"quantity":2}"#,
                "quantity"
            ),
            (
                .put, "/admin/controls", #"{"productOutcomes":{"\#(gems)":"cancel","\#(gems)":"success"}}"#,
                #"productOutcomes["\#(gems)"]"#
            ),
        ]
        try await fixture.test { client in
            for (method, path, body, field) in cases {
                let refused = try await client.object(
                    method, path, json: body, headers: ["Idempotency-Key": UUID().uuidString],
                    admin: true, expect: .badRequest)
                let error = try #require(refused["error"] as? [String: Any])
                #expect(error["field"] as? String == field, "\(body)")
                #expect(
                    (error["message"] as? String)?.hasPrefix("\(field): the key appears more than once") == true,
                    "\(error)")
            }
            let history = try await client.object(.get, "/admin/transactions", admin: true)
            #expect((history["transactions"] as? [Any])?.isEmpty == true)
            let controls = try await client.object(.get, "/v1/controls")
            #expect((controls["productOutcomes"] as? [String: Any])?.isEmpty == true)
        }
    }

    @Test func aBodyNotDeclaredAsJSONIs415() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            for contentType in ["text/plain", "application/x-www-form-urlencoded", nil] as [String?] {
                let response = try await client.send(
                    .post, "/v1/payments", json: #"{"account":"alice","productId":"x"}"#,
                    contentType: contentType, headers: ["Idempotency-Key": UUID().uuidString])
                #expect(response.status == .unsupportedMediaType, "\(contentType ?? "none")")
                #expect((try json(response)["error"] as? [String: Any])?["code"] as? String == "unsupported_media_type")
            }
            let charset = try await client.send(
                .post, "/v1/products", json: #"{"ids":[]}"#, contentType: "application/json; charset=utf-8")
            #expect(charset.status == .ok)
        }
    }

    @Test func aHugeBodyIs413() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            let huge = #"{"account":"alice","productId":""# + String(repeating: "x", count: 200_000) + #""}"#
            let response = try await client.send(
                .post, "/v1/payments", json: huge, headers: ["Idempotency-Key": UUID().uuidString])
            #expect(response.status == .contentTooLarge)
            #expect((try json(response)["error"] as? [String: Any])?["code"] as? String == "payload_too_large")
            let receipt = #"{"receipt-data":""# + String(repeating: "A", count: 6 * 1024 * 1024) + #""}"#
            #expect(try await client.send(.post, "/verifyReceipt", json: receipt).status == .contentTooLarge)
        }
    }

    @Test func unknownRoutesAre404JSON() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            for (method, path) in [
                (HTTPRequest.Method.get, "/nope"), (.get, "/v2/products"), (.delete, "/v1/payments/x"),
                (.put, "/verifyReceipt/x"),
            ] {
                let response = try await client.send(method, path)
                #expect(response.status == .notFound, "\(method) \(path)")
                #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
                #expect((try json(response)["error"] as? [String: Any])?["code"] as? String == "not_found")
            }
            _ = try await client.object(.post, "/v1/accounts/alice/transactions/1234/finish", expect: .notFound)
        }
    }

    /// Found by Fuzz/http (schemathesis' unsupported_method check): a known path with a method it
    /// does not have was 404; it is 405 with `Allow` listing the path's methods (RFC 9110 §15.5.6).
    @Test func aKnownPathWithAnotherMethodIs405WithAllow() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            let cases: [(HTTPRequest.Method, String, String)] = [
                (.delete, "/v1/payments", "POST"), (.put, "/verifyReceipt", "GET, POST"), (.trace, "/v1/health", "GET"),
                (.patch, "/admin/controls", "PUT"), (.get, "/admin/transactions/123/approve", "POST"),
                (.get, "/admin/transactions/123", "DELETE"), (.post, "/v1/accounts/alice/wallet", "GET"),
                (.trace, "/.well-known/jwks.json", "GET"),
            ]
            for (method, path, allow) in cases {
                let response = try await client.send(method, path)
                #expect(response.status == .methodNotAllowed, "\(method) \(path)")
                #expect(response.headers[.allow] == allow, "\(method) \(path)")
                #expect((try json(response)["error"] as? [String: Any])?["code"] as? String == "method_not_allowed")
            }
        }
    }

    @Test func finishingAPurchasingTransactionIs409() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            _ = try await client.object(.put, "/admin/controls", json: #"{"latencyMilliseconds":5000}"#, admin: true)
            let response = try await client.pay(ServerFixture.gems)
            let id = try #require((try json(response)["transaction"] as? [String: Any])?["transactionId"] as? String)
            let refused = try await client.object(
                .post, "/v1/accounts/alice/transactions/\(id)/finish", expect: .conflict)
            #expect((refused["error"] as? [String: Any])?["code"] as? String == "conflict")
        }
    }
}
