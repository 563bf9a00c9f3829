import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import StoreEngine
import StoreServer
import StoreSigning
import TestSupport
import Testing
import X509

/// The server's JWS as a backend checks them with Apple's own library: `SignedDataVerifier`
/// from `app-store-server-library` (installed by `.ci/run`), given the served root, in
/// SANDBOX, offline, with its default strict X.509 checks.
@Suite struct AppleVerifierTests {
    static let script = ServerFixture.repositoryRoot.appendingPathComponent("Tests/Python/verify_signed_data.py")

    /// Runs the verifier script; its exit status and what it printed.
    static func verify(root: Data, _ jws: [String], environment: String = "SANDBOX") throws -> (
        status: Int32, output: String
    ) {
        let directory = scratchDirectory("apple-verifier")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let rootFile = directory.appendingPathComponent("root.cer")
        try root.write(to: rootFile)
        return try runProgram(
            ["python3", script.path, "--environment", environment, rootFile.path, "com.example.storefront.demo"] + jws)
    }

    static func served(_ fixture: ServerFixture, account: String = "alice") async throws -> (root: Data, jws: [String])
    {
        try await fixture.test { client in
            let root = try await client.send(.get, "/.well-known/storefront-root-ca.cer")
            #expect(root.status == .ok)
            #expect(root.headers[.contentType] == "application/pkix-cert")
            let history = try await client.object(.get, "/v1/accounts/\(account)/transactions")
            let jws = (history["transactions"] as? [[String: Any]] ?? []).compactMap {
                $0["jwsRepresentation"] as? String
            }
            return (Data(buffer: root.body), jws)
        }
    }

