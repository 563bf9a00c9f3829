import Crypto
import Foundation
import StoreKitModel

/// What an app's server does for a promotional offer: signs it with the In-App Purchase key
/// (ECDSA P-256 over SHA-256, DER, base64), for the app to send with its payment.
public enum PromotionalOfferSigner {
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// The signed `SKPaymentDiscount`. The order id the payment will carry is signed as the app
    /// account token, so it must be the one the payment is sent with. `key`: the one the store
    /// keeps for a catalog that names none (`SimulatedStore.offersKey`); default the catalog's.
    public static func sign(
        offerId: String, productId: String, applicationUsername: String?, catalog: Catalog,
        key: OfferSigningKey? = nil, nonce: UUID = UUID(), at date: Date = Date()
    ) throws -> PaymentDiscount {
        guard let key = key ?? catalog.settings.offerSigningKey else {
            throw Failure(
                description:
                    "the catalog has no offerSigningKey to sign promotional offers with; pass --offer-signature made by your server"
            )
        }
        let privateKey: P256.Signing.PrivateKey
        do {
            privateKey = try P256.Signing.PrivateKey(pemRepresentation: key.privateKeyPEM)
        } catch {
            throw Failure(description: "the offers key \(key.keyId) is not a P-256 private key: \(error)")
        }
        let timestamp = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let nonceText = nonce.uuidString.lowercased()
        let text = PaymentDiscount.signedText(
            bundleId: catalog.bundleId, keyIdentifier: key.keyId, productId: productId, offerId: offerId,
            applicationUsername: applicationUsername, nonce: nonceText, timestamp: timestamp)
        let signature = try privateKey.signature(for: Data(text.utf8))
        return PaymentDiscount(
            identifier: offerId, keyIdentifier: key.keyId, nonce: nonceText,
            signature: signature.derRepresentation.base64EncodedString(), timestamp: timestamp)
    }

    /// The offer a payment asks for by its id, as an app sends it: a win-back offer as it is, a
    /// promotional one signed as the app's server signs it, over `applicationUsername`.
    public static func paymentOffer(
        _ offerId: String, productId: String, applicationUsername: String?, catalog: Catalog,
        key: OfferSigningKey? = nil
    ) throws -> PaymentOffer {
        if catalog.product(id: productId)?.subscription?.offer(id: offerId)?.kind == .winBack {
            return .winBack(offerId)
        }
        return .promotional(
            try sign(
                offerId: offerId, productId: productId, applicationUsername: applicationUsername, catalog: catalog,
                key: key))
    }
}
