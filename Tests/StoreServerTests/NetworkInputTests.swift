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
            let finish = try await client.object(.post, "/v1/transactions/\(id)%00junk/finish", expect: .badRequest)
            #expect(Self.error(finish)["field"] as? String == "transactionId")
            #expect((Self.error(finish)["message"] as? String)?.contains("U+0000") == true, "\(finish)")
            let delete = try await client.object(.delete, "/admin/transactions/\(id)%00zzz", admin: true, expect: .badRequest)
            #expect(Self.error(delete)["field"] as? String == "transactionId")
            for control in ["%01", "%1F", "%7F", "%C2%80", "%C2%9F"] {
                let refund = try await client.object(.post, "/admin/transactions/\(id)\(control)/refund", admin: true, expect: .badRequest)
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
            (.post, "/v1/payments", #"{"account":"alice","productId":"\#(gems)","applicationUsername":"order\u0000x"}"#, "applicationUsername"),
            (.post, "/v1/payments", #"{"account":"alice\u001b","productId":"\#(gems)"}"#, "account"),
            (.post, "/v1/payments", #"{"account":"alice","productId":"\#(gems)","applicationUsername":"order\u007f"}"#, "applicationUsername"),
            (.post, "/v1/payments", #"{"account":"alice","productId":"\#(gems)","applicationUsername":"order\u0085"}"#, "applicationUsername"),
            (.post, "/v1/products", #"{"ids":["\#(gems)","x\u0000"]}"#, "ids[1]"),
            (.post, "/v1/verify", #"{"receipt":"x","transactionId":"1","productId":"\#(gems)","claim":"c\u009f"}"#, "claim"),
            (.put, "/admin/controls", #"{"productOutcomes":{"\#(gems)\u0000":"cancel"}}"#, #"productOutcomes["\#(gems)\u{0}"]"#),
        ]
        try await fixture.test { client in
            for (method, path, body, field) in cases {
                let refused = try await client.object(method, path, json: body, headers: ["Idempotency-Key": UUID().uuidString],
                                                      admin: true, expect: .badRequest)
                #expect(Self.error(refused)["field"] as? String == field, "\(body)")
                #expect((Self.error(refused)["message"] as? String)?.contains("control character") == true, "\(refused)")
            }
            let history = try await client.object(.get, "/admin/transactions", admin: true)
            #expect((history["transactions"] as? [Any])?.isEmpty == true)
            let controls = try await client.object(.get, "/v1/controls")
            #expect((controls["productOutcomes"] as? [String: Any])?.isEmpty == true)
        }
    }
}