    @Test func applesVerifierAcceptsEveryTransactionWithTheServedRoot() async throws {
        let fixture = try await ServerFixture()
        _ = try await fixture.buy(ServerFixture.monthly)
        _ = try await fixture.buy(ServerFixture.removeAds)
        let (root, jws) = try await Self.served(fixture)
        #expect(jws.count == 2)
        let result = try Self.verify(root: root, jws)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("verified"), "\(result.output)")
        #expect(result.output.contains("storefront=USA storefrontId=143441"), "\(result.output)")
    }

    /// Every auto-renewable transaction a backend reads has Apple's `expiresDate`, the copies a
    /// downgrade and the plan in force bought again complete with included: Apple's
    /// `t.expiresDate > now` must not meet `None`.
    @Test func everySignedSubscriptionTransactionHasAnExpiry() async throws {
        let fixture = try await ServerFixture()
        let plus = "com.example.storefront.premiumplus.monthly"
        _ = try await fixture.buy(plus)
        let downgrade = try await fixture.buy(ServerFixture.monthly)
        let again = try await fixture.buy(plus)
        #expect([downgrade, again].allSatisfy { $0.transaction.state == .restored })
        let (root, jws) = try await Self.served(fixture)
        #expect(jws.count == 3)
        let result = try Self.verify(root: root, jws)
        #expect(result.status == 0, "\(result.output)")
        let lines = result.output.split(separator: "\n").filter { $0.contains("type=Auto-Renewable-Subscription") }
        #expect(lines.count == 3, "\(result.output)")
        #expect(lines.allSatisfy { !$0.contains("expiresDate=None") }, "\(result.output)")
    }

    /// Apple's `expiresDate` is for auto-renewable subscriptions: a Season Pass (non-renewing)
    /// is signed without one, its term being the app's.
    @Test func aNonRenewingSubscriptionIsSignedWithoutAnExpiry() async throws {
        let fixture = try await ServerFixture()
        _ = try await fixture.buy("com.example.storefront.pass.season")
        let (root, jws) = try await Self.served(fixture)
        let result = try Self.verify(root: root, jws)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("type=Non-Renewing-Subscription expiresDate=None"), "\(result.output)")
    }

    /// Apple signs what the transaction charged, its quantity included: 3 × 0.99 is 2970
    /// milliunits, not the 990 of one unit.
    @Test func theSignedPriceIsTheTotalForTheQuantity() async throws {
        let fixture = try await ServerFixture()
        let bought = try await fixture.buy(ServerFixture.gems, quantity: 3)
        #expect(bought.transaction.terms?.price == Decimal(string: "2.97"))
        let (root, jws) = try await Self.served(fixture)
        let result = try Self.verify(root: root, jws)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("quantity=3 price=2970 USD"), "\(result.output)")
    }

    /// `?reason=app-issue` is Apple's revocation reason 1, `other` 0, as the verifier decodes them.
    @Test func aRefundsReasonIsSigned() async throws {
        let fixture = try await ServerFixture()
        let gems = try await fixture.buy(ServerFixture.gems).transaction.id
        let ads = try await fixture.buy(ServerFixture.removeAds).transaction.id
        try await fixture.test { client in
            let bad = try await client.object(
                .post, "/admin/transactions/\(gems)/refund?reason=whim", admin: true, expect: .badRequest)
            #expect((bad["error"] as? [String: Any])?["field"] as? String == "reason", "\(bad)")
            _ = try await client.object(.post, "/admin/transactions/\(gems)/refund?reason=app-issue", admin: true)
            _ = try await client.object(.post, "/admin/transactions/\(ads)/refund", admin: true)
        }
        let (root, jws) = try await Self.served(fixture)
        let result = try Self.verify(root: root, jws)
        #expect(result.status == 0, "\(result.output)")
        let lines = result.output.split(separator: "\n")
        #expect(lines.contains { $0.contains(gems) && $0.contains("revocationReason=1") }, "\(result.output)")
        #expect(lines.contains { $0.contains(ads) && $0.contains("revocationReason=0") }, "\(result.output)")
    }

    /// `?percentage=25.5` refunds a share: Apple's library decodes REFUND_PRORATED with 25500
    /// milliunits; a full refund is REFUND_FULL with 100000. A share that is not above 0 and below
    /// 100, with at most three decimals, is refused naming `percentage`.
    @Test func aProratedRefundIsSignedWithItsShare() async throws {
        let fixture = try await ServerFixture()
        let gems = try await fixture.buy(ServerFixture.gems).transaction.id
        let ads = try await fixture.buy(ServerFixture.removeAds).transaction.id
        try await fixture.test { client in
            for bad in ["0", "100", "-5", "25.1234", "abc", "1e1"] {
                let refused = try await client.object(
                    .post, "/admin/transactions/\(gems)/refund?percentage=\(bad)", admin: true, expect: .badRequest)
                #expect((refused["error"] as? [String: Any])?["field"] as? String == "percentage", "\(bad): \(refused)")
            }
            _ = try await client.object(.post, "/admin/transactions/\(gems)/refund?percentage=25.5", admin: true)
            _ = try await client.object(.post, "/admin/transactions/\(ads)/refund", admin: true)
        }
        let (root, jws) = try await Self.served(fixture)
        let result = try Self.verify(root: root, jws)
        #expect(result.status == 0, "\(result.output)")
        let lines = result.output.split(separator: "\n")
        #expect(
            lines.contains {
                $0.contains(gems) && $0.contains("revocationType=REFUND_PRORATED revocationPercentage=25500")
            },
            "\(result.output)")
        #expect(
            lines.contains {
                $0.contains(ads) && $0.contains("revocationType=REFUND_FULL revocationPercentage=100000")
            },
            "\(result.output)")
    }

    /// An assigned transaction (App Store Server API 1.22) verifies with Apple's library, which
    /// 3.1.2 decodes without the enum case: `inAppOwnershipType` None, the raw value kept.
    @Test func anAssignedTransactionVerifiesAndKeepsItsRawOwnership() async throws {
        let fixture = try await ServerFixture()
        let bought = try await fixture.buy(ServerFixture.removeAds, account: "kenji").transaction
        _ = try await fixture.service.store.perform(.assign(bought.id, account: "lena"))
        let (root, jws) = try await Self.served(fixture, account: "lena")
        #expect(jws.count == 1)
        let result = try Self.verify(root: root, jws)
        #expect(result.status == 0, "\(result.output)")
        #expect(
            result.output.contains("inAppOwnershipType=None rawInAppOwnershipType=ASSIGNED")
                || result.output.contains("inAppOwnershipType=ASSIGNED rawInAppOwnershipType=ASSIGNED"),
            "\(result.output)")
    }

    /// A consumable bought with an offer code decodes with Apple's library as Apple signs an
    /// In-App Purchase offer code: `offerType` 3, the offer's id, `offerDiscountType` ONE_TIME
    /// (API 1.18), no `offerPeriod`, and the offer's price.
    @Test func aConsumablesOfferCodeIsSignedAsApplesOneTimeOffer() async throws {
        let fixture = try await ServerFixture()
        let redeemed = try await fixture.buy(
            "com.example.storefront.gems.550", offer: .code("GEMSWELCOME")
        ).transaction
        #expect(redeemed.state == .purchased)
        let (root, jws) = try await Self.served(fixture)
        let result = try Self.verify(root: root, jws)
        #expect(result.status == 0, "\(result.output)")
        let line = try #require(result.output.split(separator: "\n").first { $0.contains(redeemed.id) })
        #expect(line.contains("price=1990 USD"), "\(line)")
        #expect(line.contains("type=Consumable"), "\(line)")
        #expect(
            line.contains(
                "offerType=OFFER_CODE offerIdentifier=gems-welcome offerDiscountType=ONE_TIME offerPeriod=None"),
            "\(line)")
    }

    @Test func applesVerifierRefusesATamperedJWSAndAnotherRoot() async throws {
        let fixture = try await ServerFixture()
        _ = try await fixture.buy(ServerFixture.removeAds)
        let (root, jws) = try await Self.served(fixture)
        let first = try #require(jws.first)
        let parts = first.split(separator: ".").map(String.init)
        let payloadData = try #require(Base64URL.decode(parts[1]))
        var payload = try #require(try JSONSerialization.jsonObject(with: payloadData) as? [String: Any])
        payload["price"] = 0
        let forged =
            parts[0] + "." + Base64URL.encode(try JSONSerialization.data(withJSONObject: payload)) + "." + parts[2]
        let tampered = try Self.verify(root: root, [forged])
        #expect(tampered.status == 1 && tampered.output.contains("refused"), "\(tampered.output)")
        // Another server's root does not vouch for this one's chain.
        let other = try await ServerFixture()
        let (otherRoot, _) = try await Self.served(other)
        let foreign = try Self.verify(root: otherRoot, jws)
        #expect(foreign.status == 1 && foreign.output.contains("refused"), "\(foreign.output)")
    }

    /// `--environment local-testing` and `xcode`: the payload says so, and Apple's verifier in
    /// that environment accepts it (it skips the signature), while a SANDBOX one refuses it.
    @Test(arguments: [(ServerEnvironment.localTesting, "LOCAL_TESTING"), (.xcode, "XCODE")])
    func theTestingEnvironmentsAreTheirOwn(environment: ServerEnvironment, verifierName: String) async throws {
        let fixture = try await ServerFixture(environment: environment)
        _ = try await fixture.buy(ServerFixture.removeAds)
        let (root, jws) = try await Self.served(fixture)
        let accepted = try Self.verify(root: root, jws, environment: verifierName)
        #expect(accepted.status == 0, "\(accepted.output)")
        let refused = try Self.verify(root: root, jws, environment: "SANDBOX")
        #expect(refused.status == 1 && refused.output.contains("INVALID_ENVIRONMENT"), "\(refused.output)")
    }

    /// The chain is minted once and kept: a restarted server signs with the same certificates.
    @Test func theChainIsKeptAcrossRestarts() async throws {
        let directory = scratchDirectory("chain-restart")
        let first = try await ServerFixture(directory: directory)
        let chain = first.service.signer.chain
        let again = try await ServerFixture(directory: directory)
        #expect(again.service.signer.chain == chain)
        // Apple's profile: the markers on intermediate and leaf, the leaf's key the signing key.
        let leaf = try Certificate(derEncoded: Array(chain.certificates[0]))
        let intermediate = try Certificate(derEncoded: Array(chain.certificates[1]))
        #expect(leaf.extensions.contains { $0.oid == [1, 2, 840, 113_635, 100, 6, 11, 1] && !$0.critical })
        #expect(intermediate.extensions.contains { $0.oid == [1, 2, 840, 113_635, 100, 6, 2, 1] && !$0.critical })
        #expect(chain.certifies(again.service.signer.publicKey))
    }
}
