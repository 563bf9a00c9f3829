import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LocalState
import StoreCore
import StoreServer
import Testing

/// Ids and text from the network. SQLite ended a text at a NUL, so `ID%00junk` in a path finished
/// or deleted the transaction ID, and a product id or applicationUsername with a NUL was stored cut
/// short while the answer echoed it whole.
@Suite struct NetworkInputTests {
    static func error(_ body: [String: Any]) -> [String: Any] {
        body["error"] as? [String: Any] ?? [:]
    }

    @Test func aControlCharacterInAPathParameterIs400AndActsOnNothing() async throws {
        let fixture = try await ServerFixture()
        let id = try await fixture.buy(ServerFixture.gems).transaction.id
        try await fixture.test { client in
            let finish = try await client.object(
                .post, "/v1/accounts/alice/transactions/\(id)%00junk/finish", expect: .badRequest)
            #expect(Self.error(finish)["field"] as? String == "transactionId")
            #expect((Self.error(finish)["message"] as? String)?.contains("U+0000") == true, "\(finish)")
            let delete = try await client.object(
                .delete, "/admin/transactions/\(id)%00zzz", admin: true, expect: .badRequest)
            #expect(Self.error(delete)["field"] as? String == "transactionId")
            for control in ["%01", "%1F", "%7F", "%C2%80", "%C2%9F"] {
                let refund = try await client.object(
                    .post, "/admin/transactions/\(id)\(control)/refund", admin: true, expect: .badRequest)
                #expect(Self.error(refund)["field"] as? String == "transactionId", "\(control)")
            }
            let wallet = try await client.object(.get, "/v1/accounts/alice%00x/wallet", expect: .badRequest)
            #expect(Self.error(wallet)["field"] as? String == "account")
            #expect((Self.error(wallet)["message"] as? String)?.contains("U+0000") == true, "\(wallet)")
            // The transaction is still there, unfinished and not refunded.
            let unfinished = try await client.object(.get, "/v1/accounts/alice/unfinished")
            let updates = try #require(unfinished["updates"] as? [[String: Any]])
            #expect(updates.count == 1)
            #expect((updates.first?["transaction"] as? [String: Any])?["revocationDate"] == nil)
        }
    }

    @Test func aControlCharacterInABodyStringIs400NamingItsPath() async throws {
        let fixture = try await ServerFixture()
        let gems = ServerFixture.gems
        let cases: [(HTTPRequest.Method, String, String, String)] = [
            (.post, "/v1/payments", #"{"account":"alice","productId":"\#(gems)\u0000junk"}"#, "productId"),
            (
                .post, "/v1/payments",
                #"{"account":"alice","productId":"\#(gems)","applicationUsername":"order\u0000x"}"#,
                "applicationUsername"
            ),
            (.post, "/v1/payments", #"{"account":"alice\u001b","productId":"\#(gems)"}"#, "account"),
            (
                .post, "/v1/payments",
                #"{"account":"alice","productId":"\#(gems)","applicationUsername":"order\u007f"}"#,
                "applicationUsername"
            ),
            (
                .post, "/v1/payments",
                #"{"account":"alice","productId":"\#(gems)","applicationUsername":"order\u0085"}"#,
                "applicationUsername"
            ),
            (.post, "/v1/products", #"{"ids":["\#(gems)","x\u0000"]}"#, "ids[1]"),
            (
                .post, "/v1/verify", #"{"receipt":"x","transactionId":"1","productId":"\#(gems)","claim":"c\u009f"}"#,
                "claim"
            ),
            (
                .put, "/admin/controls", #"{"productOutcomes":{"\#(gems)\u0000":"cancel"}}"#,
                #"productOutcomes["\#(gems)\u{0}"]"#
            ),
        ]
        try await fixture.test { client in
            for (method, path, body, field) in cases {
                let refused = try await client.object(
                    method, path, json: body, headers: ["Idempotency-Key": UUID().uuidString],
                    admin: true, expect: .badRequest)
                #expect(Self.error(refused)["field"] as? String == field, "\(body)")
                #expect(
                    (Self.error(refused)["message"] as? String)?.contains("control character") == true, "\(refused)")
            }
            let history = try await client.object(.get, "/admin/transactions", admin: true)
            #expect((history["transactions"] as? [Any])?.isEmpty == true)
            let controls = try await client.object(.get, "/v1/controls")
            #expect((controls["productOutcomes"] as? [String: Any])?.isEmpty == true)
        }
    }

    @Test func transactionIdsAreThisStoresDigits() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            for id in ["abc", "12a", "-1", "1.0", "%201", "%D9%A1%D9%A2%D9%A3", String(repeating: "1", count: 65)] {
                let refused = try await client.object(
                    .post, "/admin/transactions/\(id)/approve", admin: true, expect: .badRequest)
                #expect(Self.error(refused)["field"] as? String == "transactionId", "\(id)")
                #expect((Self.error(refused)["message"] as? String)?.contains("digits") == true, "\(refused)")
            }
            _ = try await client.object(.post, "/v1/accounts/alice/transactions/abc/finish", expect: .badRequest)
            _ = try await client.object(
                .post, "/admin/transactions/\(String(repeating: "1", count: 64))/approve", admin: true,
                expect: .notFound)
            let verify = try await client.object(
                .post, "/v1/verify",
                json: #"{"receipt":"x","transactionId":"abc","productId":"\#(ServerFixture.gems)","claim":"c"}"#,
                expect: .unprocessableContent)
            #expect(Self.error(verify)["field"] as? String == "transactionId")
        }
    }

