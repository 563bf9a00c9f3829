import Crypto
import Foundation
import StoreCore
import StoreKitModel
import StoreSQL

/// The App Store's check of a JWS an app's server signed for a purchase option (a promotional
/// offer, introductory offer eligibility): ES256 with the same offers key as the v1 signatures
/// (`offerVerificationKey`), for this app, this use and this product, recent, and its nonce good
/// once. What fails is refused as the v1 signature is: SKError 12, or 13 for a missing claim.
extension SimulatedStore {
    enum SignedRequestCheck {
        case verified(SignedRequest.Claims)
        case refused(SKErrorCode)
    }

    /// The request's claims once it verifies for `audience` and `productId`; spends nothing (the
    /// caller records the nonce once the whole payment is accepted, `spendNonce`).
    nonisolated func verify(
        _ request: SignedRequest, for audience: SignedRequest.Audience, productId: String, at now: Date,
        _ db: any SQLDatabase
    ) throws -> SignedRequestCheck {
        guard let parts = request.parts, parts.header.alg == "ES256", let kid = parts.header.kid,
            let key = try offerVerificationKey(db), key.keyId == kid,
            let publicKey = try? P256.Signing.PrivateKey(pemRepresentation: key.privateKeyPEM).publicKey,
            let signature = try? P256.Signing.ECDSASignature(rawRepresentation: parts.signature),
            publicKey.isValidSignature(signature, for: parts.signingInput)
        else { return .refused(.invalidSignature) }
        let claims = parts.claims
        guard let bid = claims.bid, let aud = claims.aud, let iat = claims.iat, let nonce = claims.nonce,
            !nonce.isEmpty, let product = claims.productId, Self.hasUseClaims(claims, audience)
        else { return .refused(.missingOfferParams) }
        guard bid == catalog.bundleId, aud == audience.rawValue, product == productId,
            abs(now.timeIntervalSince1970 - iat) <= Self.signatureLifetime, try !nonceUsed(nonce, db)
        else { return .refused(.invalidSignature) }
        return .verified(claims)
    }

    /// The claims each use cannot go without, as Apple's signature creators require them.
    static func hasUseClaims(_ claims: SignedRequest.Claims, _ audience: SignedRequest.Audience) -> Bool {
        switch audience {
        case .promotionalOffer: claims.offerIdentifier.map { !$0.isEmpty } ?? false
        case .introductoryOfferEligibility: claims.allowIntroductoryOffer != nil && claims.transactionId != nil
        }
    }

    nonisolated func nonceUsed(_ nonce: String, _ db: any SQLDatabase) throws -> Bool {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM offer_nonces WHERE nonce = ?", arguments: [nonce.lowercased()])
            ?? 0 > 0
    }

    /// Records a signature's nonce in the payment's write, so the signature is good once.
    nonisolated func spendNonce(_ nonce: String, at now: Date, _ db: any SQLDatabase) throws {
        try db.execute(
            sql: "INSERT INTO offer_nonces (nonce, used_at) VALUES (?, ?)",
            arguments: [nonce.lowercased(), now.timeIntervalSince1970])
    }

    /// Whether the app's server allows the introductory offer with this payment, once its JWS
    /// verifies; nil without one. The nonce is spent by the caller with the payment's other checks.
    enum IntroEligibilityCheck {
        case none
        case decided(allowed: Bool, nonce: String)
        case refused(SKErrorCode)
    }

    nonisolated func checkIntroEligibility(_ payment: Payment, at now: Date, _ db: any SQLDatabase) throws
        -> IntroEligibilityCheck
    {
        guard let signed = payment.introductoryOfferEligibility else { return .none }
        switch try verify(signed, for: .introductoryOfferEligibility, productId: payment.productId, at: now, db) {
        case .refused(let code): return .refused(code)
        case .verified(let claims):
            guard let allowed = claims.allowIntroductoryOffer, let nonce = claims.nonce else {
                return .refused(.missingOfferParams)
            }
            return .decided(allowed: allowed, nonce: nonce)
        }
    }
}
