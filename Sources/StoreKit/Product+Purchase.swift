import Foundation
import StoreCore
import StoreKitModel

extension Product {
    /// StoreKit 2's `Product.PurchaseResult`.
    public enum PurchaseResult: Sendable {
        /// The purchase succeeded: deliver, then `finish()` the transaction.
        case success(VerificationResult<Transaction>)
        /// The customer cancelled the payment sheet.
        case userCancelled
        /// Waiting for approval (Ask to Buy) or for the customer to act: the outcome arrives
        /// later through `Transaction.updates`.
        case pending
    }

    /// StoreKit 2's `Product.PurchaseError`.
    public enum PurchaseError: Error, Hashable, Sendable {
        case invalidQuantity
        case productUnavailable
        case purchaseNotAllowed
        case ineligibleForOffer
        case invalidOfferIdentifier
        case invalidOfferPrice
        case invalidOfferSignature
        case missingOfferParameters
    }

    /// StoreKit 2's `Product.PurchaseOption`: what a purchase carries beside the product.
    public struct PurchaseOption: Hashable, Sendable {
        enum Kind: Hashable, Sendable {
            case quantity(Int)
            case appAccountToken(UUID)
            case promotional(PaymentDiscount)
            case signedPromotional(offerID: String?, compactJWS: String)
            case introductoryOfferEligibility(compactJWS: String)
            case winBack(String)
            case billingPlan(SubscriptionInfo.BillingPlanType)
        }

        let kind: Kind

        public static func quantity(_ quantity: Int) -> PurchaseOption {
            PurchaseOption(kind: .quantity(quantity))
        }

        public static func appAccountToken(_ token: UUID) -> PurchaseOption {
            PurchaseOption(kind: .appAccountToken(token))
        }

        /// A promotional offer signed by the app's server with its offer key (the signature of
        /// `bundleId ⁣ keyID ⁣ productID ⁣ offerID ⁣ appAccountToken ⁣ nonce ⁣ timestamp`).
        public static func promotionalOffer(
            offerID: String, keyID: String, nonce: UUID, signature: Data, timestamp: Int
        ) -> PurchaseOption {
            PurchaseOption(
                kind: .promotional(
                    PaymentDiscount(
                        identifier: offerID, keyIdentifier: keyID, nonce: nonce.uuidString.lowercased(),
                        signature: signature.base64EncodedString(), timestamp: Int64(timestamp))))
        }

        /// A promotional offer signed as a compact JWS (Apple's `PromotionalOfferV2SignatureCreator`).
        public static func promotionalOffer(_ offer: SubscriptionOffer, compactJWS: String) -> PurchaseOption {
            PurchaseOption(kind: .signedPromotional(offerID: offer.id, compactJWS: compactJWS))
        }

        /// The app server's decision on the introductory offer, a compact JWS (Apple's
        /// `IntroductoryOfferEligibilitySignatureCreator`).
        public static func introductoryOfferEligibility(compactJWS: String) -> PurchaseOption {
            PurchaseOption(kind: .introductoryOfferEligibility(compactJWS: compactJWS))
        }

        public static func winBackOffer(_ offer: SubscriptionOffer) -> PurchaseOption {
            PurchaseOption(kind: .winBack(offer.id ?? ""))
        }

        /// How a subscription with a 12-month commitment is paid (iOS 26.4's billing plans).
        public static func billingPlanType(_ type: SubscriptionInfo.BillingPlanType) -> PurchaseOption {
            PurchaseOption(kind: .billingPlan(type))
        }
    }

    /// Buys the product for the account signed in: the payment sheet is confirmed at once (a
    /// test control can make the customer cancel it), and the result is the transaction's final state.
    public func purchase(options: Set<PurchaseOption> = []) async throws -> PurchaseResult {
        let store = try await StoreKitCall.store()
        return try await PurchaseFlow(store: store).purchase(id, options: options)
    }
}