    /// A product id follows the rules every catalog reads its ids with: one line, not blank, at most
    /// 255 characters. One that does but is not in the catalog is still StoreKit's business (a
    /// failed payment, an invalid identifier).
    @Test func productIdsFollowTheCatalogsRules() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            for id in ["   ", "com.example\\u2028gems", "\\u2029"] {
                let payment = try await client.object(
                    .post, "/v1/payments", json: #"{"account":"alice","productId":"\#(id)"}"#,
                    headers: ["Idempotency-Key": UUID().uuidString], expect: .unprocessableContent)
                #expect(Self.error(payment)["field"] as? String == "productId", "\(id)")
                #expect((Self.error(payment)["message"] as? String)?.hasPrefix("productId: ") == true, "\(payment)")
                let products = try await client.object(
                    .post, "/v1/products", json: #"{"ids":["\#(ServerFixture.gems)","\#(id)"]}"#,
                    expect: .unprocessableContent)
                #expect(Self.error(products)["field"] as? String == "ids[1]", "\(id)")
                let verify = try await client.object(
                    .post, "/v1/verify", json: #"{"receipt":"x","transactionId":"1","productId":"\#(id)","claim":"c"}"#,
                    expect: .unprocessableContent)
                #expect(Self.error(verify)["field"] as? String == "productId", "\(id)")
            }
            let empty = try await client.object(
                .post, "/v1/products", json: #"{"ids":[""]}"#, expect: .unprocessableContent)
            #expect(Self.error(empty)["field"] as? String == "ids[0]")
            let history = try await client.object(.get, "/v1/accounts/alice/transactions")
            #expect((history["transactions"] as? [Any])?.isEmpty == true)
            #expect(try await client.pay("com.example.not in the catalog").status == .created)
            let unknown = try await client.object(
                .post, "/v1/products", json: #"{"ids":["com.example.not in the catalog"]}"#)
            #expect(unknown["invalidProductIdentifiers"] as? [String] == ["com.example.not in the catalog"])
        }
    }

    /// No catalog has an account name over 40 characters, so a longer one is refused before it is
    /// looked up (and never echoed whole).
    @Test func accountNamesHaveTheCatalogsLengthLimit() async throws {
        let fixture = try await ServerFixture()
        let long = String(repeating: "a", count: 41)
        try await fixture.test { client in
            let path = try await client.object(.get, "/v1/accounts/\(long)/wallet", expect: .badRequest)
            #expect(Self.error(path)["field"] as? String == "account")
            #expect((Self.error(path)["message"] as? String)?.contains("40 characters") == true, "\(path)")
            let body = try await client.object(
                .post, "/v1/payments", json: #"{"account":"\#(long)","productId":"\#(ServerFixture.gems)"}"#,
                headers: ["Idempotency-Key": UUID().uuidString], expect: .unprocessableContent)
            #expect(Self.error(body)["field"] as? String == "account")
            #expect((Self.error(body)["message"] as? String)?.contains("40 characters") == true, "\(body)")
            _ = try await client.object(
                .get, "/v1/accounts/\(String(repeating: "a", count: 40))/wallet", expect: .notFound)
        }
    }
}
