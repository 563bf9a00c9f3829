import Foundation
import StoreEngine
import Testing

/// `GET /v1/accounts/{account}/app-transaction`: what `AppTransaction.shared` gives the app.
@Suite struct AppTransactionRouteTests {
    @Test func theAccountsAppTransactionIsOneAndKept() async throws {
        let fixture = try await ServerFixture()
        let bought = try await fixture.buy(ServerFixture.gems)
        try await fixture.test { client in
            let first = try await client.object(.get, "/v1/accounts/alice/app-transaction")
            #expect(
                first["appTransactionId"] as? String
                    == SimulatedStore.appTransactionId(bundleId: "com.example.storefront.demo", account: "alice"))
            #expect(first["bundleId"] as? String == "com.example.storefront.demo")
            #expect(first["environment"] as? String == "Sandbox")
            // The first purchase dates the app (to the millisecond, as a stored date reads back).
            let dated = try #require(first["originalPurchaseDate"] as? Int64)
            #expect(abs(Double(dated) - bought.transaction.purchaseDate.timeIntervalSince1970 * 1000) <= 1)
            let again = try await client.object(.get, "/v1/accounts/alice/app-transaction")
            #expect(again["originalPurchaseDate"] as? Int64 == first["originalPurchaseDate"] as? Int64)
            _ = try await client.object(.get, "/v1/accounts/nobody/app-transaction", expect: .notFound)
        }
    }
}
