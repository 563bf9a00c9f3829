import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import StoreServer
import Testing

@Suite struct JWSTests {
    /// Splits a compact JWS and checks its ES256 signature with `key`.
    static func verify(_ jws: String, with key: P256.Signing.PublicKey) -> [String: Any]? {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let signature = Base64URL.decode(parts[2]),
              let ecdsa = try? P256.Signing.ECDSASignature(rawRepresentation: signature),
              key.isValidSignature(ecdsa, for: Data("\(parts[0]).\(parts[1])".utf8)),
              let payload = Base64URL.decode(parts[1]) else { return nil }
        return try? JSONSerialization.jsonObject(with: payload) as? [String: Any]
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
            #expect(payload["currency"] as? String == "USD")
            #expect(payload["price"] as? Int == 4990)
            #expect((payload["purchaseDate"] as? NSNumber)?.int64Value == Int64((bought.transaction.purchaseDate.timeIntervalSince1970 * 1000).rounded()))
            #expect(payload["expiresDate"] is NSNumber)
            #expect(UUID(uuidString: payload["appAccountToken"] as? String ?? "") == nil || payload["appAccountToken"] != nil)

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

    @Test func theSigningKeyIsKeptWithTheStore() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("storefront-jws-\(UUID().uuidString)")
        let first = try await ServerFixture(directory: directory)
        let second = try await ServerFixture(directory: directory)
        #expect(first.service.signer.publicKey.rawRepresentation == second.service.signer.publicKey.rawRepresentation)
        let other = try await ServerFixture()
        #expect(other.service.signer.publicKey.rawRepresentation != first.service.signer.publicKey.rawRepresentation)
    }
}
