import Foundation
import StoreEngine
import StoreSigning
import Testing

/// `GET /v1/accounts/{account}/subscription-statuses` and the app transaction's JWS: what
/// StoreKit 2's `Product.SubscriptionInfo.Status` and `AppTransaction.shared` read from a served
/// store, each signed with the store's chain.
@Suite struct SubscriptionStatusesRouteTests {
    @Test func eachChainIsSignedWithItsRenewalInfo() async throws {
        let fixture = try await ServerFixture()
        let bought = try await fixture.buy(ServerFixture.monthly)
        let verifier = ChainedJWSVerifier(root: fixture.service.signer.chain.root)
        let now = fixture.clock.now()
        try await fixture.test { client in
            let body = try await client.object(.get, "/v1/accounts/alice/subscription-statuses")
            let statuses = try #require(body["statuses"] as? [[String: Any]])
            #expect(statuses.count == 1)
            let status = try #require(statuses.first)
            #expect(status["subscriptionGroupIdentifier"] as? String == "premium")
            #expect(status["originalTransactionId"] as? String == bought.transaction.id)
            #expect(status["status"] as? Int == 1)
            let renewal = try #require(status["signedRenewalInfo"] as? String)
            let payload = try verifier.payload(of: renewal, at: now).get()
            let decoded = try JSONDecoder().decode(SignedRenewalInfoPayload.self, from: payload)
            #expect(decoded.originalTransactionId == bought.transaction.id && decoded.autoRenewStatus == 1)
            let transaction = try #require(status["signedTransactionInfo"] as? String)
            #expect((try? verifier.payload(of: transaction, at: now).get()) != nil)

            let none = try await client.object(.get, "/v1/accounts/kenji/subscription-statuses")
            #expect((none["statuses"] as? [Any])?.isEmpty == true)
            _ = try await client.object(.get, "/v1/accounts/nobody/subscription-statuses", expect: .notFound)
        }
    }

    @Test func theAppTransactionCarriesItsJWS() async throws {
        let fixture = try await ServerFixture()
        let verifier = ChainedJWSVerifier(root: fixture.service.signer.chain.root)
        let now = fixture.clock.now()
        try await fixture.test { client in
            let body = try await client.object(.get, "/v1/accounts/alice/app-transaction")
            let jws = try #require(body["signedAppTransactionInfo"] as? String)
            let payload = try verifier.payload(of: jws, at: now).get()
            let decoded = try JSONDecoder().decode(SignedAppTransactionPayload.self, from: payload)
            #expect(decoded.appTransactionId == body["appTransactionId"] as? String)
            #expect(decoded.bundleId == "com.example.storefront.demo" && decoded.receiptType == .sandbox)
        }
    }
}
