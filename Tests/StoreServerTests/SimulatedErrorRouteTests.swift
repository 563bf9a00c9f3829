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
            let set = try await client.object(.put, "/admin/controls", json: #"{"apiErrors": {"load-products": "network"}}"#, admin: true)
            #expect((set["apiErrors"] as? [String: String]) == ["load-products": "network:-1009"])
            let products = try await client.object(.post, "/v1/products", json: #"{"ids": ["\#(ServerFixture.gems)"]}"#)
            let error = try #require(products["error"] as? [String: Any])
            #expect(error["domain"] as? String == "NSURLErrorDomain")
            #expect(error["code"] as? Int == -1009)
            #expect((products["products"] as? [Any])?.isEmpty == true)
            let refused = try await client.send(.put, "/admin/controls", json: #"{"apiErrors": {"refund-request": "fail:0"}}"#, admin: true)
            #expect(refused.status == .unprocessableContent)
            #expect((try json(refused)["error"] as? [String: Any])?["field"] as? String == "apiErrors")
            _ = try await client.object(.put, "/admin/controls", json: #"{"apiErrors": {}}"#, admin: true)
            let again = try await client.object(.post, "/v1/products", json: #"{"ids": ["\#(ServerFixture.gems)"]}"#)
            #expect(again["error"] == nil)
            #expect((again["products"] as? [Any])?.count == 1)
        }
    }
}
