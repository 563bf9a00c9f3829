import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import StoreCore
import StoreServer
import Testing

/// `POST /admin/transactions`: a transaction made outside the device, with the statuses and
/// error bodies of the other admin routes.
@Suite struct CreateTransactionRouteTests {
    func body(_ fields: String) -> String {
        #"{"productId": "com.example.storefront.premium.monthly", "account": "kenji", \#(fields)}"#
    }

    @Test func aPastDatedSubscriptionComesBackWithItsRenewals() async throws {
        let fixture = try await ServerFixture()
        let date = fixture.clock.now().addingTimeInterval(-40 * 86_400)
        let token = "7e3fb20b-4cdb-47cc-936d-99d65f608138"
        try await fixture.test { client in
            let json = body(#""purchaseDate": \#(date.epochMilliseconds), "appAccountToken": "\#(token)""#)
            #expect(try await client.send(.post, "/admin/transactions", json: json).status == .unauthorized)
            let created = try await client.object(
                .post, "/admin/transactions", json: json, admin: true, expect: .created)
            let updates = try #require(created["updates"] as? [[String: Any]])
            let transactions = updates.compactMap { $0["transaction"] as? [String: Any] }
            // A week's free trial, then a month that ended, then the month in force.
            #expect(transactions.count == 3)
            #expect(transactions.first?["purchaseDate"] as? Int64 == date.epochMilliseconds)
            #expect(transactions.allSatisfy { $0["state"] as? String == "purchased" })
        }
        let unfinished = try await fixture.service.store.unfinished(account: "kenji").map(\.transaction.id)
        #expect(unfinished.count == 3)
        let details = try await fixture.service.store.details(transactionIds: unfinished)
        #expect(details.values.allSatisfy { $0.appAccountToken == UUID(uuidString: token) })
    }

    @Test func anISODateAndAutoRenewOffAreTaken() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            let created = try await client.object(
                .post, "/admin/transactions",
                json: body(#""purchaseDate": "2020-01-15T10:00:00Z", "autoRenew": false"#), admin: true,
                expect: .created)
            #expect((created["updates"] as? [Any])?.count == 1, "it ended with its first period")
        }
    }

    @Test func refusalsUseTheAdminRoutesStatusesAndErrorBody() async throws {
        let fixture = try await ServerFixture()
        let future = fixture.clock.now().addingTimeInterval(3_600).epochMilliseconds
        _ = try await fixture.buy(ServerFixture.monthly, account: "kenji")
        try await fixture.test { client in
            let cases: [(String, HTTPResponse.Status, String?)] = [
                (body(#""purchaseDate": \#(future)"#), .unprocessableContent, nil),
                (body(#""purchaseDate": "yesterday""#), .unprocessableContent, "purchaseDate"),
                (body(#""purchaseDate": true"#), .unprocessableContent, "purchaseDate"),
                (body(#""purchaseDate": 1, "appAccountToken": "x""#), .unprocessableContent, "appAccountToken"),
                (body(#""purchaseDate": 1, "renew": false"#), .unprocessableContent, "renew"),
                (#"{"account": "kenji", "purchaseDate": 1}"#, .unprocessableContent, "productId"),
                (
                    #"{"productId": "com.example.storefront.premium.monthly", "account": "lena", "purchaseDate": 1, "offerId": "nope"}"#,
                    .unprocessableContent, nil
                ),
                // kenji subscribes now: a second subscription of the group would run beside it.
                (body(#""purchaseDate": 1"#), .conflict, nil),
            ]
            for (json, status, field) in cases {
                let response = try await client.object(
                    .post, "/admin/transactions", json: json, admin: true, expect: status)
                let error = try #require(response["error"] as? [String: Any], "\(json)")
                #expect(error["message"] is String && error["code"] is String)
                #expect(error["field"] as? String == field, "\(json)")
            }
        }
        #expect(try await fixture.service.store.transactions(account: "kenji").count == 1)
    }
}
