import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LocalState
import StoreCore
import StoreEngine
import StoreKitModel
import StoreServer
import StoreSigning
import TestSupport
import Testing

@Suite struct JWSTests {
    /// Splits a compact JWS and checks its ES256 signature with `key`.
    static func verify(_ jws: String, with key: P256.Signing.PublicKey) -> [String: Any]? {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let signature = Base64URL.decode(parts[2]),
            let ecdsa = try? P256.Signing.ECDSASignature(rawRepresentation: signature),
            key.isValidSignature(ecdsa, for: Data("\(parts[0]).\(parts[1])".utf8)),
            let payload = Base64URL.decode(parts[1])
        else { return nil }
        return try? JSONSerialization.jsonObject(with: payload) as? [String: Any]
    }

    /// Apple's names, pinned: renaming a case must not change what is signed.
    @Test func environmentsKeepApplesWireNames() throws {
        #expect(ServerEnvironment.allCases.map(\.name.rawValue) == ["Sandbox", "Production", "Xcode", "LocalTesting"])
        #expect(ServerEnvironment.allCases.map(\.rawValue) == ["sandbox", "production", "xcode", "local-testing"])
        let environments = try JSONEncoder().encode(StoreEnvironment.allCases)
        #expect(String(decoding: environments, as: UTF8.self) == #"["Sandbox","Production","Xcode","LocalTesting"]"#)
    }

    /// Apple's numbers for offer types, pinned, and the one each of ours signs as.
    @Test func offerTypesKeepApplesNumbers() throws {
        let offers = try JSONEncoder().encode([ServerOfferType.introductory, .promotional, .offerCode, .winBack])
        #expect(String(decoding: offers, as: UTF8.self) == "[1,2,3,4]")
        #expect(OfferType.allCases.map(ServerOfferType.init) == [.introductory, .promotional, .offerCode, .winBack])
    }

