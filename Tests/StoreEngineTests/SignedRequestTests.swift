import Crypto
import Foundation
import StoreCore
import StoreEngine
import StoreKitModel
import TestSupport
import Testing

/// Promotional offers and introductory offer eligibility signed as JWS, as Apple's
/// `PromotionalOfferV2SignatureCreator` and `IntroductoryOfferEligibilitySignatureCreator` sign
/// them: verified with the catalog's offers key, applied, and each wrong one refused.
@Suite struct SignedRequestTests {
    static let promo = "com.example.storefront.premium.halfprice"

    /// A compact JWS over `claims`, ES256 with `pem` and `kid` in the header, as Apple's signers make it.
    static func jws(_ claims: [String: Any], pem: String? = nil, kid: String? = nil) throws -> SignedRequest {
        let key = try #require(try StoreFixture.catalog().settings.offerSigningKey)
        let header = try JSONSerialization.data(withJSONObject: ["alg": "ES256", "kid": kid ?? key.keyId, "typ": "JWT"])
        let payload = try JSONSerialization.data(withJSONObject: claims)
        let input = "\(base64URL(header)).\(base64URL(payload))"
        let signer = try P256.Signing.PrivateKey(pemRepresentation: pem ?? key.privateKeyPEM)
        let signature = try signer.signature(for: Data(input.utf8)).rawRepresentation
        return SignedRequest(compactJWS: "\(input).\(base64URL(signature))")
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The claims Apple's signers write for `audience`, at the fixture's time, with `changes` applied.
    static func claims(
        _ audience: SignedRequest.Audience, at now: Date, _ changes: [String: Any?] = [:]
    ) -> [String: Any] {
        var claims: [String: Any] = [
            "bid": "com.example.storefront.demo", "iss": "57246542-96fe-1a63-e053-0824d011072a",
            "aud": audience.rawValue, "iat": Int(now.timeIntervalSince1970), "nonce": UUID().uuidString.lowercased(),
            "productId": StoreFixture.monthly,
        ]
        switch audience {
        case .promotionalOffer: claims["offerIdentifier"] = promo
        case .introductoryOfferEligibility:
            claims["allowIntroductoryOffer"] = true
            claims["transactionId"] = "2000000000000001"
        }
        for (name, value) in changes { claims[name] = value }
        return claims
    }

    func buy(_ fixture: StoreFixture, offer: PaymentOffer? = nil, intro: SignedRequest? = nil) async throws
        -> TransactionUpdate
    {
        let updates = await fixture.store.updates()
        let started = try await fixture.store.add(
            Payment(
                productId: StoreFixture.monthly, account: "alice", offer: offer, introductoryOfferEligibility: intro))
        for await update in updates where update.transaction.id == started.id && update.transaction.state != .purchasing
        { return update }
        throw StoreFailure("no outcome for \(started.id)")
    }

    /// Alice had Premium Monthly (with its free week), now expired: eligible for promotional offers,
    /// and her introductory offer is spent.
    func lapsed() async throws -> StoreFixture {
        let fixture = try StoreFixture()
        let first = try await fixture.buy(StoreFixture.monthly)
        _ = try await fixture.store.perform(.expireSubscription(first.transaction.id))
        fixture.clock.advance(by: 60)
        return fixture
    }

    @Test func aPromotionalOfferSignedAsAJWSIsApplied() async throws {
        let fixture = try await lapsed()
        let signed = try Self.jws(Self.claims(.promotionalOffer, at: fixture.clock.now()))
        let bought = try await buy(fixture, offer: .signedPromotional(signed))
        #expect(bought.transaction.state == .purchased, "\(String(describing: bought.transaction.error))")
        #expect(bought.transaction.terms?.offer?.type == .promotional)
        #expect(bought.transaction.terms?.offer?.id == Self.promo)
        #expect(bought.transaction.terms?.price == Decimal(string: "2.50"))
        let again = try await buy(fixture, offer: .signedPromotional(signed))
        #expect(again.transaction.error == .storeKit(.invalidSignature), "a nonce is good once")
    }

    @Test func eachWrongPromotionalJWSIsRefusedWithItsSKError() async throws {
        let fixture = try await lapsed()
        let now = fixture.clock.now()
        func failure(_ signed: SignedRequest) async throws -> StoreError? {
            try await buy(fixture, offer: .signedPromotional(signed)).transaction.error
        }
        func claims(_ changes: [String: Any?]) -> [String: Any] { Self.claims(.promotionalOffer, at: now, changes) }
        let good = try Self.jws(claims([:]))
        let parts = good.compactJWS.split(separator: ".")
        let forged = try Self.jws(claims(["offerIdentifier": "com.example.storefront.premium.other"]))
        let tampered = SignedRequest(
            compactJWS: "\(parts[0]).\(forged.compactJWS.split(separator: ".")[1]).\(parts[2])")
        #expect(try await failure(tampered) == .storeKit(.invalidSignature), "a payload the signature does not cover")
        let otherKey = P256.Signing.PrivateKey().pemRepresentation
        #expect(try await failure(try Self.jws(claims([:]), pem: otherKey)) == .storeKit(.invalidSignature))
        #expect(try await failure(try Self.jws(claims([:]), kid: "OTHERKEY01")) == .storeKit(.invalidSignature))
        #expect(try await failure(SignedRequest(compactJWS: "not.a.jws")) == .storeKit(.invalidSignature))
        for wrong: [String: Any?] in [
            ["aud": "introductory-offer-eligibility"], ["bid": "com.example.other"],
            ["productId": StoreFixture.plusMonthly], ["iat": Int(now.timeIntervalSince1970) - 2 * 86_400],
        ] {
            #expect(try await failure(try Self.jws(claims(wrong))) == .storeKit(.invalidSignature), "\(wrong)")
        }
        #expect(try await failure(try Self.jws(claims(["nonce": nil]))) == .storeKit(.missingOfferParams))
        #expect(try await failure(try Self.jws(claims(["offerIdentifier": nil]))) == .storeKit(.missingOfferParams))
        #expect(
            try await failure(try Self.jws(claims(["offerIdentifier": "com.example.storefront.premium.nope"])))
                == .storeKit(.invalidOfferIdentifier))
        #expect(try await failure(good) == nil, "the good one still goes through: the refusals spent nothing")
    }

