import Crypto
import Foundation
import LocalState
import StoreCore
import StoreKitModel
import StoreSQL

/// The App Store's checks of an offer asked for with a payment: a promotional offer's signature
/// (made with the catalog's key, or the one the store keeps for it), an offer code, a win-back
/// offer, and whether the account may take it.
extension SimulatedStore {
    enum OfferCheck {
        /// The offer, and the billing plan it is an offer of, which the payment is billed on.
        case accepted(TransactionOffer, BillingPlanType)
        case refused(SKErrorCode)
    }

    /// How long a promotional offer's signature is good for.
    static let signatureLifetime: TimeInterval = 86_400

    /// The offer the payment may take, or the SKError that refuses it. Records a promotional
    /// offer's nonce in the caller's write, so it is good once. Who may take it is
    /// `OfferEligibility`'s rule, the one the sheet and `products --json` show.
    nonisolated func checkOffer(
        _ payment: Payment, account: String, storefront: String, at now: Date,
        _ db: any SQLDatabase
    ) throws -> OfferCheck {
        guard let requested = payment.offer else { return .refused(.missingOfferParams) }
        if let product = catalog.product(id: payment.productId), product.type != .autoRenewable {
            return try checkOneTimeOffer(
                requested, product: product, account: account, storefront: storefront, at: now, db)
        }
        guard let product = catalog.product(id: payment.productId), product.type == .autoRenewable,
            let subscription = product.subscription
        else {
            return .refused(.invalidOfferIdentifier)
        }
        let named: NamedOffer
        switch try namedOffer(requested, payment: payment, in: subscription, at: now, db) {
        case .success(let found): named = found
        case .failure(let refusal): return .refused(refusal.code)
        }
        let offer = named.offer
        // Offers are set per billing plan: one of the other plan is not this purchase's.
        if let plan = payment.billingPlan, plan != offer.billingPlan { return .refused(.invalidOfferIdentifier) }
        let history = try offerHistory(account: account, at: now, db)
        let verdict = OfferEligibility.verdict(
            for: offer, of: product, code: named.code, history: history, rate: try timeRate(db), at: now)
        guard verdict.isEligible else { return .refused(.ineligibleForOffer) }
        guard offer.terms.paymentMode == .freeTrial || offer.terms.prices[storefront] != nil else {
            return .refused(.invalidOfferPrice)
        }
        if let nonce = named.nonce { try spendNonce(nonce, at: now, db) }
        return .accepted(
            TransactionOffer(
                type: offer.kind.offerType, id: offer.id, paymentMode: offer.terms.paymentMode,
                period: offer.terms.period), offer.billingPlan)
    }

    /// An offer code of a consumable, a non-consumable or a non-renewing subscription (App Store
    /// Connect's offer codes for In-App Purchases): the only offer such a product has. A code of
    /// another product, or any other kind of offer, is `invalidOfferIdentifier` (11); a customer
    /// the offer is not for, or one who redeemed a code of it already, `ineligibleForOffer` (18).
    nonisolated func checkOneTimeOffer(
        _ requested: PaymentOffer, product: Product, account: String, storefront: String, at now: Date,
        _ db: any SQLDatabase
    ) throws -> OfferCheck {
        guard case .code(let code) = requested, let offer = product.codeOffer(code: code) else {
            return .refused(.invalidOfferIdentifier)
        }
        let history = try offerHistory(account: account, at: now, db)
        let verdict = OfferEligibility.verdict(
            for: offer, code: code, history: history, rate: try timeRate(db), at: now)
        guard verdict.isEligible else { return .refused(.ineligibleForOffer) }
        guard offer.prices[storefront] != nil else { return .refused(.invalidOfferPrice) }
        return .accepted(.oneTime(offer), .upFront)
    }

    /// The catalog's offer a payment asks for, with the code it redeems and the nonce its
    /// signature spends once the payment is accepted.
    struct NamedOffer {
        let offer: SubscriptionOffer
        var code: String?
        var nonce: String?
    }