    @Test func aSignedTransactionVerifiesWithTheServedKeyAndATamperedOneDoesNot() async throws {
        let fixture = try await ServerFixture()
        let bought = try await fixture.buy(ServerFixture.monthly)
        try await fixture.test { client in
            let pem = try await client.send(.get, "/.well-known/storefront-jws-key.pem")
            #expect(pem.status == .ok)
            let key = try P256.Signing.PublicKey(pemRepresentation: String(buffer: pem.body))
            let history = try await client.object(.get, "/v1/accounts/alice/transactions")
            let transaction = try #require((history["transactions"] as? [[String: Any]])?.first)
            let jws = try #require(transaction["jwsRepresentation"] as? String)
            let parts = jws.split(separator: ".").map(String.init)
            let headerData = try #require(Base64URL.decode(parts[0]))
            let header = try #require(try JSONSerialization.jsonObject(with: headerData) as? [String: Any])
            #expect(header["alg"] as? String == "ES256")

            let payload = try #require(Self.verify(jws, with: key))
            #expect(payload["transactionId"] as? String == bought.transaction.id)
            #expect(payload["originalTransactionId"] as? String == bought.transaction.id)
            #expect(payload["bundleId"] as? String == "com.example.storefront.demo")
            #expect(payload["productId"] as? String == ServerFixture.monthly)
            #expect(payload["type"] as? String == "Auto-Renewable Subscription")
            #expect(payload["environment"] as? String == "Sandbox")
            #expect(payload["storefront"] as? String == "USA")
            #expect(payload["storefrontId"] as? String == "143441", "Apple's number for the USA storefront")
            #expect(payload["currency"] as? String == "USD")
            // Premium Monthly starts with its free week: nothing charged, and the offer named.
            #expect(payload["price"] as? Int == 0)
            #expect(payload["offerType"] as? Int == 1)
            #expect(payload["offerDiscountType"] as? String == "FREE_TRIAL")
            #expect(payload["offerPeriod"] as? String == "P1W")
            #expect(
                (payload["purchaseDate"] as? NSNumber)?.int64Value
                    == Int64((bought.transaction.purchaseDate.timeIntervalSince1970 * 1000).rounded()))
            #expect(payload["expiresDate"] is NSNumber)
            #expect(payload["appAccountToken"] == nil)  // bought without an order id: no token, not an empty one
            // Signed facts, signed date: the same however often the transaction is read.
            let again = try await client.object(.get, "/v1/accounts/alice/transactions")
            let jwsAgain = try #require(
                (again["transactions"] as? [[String: Any]])?.first?["jwsRepresentation"] as? String)
            let payloadAgain = try #require(Self.verify(jwsAgain, with: key))
            #expect(
                (payloadAgain["signedDate"] as? NSNumber)?.int64Value
                    == (payload["signedDate"] as? NSNumber)?.int64Value)
            #expect(
                (payload["signedDate"] as? NSNumber)?.int64Value == (payload["purchaseDate"] as? NSNumber)?.int64Value)
            // A subscription period's order line, as the receipt numbers it; the account's app transaction id.
            #expect(
                payload["webOrderLineItemId"] as? String
                    == Int64(bought.transaction.id).map { String($0 + 1_000_000_000_000_000) })
            let appTransactionId = try #require(payload["appTransactionId"] as? String)
            #expect(!appTransactionId.isEmpty && appTransactionId.allSatisfy(\.isNumber))

            // The same key as a JWK.
            let jwks = try await client.object(.get, "/.well-known/jwks.json")
            let jwk = try #require((jwks["keys"] as? [[String: Any]])?.first)
            let x = try #require(Base64URL.decode(jwk["x"] as? String ?? ""))
            let y = try #require(Base64URL.decode(jwk["y"] as? String ?? ""))
            let raw = x + y
            #expect(raw == key.rawRepresentation)
            #expect(jwk["kid"] as? String == header["kid"] as? String)

            // Change the price in the payload and keep the signature: refused.
            var forged = payload
            forged["price"] = 0
            let forgedPayload = Base64URL.encode(try JSONSerialization.data(withJSONObject: forged))
            #expect(Self.verify("\(parts[0]).\(forgedPayload).\(parts[2])", with: key) == nil)
            // And a signature from another key is refused too.
            #expect(Self.verify(jws, with: P256.Signing.PrivateKey().publicKey) == nil)
        }
    }

    /// A plan an upgrade replaced says so everywhere a backend looks: `isUpgraded` in its JWS,
    /// `is_upgraded` and the cancellation date in the receipt, `upgradeDate` on the wire.
    @Test func anUpgradedPlanSaysSoInItsJWSAndReceipt() async throws {
        let fixture = try await ServerFixture()
        let monthly = try await fixture.buy(ServerFixture.monthly)
        let plus = try await fixture.buy("com.example.storefront.premiumplus.monthly")
        try await fixture.test { client in
            let history = try await client.object(.get, "/v1/accounts/alice/transactions")
            let replaced = try #require(
                (history["transactions"] as? [[String: Any]])?.first {
                    $0["transactionId"] as? String == monthly.transaction.id
                })
            #expect(replaced["upgradeDate"] is NSNumber)
            #expect(replaced["upgradeRefund"] as? String == "0", "the free week had nothing to refund")
            let pem = try await client.send(.get, "/.well-known/storefront-jws-key.pem")
            let key = try P256.Signing.PublicKey(pemRepresentation: String(buffer: pem.body))
            let jws = try #require(replaced["jwsRepresentation"] as? String)
            let payload = try #require(Self.verify(jws, with: key))
            #expect(payload["isUpgraded"] as? Bool == true)

            _ = plus
            let receipt = try await fixture.service.store.currentReceipt(account: "alice")
            let answer = try await client.object(.post, "/verifyReceipt", json: #"{"receipt-data":"\#(receipt)"}"#)
            let items = try #require((answer["receipt"] as? [String: Any])?["in_app"] as? [[String: Any]])
            let old = try #require(items.first { $0["transaction_id"] as? String == monthly.transaction.id })
            #expect(old["is_upgraded"] as? String == "true")
            #expect(old["cancellation_date_ms"] as? String != nil)
            #expect(old["cancellation_reason"] == nil, "an upgrade is not a refund")
            let new = try #require(items.first { $0["transaction_id"] as? String == plus.transaction.id })
            #expect(new["is_upgraded"] == nil)
        }
    }

    /// `JWSVerifier`, what an app server uses: the genuine JWS passes, and every forgery is refused
    /// with its reason: a changed payload, `alg` changed to `none` (with and without a signature),
    /// another algorithm, a signature of another key (with the header naming ours or its own key),
    /// a changed `kid`, a truncated or missing signature, and what is not a JWS at all.
    @Test func theVerifierRefusesForgedAndTamperedJWS() async throws {
        let fixture = try await ServerFixture()
        _ = try await fixture.buy(ServerFixture.removeAds)
        let jws: String = try await fixture.test { client in
            let history = try await client.object(.get, "/v1/accounts/alice/transactions")
            return try #require((history["transactions"] as? [[String: Any]])?.first?["jwsRepresentation"] as? String)
        }
        let verifier = JWSVerifier(fixture.service.signer)
        let verified = try verifier.verify(jws).get()
        #expect(verified.productId == ServerFixture.removeAds)

        let parts = jws.split(separator: ".").map(String.init)
        func header(_ fields: [String: String]) -> String {
            Base64URL.encode((try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])) ?? Data())
        }
        let kid = fixture.service.signer.keyId
        let payloadData = try #require(Base64URL.decode(parts[1]))
        var payload = try #require(try JSONSerialization.jsonObject(with: payloadData) as? [String: Any])
        payload["productId"] = "com.example.storefront.pro.lifetime"
        let changedPayload = Base64URL.encode(
            try JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys]))
        let otherKey = P256.Signing.PrivateKey()
        func signed(_ input: String, with key: P256.Signing.PrivateKey) throws -> String {
            input + "." + Base64URL.encode(try key.signature(for: Data(input.utf8)).rawRepresentation)
        }
        let ownHeaderOtherKey = try signed("\(parts[0]).\(changedPayload)", with: otherKey)
        let noneHeader = header(["alg": "none", "kid": kid, "typ": "JWT"])
        let hsHeader = header(["alg": "HS256", "kid": kid, "typ": "JWT"])
        let otherKid = header(["alg": "ES256", "kid": "another-key", "typ": "JWT"])
        let cases: [(String, JWSVerifier.Refusal)] = [
            ("\(parts[0]).\(changedPayload).\(parts[2])", .badSignature),
            (ownHeaderOtherKey, .badSignature),
            ("\(noneHeader).\(parts[1]).", .unsupportedAlgorithm("none")),
            ("\(noneHeader).\(changedPayload).", .unsupportedAlgorithm("none")),
            ("\(noneHeader).\(parts[1]).\(parts[2])", .unsupportedAlgorithm("none")),
            ("\(hsHeader).\(parts[1]).\(parts[2])", .unsupportedAlgorithm("HS256")),
            (try signed("\(otherKid).\(changedPayload)", with: otherKey), .unknownKey("another-key")),
            ("\(otherKid).\(parts[1]).\(parts[2])", .unknownKey("another-key")),
            ("\(parts[0]).\(parts[1]).\(parts[2].dropLast(4))", .badSignature),
            ("\(parts[0]).\(parts[1]).", .badSignature),
            ("\(parts[0]).\(parts[1])", .notCompact),
            ("\(parts[0]).\(parts[1]).\(parts[2]).\(parts[2])", .notCompact),
            ("not a jws", .notCompact),
            ("", .notCompact),
            ("\(header([:])).\(parts[1]).\(parts[2])", .badHeader),
        ]
        for (index, (forged, refusal)) in cases.enumerated() {
            switch verifier.verify(forged) {
            case .success: Issue.record("case \(index) was accepted")
            case .failure(let found): #expect(found == refusal, "case \(index)")
            }
        }
        // Another store's verifier refuses this store's genuine JWS.
        let other = try await ServerFixture()
        #expect(throws: JWSVerifier.Refusal.self) { try JWSVerifier(other.service.signer).verify(jws).get() }
    }

    @Test func theSigningKeyIsKeptWithTheStore() async throws {
        let directory = scratchDirectory("jws")
        let first = try await ServerFixture(directory: directory)
        let second = try await ServerFixture(directory: directory)
        #expect(first.service.signer.publicKey.rawRepresentation == second.service.signer.publicKey.rawRepresentation)
        let other = try await ServerFixture()
        #expect(other.service.signer.publicKey.rawRepresentation != first.service.signer.publicKey.rawRepresentation)
    }
}
