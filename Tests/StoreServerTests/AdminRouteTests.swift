import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LocalState
import StoreCore
import StoreServer
import Testing

@Suite struct AdminRouteTests {
    @Test func adminRoutesNeedTheBearerToken() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            let routes: [(HTTPRequest.Method, String, String?)] = [
                (.get, "/admin/transactions", nil), (.put, "/admin/controls", #"{"askToBuy":true}"#),
                (.post, "/admin/transactions/2000000000000001/approve", nil),
                (.delete, "/admin/transactions/2000000000000001", nil),
                (.post, "/admin/clear", nil), (.post, "/admin/reset", nil),
            ]
            for (method, path, body) in routes {
                let none = try await client.send(method, path, json: body)
                #expect(none.status == .unauthorized, "\(method) \(path)")
                #expect((try json(none)["error"] as? [String: Any])?["code"] as? String == "unauthorized")
                let wrong = try await client.send(
                    method, path, json: body, headers: ["Authorization": "Bearer not-the-token"])
                #expect(wrong.status == .unauthorized, "\(method) \(path)")
                let basic = try await client.send(
                    method, path, json: body, headers: ["Authorization": "Basic \(ServerFixture.token)"])
                #expect(basic.status == .unauthorized, "\(method) \(path)")
            }
            // Nothing changed behind the refusals.
            let controls = try await client.object(.get, "/v1/controls")
            #expect(controls["askToBuy"] as? Bool == false)
            #expect(try await client.send(.get, "/admin/transactions", admin: true).status == .ok)
        }
    }

    /// Every near miss is refused the same way: a token one byte off (first or last), one byte
    /// longer or shorter, a prefix, another scheme, an empty one, and the token outside the header.
    @Test func everyWrongTokenOrSchemeIs401() async throws {
        let fixture = try await ServerFixture()
        let token = ServerFixture.token
        let flipLast = String(token.dropLast()) + (token.last == "x" ? "y" : "x")
        let flipFirst = (token.first == "x" ? "y" : "x") + String(token.dropFirst())
        let refused: [String?] = [
            nil, "", "Bearer", "Bearer ", "Bearer \(flipLast)", "Bearer \(flipFirst)", "Bearer \(token)x",
            "Bearer \(token.dropLast())",
            "Bearer \(token.prefix(8))", "Bearer \(token.uppercased())", "Bearer \(token) \(token)", "Basic \(token)",
            "Token \(token)",
            "\(token)", "Bearer\(token)", "Bearer \(String(repeating: "a", count: 10_000))",
        ]
        try await fixture.test { client in
            for header in refused {
                let response = try await client.send(
                    .get, "/admin/transactions", headers: header.map { ["Authorization": $0] } ?? [:])
                #expect(response.status == .unauthorized, "\(header.map { String($0.prefix(60)) } ?? "no header")")
                #expect(response.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
                let error = try json(response)["error"] as? [String: Any]
                #expect(error?["code"] as? String == "unauthorized")
                #expect((error?["message"] as? String)?.contains(token) == false)
            }
            // In the query string it is not a credential either.
            #expect(try await client.send(.get, "/admin/transactions?token=\(token)").status == .unauthorized)
            // The scheme is case-insensitive (RFC 9110 §11.1); the token is not.
            #expect(
                try await client.send(.get, "/admin/transactions", headers: ["Authorization": "bearer \(token)"]).status
                    == .ok)
            #expect(
                try await client.send(.get, "/admin/transactions", headers: ["Authorization": "Bearer \(token)"]).status
                    == .ok)
        }
    }

    @Test func controlsAreSetAndCheckedFieldByField() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            let set = try await client.object(
                .put, "/admin/controls", json: #"{"latencyMilliseconds":250,"nextOutcome":"fail:4","timeRate":"2s"}"#,
                admin: true)
            #expect(set["latencyMilliseconds"] as? Int == 250)
            #expect(set["nextOutcome"] as? String == "fail:4")
            #expect(set["timeRate"] as? String == "2s")
            let bad = try await client.object(
                .put, "/admin/controls", json: #"{"nextOutcome":"explode"}"#, admin: true, expect: .unprocessableContent
            )
            #expect((bad["error"] as? [String: Any])?["field"] as? String == "nextOutcome")
            let unchanged = try await client.object(.get, "/v1/controls")
            #expect(unchanged["nextOutcome"] as? String == "fail:4")
        }
    }

    @Test func transactionManagerActionsAnswerWithTheirStatus() async throws {
        let fixture = try await ServerFixture()
        let bought = try await fixture.buy(ServerFixture.removeAds)
        try await fixture.test { client in
            let id = bought.transaction.id
            // Approving a purchased transaction conflicts with its state; an unknown one is not found.
            _ = try await client.object(.post, "/admin/transactions/\(id)/approve", admin: true, expect: .conflict)
            _ = try await client.object(
                .post, "/admin/transactions/9999999999999999/refund", admin: true, expect: .notFound)
            _ = try await client.object(.post, "/admin/transactions/\(id)/refund", admin: true)
            let wallet = try await client.object(.get, "/v1/accounts/alice/wallet")
            #expect((wallet["entitlements"] as? [Any])?.isEmpty == true)
            _ = try await client.object(.delete, "/admin/transactions/\(id)", admin: true)
            let all = try await client.object(.get, "/admin/transactions", admin: true)
            #expect((all["transactions"] as? [Any])?.isEmpty == true)
        }
    }
}
