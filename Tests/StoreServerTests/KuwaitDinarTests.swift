import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import StoreKitModel
import StoreServer
import TestSupport
import Testing

/// A storefront priced in Kuwaiti dinars, which have three decimals, from the catalog to the
/// price shown, the purchase, an upgrade's refund and the signed price Apple's verifier reads.
@Suite struct KuwaitDinarTests {
    static func fixture() async throws -> ServerFixture {
        try await ServerFixture(catalogBytes: try KuwaitCatalog.bytes())
    }

    @Test func theProductsShowDinarsWithThreeDecimals() async throws {
        let fixture = try await Self.fixture()
        try await fixture.test { client in
            let body = try await client.object(
                .post, "/v1/products", json: #"{"ids":["\#(ServerFixture.gems)"],"storefront":"KWT"}"#)
            let product = try #require((body["products"] as? [[String: Any]])?.first)
            #expect(product["price"] as? String == "1.25")
            let shown = PriceFormatter(currency: "KWD", locale: "ar_KW").string(Decimal(string: "1.25")!)
            #expect(product["displayPrice"] as? String == shown)
            #expect((body["storefront"] as? [String: Any])?["currency"] as? String == "KWD")
        }
    }

    @Test func theSignedPriceIsInMilliunitsOfDinars() async throws {
        let fixture = try await Self.fixture()
        let one = try await fixture.buy(ServerFixture.gems, account: KuwaitCatalog.account)
        let three = try await fixture.buy(ServerFixture.gems, quantity: 3, account: KuwaitCatalog.account)
        #expect(one.transaction.terms?.price == Decimal(string: "1.25"))
        #expect(three.transaction.terms?.price == Decimal(string: "3.75"))
        try await fixture.test { client in
            _ = try await client.object(
                .post, "/admin/transactions/\(three.transaction.id)/refund?reason=app-issue", admin: true)
        }
        let (root, jws) = try await fixture.test { client in
            let root = try await client.send(.get, "/.well-known/storefront-root-ca.cer")
            let history = try await client.object(.get, "/v1/accounts/\(KuwaitCatalog.account)/transactions")
            let jws = (history["transactions"] as? [[String: Any]] ?? []).compactMap {
                $0["jwsRepresentation"] as? String
            }
            return (Data(buffer: root.body), jws)
        }
        #expect(jws.count == 2)
        let result = try AppleVerifierTests.verify(root: root, jws)
        #expect(result.status == 0, "\(result.output)")
        let lines = result.output.split(separator: "\n")
        #expect(
            lines.contains { $0.contains(one.transaction.id) && $0.contains("quantity=1 price=1250 KWD") },
            "\(result.output)")
        #expect(
            lines.contains {
                $0.contains(three.transaction.id) && $0.contains("quantity=3 price=3750 KWD revocationReason=1")
            }, "\(result.output)")
        #expect(result.output.contains("storefront=KWT storefrontId=None"), "\(result.output)")
    }
}
