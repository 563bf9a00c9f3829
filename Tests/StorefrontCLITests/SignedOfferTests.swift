import Foundation
import TestSupport
import Testing

/// Promotional offers and introductory offer eligibility signed by Apple's own
/// `PromotionalOfferV2SignatureCreator` and `IntroductoryOfferEligibilitySignatureCreator`
/// (app-store-server-library) with the catalog's offers key: sent to `storefront serve` as
/// StoreKit sends them, and given to `storefront buy` as `--offer-jws` and `--intro-eligibility-jws`.
@Suite struct SignedOfferTests {
    static let script = Executable.repositoryRoot.appendingPathComponent("Tests/Python/signed_offers.py")
    static let catalog = Executable.repositoryRoot.appendingPathComponent("products.json")

    @Test func applesSignersJWSAreAppliedOrRefusedByTheServer() async throws {
        let root = scratchDirectory("signed-offers-serve")
        let server = try ServeProcess.start(
            db: root.appendingPathComponent("server"), arguments: ["--admin-token", "signed-offers-token"])
        defer { server.stop() }
        let result = try Executable.run(python: [
            Self.script.path, server.baseURL, "signed-offers-token", Self.catalog.path,
        ])
        #expect(
            result.status == 0 && result.stdout.contains("all checks passed"),
            "\(result.stdout)\n\(result.stderr)\n\(server.stderr)")
    }

    /// One JWS from Apple's signer: `promotional OFFER_ID` or `intro true|false`.
    func sign(_ kind: String, _ value: String) throws -> String {
        let result = try Executable.run(python: [
            Self.script.path, "--sign", kind, Self.catalog.path, ProductID.monthly, value,
        ])
        try #require(result.status == 0, "\(result.stderr)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func buyTakesApplesSignersJWS() throws {
        let state = try StateDir()
        let first = try state.buy(ProductID.monthly, "--account", "alice")
        try state.manage("expire", try first.transactionId())
        let offer = try sign("promotional", "com.example.storefront.premium.halfprice")
        let bought = try state.buy(ProductID.monthly, "--account", "alice", "--offer-jws", offer)
        #expect(bought.status == 0, "\(bought)")
        #expect(bought.updates.last?["price"] as? String == "2.5", "the half-price offer: \(bought)")
        let reused = try state.buy(ProductID.monthly, "--account", "alice", "--offer-jws", offer)
        #expect(reused.status == 3, "\(reused)")
        #expect((reused.updates.last?["error"] as? [String: Any])?["code"] as? Int == 12, "\(reused)")
        let refused = try state.buy(
            ProductID.monthly, "--account", "kenji", "--intro-eligibility-jws", try sign("intro", "false"))
        #expect(refused.updates.last?["price"] as? String != "0", "no free week for kenji: \(refused)")
        let both = try state.run([
            "buy", ProductID.monthly, "--offer-jws", offer, "--offer", "com.example.storefront.premium.halfprice",
        ])
        #expect(both.status == 2 && both.stderr.contains("--offer-jws"), "\(both)")
    }
}