    @Test func theAppServersIntroEligibilityDecidesTheIntroductoryOffer() async throws {
        let fixture = try StoreFixture()
        let refused = try Self.jws(
            Self.claims(.introductoryOfferEligibility, at: fixture.clock.now(), ["allowIntroductoryOffer": false]))
        let new = try await buy(fixture, intro: refused)
        #expect(new.transaction.state == .purchased, "\(String(describing: new.transaction.error))")
        #expect(new.transaction.terms?.offer == nil, "a new subscriber the app's server refused the free week")
        _ = try await fixture.store.perform(.expireSubscription(new.transaction.id))
        fixture.clock.advance(by: 60)
        // The completion after a latency reads the decision back from the store.
        try await fixture.setControls { $0.latencyMilliseconds = 20 }
        let allowed = try Self.jws(Self.claims(.introductoryOfferEligibility, at: fixture.clock.now()))
        let again = try await buy(fixture, intro: allowed)
        #expect(again.transaction.terms?.offer?.type == .introductory, "a returning subscriber it allowed the week")
        #expect(again.transaction.terms?.offer?.paymentMode == .freeTrial)
    }

    @Test func aWrongIntroEligibilityJWSFailsThePayment() async throws {
        let fixture = try StoreFixture()
        let now = fixture.clock.now()
        let wrongAudience = try Self.jws(
            Self.claims(.introductoryOfferEligibility, at: now, ["aud": "promotional-offer"]))
        #expect(try await buy(fixture, intro: wrongAudience).transaction.error == .storeKit(.invalidSignature))
        let unsigned = try Self.jws(
            Self.claims(.introductoryOfferEligibility, at: now), pem: P256.Signing.PrivateKey().pemRepresentation)
        #expect(try await buy(fixture, intro: unsigned).transaction.error == .storeKit(.invalidSignature))
        let noDecision = try Self.jws(
            Self.claims(.introductoryOfferEligibility, at: now, ["allowIntroductoryOffer": nil]))
        #expect(try await buy(fixture, intro: noDecision).transaction.error == .storeKit(.missingOfferParams))
    }
}
