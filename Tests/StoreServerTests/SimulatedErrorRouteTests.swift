import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import StoreCore
import Testing

/// Simulated StoreKit errors over HTTP: set with `PUT /admin/controls`, reported where StoreKit
/// would report them.
@Suite struct SimulatedErrorRouteTests {
    @Test func aSimulatedProductsErrorIsTheProductsAnswer() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            let set = try await client.object(
                .put, "/admin/controls", json: #"{"apiErrors": {"load-products": "network"}}"#, admin: true)
            #expect((set["apiErrors"] as? [String: String]) == ["load-products": "network:-1009"])
            let products = try await client.object(.post, "/v1/products", json: #"{"ids": ["\#(ServerFixture.gems)"]}"#)
            let error = try #require(products["error"] as? [String: Any])
            #expect(error["domain"] as? String == "NSURLErrorDomain")
            #expect(error["code"] as? Int == -1009)
            #expect((products["products"] as? [Any])?.isEmpty == true)
            let refused = try await client.send(
                .put, "/admin/controls", json: #"{"apiErrors": {"in-app-messages": "fail:0"}}"#, admin: true)
            #expect(refused.status == .unprocessableContent)
            #expect((try json(refused)["error"] as? [String: Any])?["field"] as? String == "apiErrors")
            _ = try await client.object(.put, "/admin/controls", json: #"{"apiErrors": {}}"#, admin: true)
            let again = try await client.object(.post, "/v1/products", json: #"{"ids": ["\#(ServerFixture.gems)"]}"#)
            #expect(again["error"] == nil)
            #expect((again["products"] as? [Any])?.count == 1)
        }
    }
}

/// Offers over HTTP: a payment's `offerCode` (or `discount`, `winBackOffer`) is checked by the
/// store, and the transaction names the offer it was bought with.
@Suite struct OfferRouteTests {
    @Test func anOfferCodeIsRedeemedThroughThePaymentsRoute() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            let body = #"{"account": "alice", "productId": "\#(ServerFixture.monthly)", "offerCode": "FREEMONTH03"}"#
            let first = try await client.send(.post, "/v1/payments", json: body, headers: ["Idempotency-Key": "code-1"])
            #expect(first.status == .created, "\(String(buffer: first.body))")
            let id = try #require((try json(first)["transaction"] as? [String: Any])?["transactionId"] as? String)
            let history = try await client.object(.get, "/v1/accounts/alice/transactions")
            let transaction = try #require(
                (history["transactions"] as? [[String: Any]])?.first { $0["transactionId"] as? String == id })
            #expect(transaction["offerType"] as? String == "code")
            #expect(transaction["offerId"] as? String == "com.example.storefront.premium.freemonth")
            #expect(transaction["price"] as? String == "0")
            let two =
                #"{"account": "alice", "productId": "\#(ServerFixture.monthly)", "offerCode": "X", "winBackOffer": "Y"}"#
            let refused = try await client.send(
                .post, "/v1/payments", json: two, headers: ["Idempotency-Key": "code-2"])
            #expect(refused.status == .unprocessableContent)
        }
    }

    /// The same field redeems a consumable's offer code: a purchase at the offer's price whose
    /// offer is the code's, paid once (`oneTime`, no period).
    @Test func aConsumablesOfferCodeIsRedeemedThroughThePaymentsRoute() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            let body =
                #"{"account": "alice", "productId": "com.example.storefront.gems.550", "offerCode": "GEMSWELCOME"}"#
            let first = try await client.send(.post, "/v1/payments", json: body, headers: ["Idempotency-Key": "gems-1"])
            #expect(first.status == .created, "\(String(buffer: first.body))")
            let id = try #require((try json(first)["transaction"] as? [String: Any])?["transactionId"] as? String)
            let history = try await client.object(.get, "/v1/accounts/alice/transactions")
            let transaction = try #require(
                (history["transactions"] as? [[String: Any]])?.first { $0["transactionId"] as? String == id })
            #expect(transaction["state"] as? String == "purchased")
            #expect(transaction["offerType"] as? String == "code")
            #expect(transaction["offerId"] as? String == "gems-welcome")
            #expect(transaction["offerPaymentMode"] as? String == "oneTime")
            #expect(transaction["offerPeriod"] == nil)
            #expect(transaction["price"] as? String == "1.99")
        }
    }
}

/// A journaled update is a snapshot: read after a refund, the purchase is still the purchase
/// (no revocation in its fields or its JWS), and the refund is its own update.
@Suite struct JournalSnapshotTests {
    @Test func aPurchaseReadAfterItsRefundIsStillThePurchase() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            let paid = try await client.pay(ServerFixture.gems)
            let id = try #require((try json(paid)["transaction"] as? [String: Any])?["transactionId"] as? String)
            _ = try await client.object(.post, "/admin/transactions/\(id)/refund", admin: true)
            let page = try await client.object(.get, "/v1/accounts/alice/updates?after=0")
            let updates = try #require(page["updates"] as? [[String: Any]])
            let states = updates.compactMap { $0["transaction"] as? [String: Any] }.filter {
                $0["transactionId"] as? String == id
            }
            let purchased = states.filter { $0["state"] as? String == "purchased" }
            #expect(purchased.count == 2, "the purchase and its refund: \(states)")
            #expect(purchased.first?["revocationDate"] == nil, "the purchase's snapshot shows the later refund")
            #expect(purchased.last?["revocationDate"] != nil)
            #expect(purchased.last?["revocationReason"] as? String == "other")
        }
    }
}