    struct OfferRefusal: Error {
        let code: SKErrorCode
    }

    /// The offer `requested` names, once its signature (if it has one) verifies.
    nonisolated func namedOffer(
        _ requested: PaymentOffer, payment: Payment, in subscription: SubscriptionInfo, at now: Date,
        _ db: any SQLDatabase
    ) throws -> Result<NamedOffer, OfferRefusal> {
        let wrongId = Result<NamedOffer, OfferRefusal>.failure(OfferRefusal(code: .invalidOfferIdentifier))
        switch requested {
        case .promotional(let discount):
            if let problem = try discountProblem(discount, payment: payment, at: now, db) {
                return .failure(OfferRefusal(code: problem))
            }
            guard let found = subscription.offer(id: discount.identifier), found.kind == .promotional else {
                return wrongId
            }
            return .success(NamedOffer(offer: found, nonce: discount.nonce))
        case .signedPromotional(let signed):
            switch try verify(signed, for: .promotionalOffer, productId: payment.productId, at: now, db) {
            case .refused(let code): return .failure(OfferRefusal(code: code))
            case .verified(let claims):
                guard let id = claims.offerIdentifier, let found = subscription.offer(id: id),
                    found.kind == .promotional
                else { return wrongId }
                return .success(NamedOffer(offer: found, nonce: claims.nonce))
            }
        case .code(let redeemed):
            guard let found = subscription.offer(code: redeemed) else { return wrongId }
            return .success(NamedOffer(offer: found, code: redeemed))
        case .winBack(let id):
            guard let found = subscription.offer(id: id), found.kind == .winBack else { return wrongId }
            return .success(NamedOffer(offer: found))
        }
    }

    /// Why a promotional offer's signature is refused: missing parameters (13), or a key, a
    /// signature, an age or a nonce that does not hold (12); nil when it verifies.
    nonisolated func discountProblem(_ discount: PaymentDiscount, payment: Payment, at now: Date, _ db: any SQLDatabase)
        throws
        -> SKErrorCode?
    {
        guard !discount.identifier.isEmpty, !discount.keyIdentifier.isEmpty, !discount.nonce.isEmpty,
            !discount.signature.isEmpty,
            discount.timestamp > 0
        else { return .missingOfferParams }
        guard let key = try offerVerificationKey(db), key.keyId == discount.keyIdentifier,
            let publicKey = try? P256.Signing.PrivateKey(pemRepresentation: key.privateKeyPEM).publicKey,
            let der = Data(base64Encoded: discount.signature),
            let signature = try? P256.Signing.ECDSASignature(derRepresentation: der)
        else { return .invalidSignature }
        let text = PaymentDiscount.signedText(
            bundleId: catalog.bundleId, keyIdentifier: discount.keyIdentifier, productId: payment.productId,
            offerId: discount.identifier, applicationUsername: payment.applicationUsername,
            nonce: discount.nonce, timestamp: discount.timestamp)
        guard publicKey.isValidSignature(signature, for: Data(text.utf8)) else { return .invalidSignature }
        let signed = Date(timeIntervalSince1970: Double(discount.timestamp) / 1000)
        guard abs(now.timeIntervalSince(signed)) <= Self.signatureLifetime else { return .invalidSignature }
        return try nonceUsed(discount.nonce, db) ? .invalidSignature : nil
    }

    /// The terms of the offer a transaction was bought with, as the catalog has them now; an
    /// introductory offer is `plan`'s.
    nonisolated func terms(of offer: TransactionOffer, product: Product?, plan: BillingPlanType? = nil) -> IntroOffer? {
        guard let subscription = product?.subscription else { return nil }
        if offer.type == .introductory { return subscription.introOffer(for: plan ?? .upFront) }
        return offer.id.flatMap(subscription.offer(id:))?.terms
    }
}
