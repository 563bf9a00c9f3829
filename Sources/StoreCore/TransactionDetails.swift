import Foundation
import StoreKitModel

/// What the store keeps about a transaction beyond StoreKit's `SKPaymentTransaction`: what a
/// signed transaction (JWS) and a verifyReceipt answer report.
public struct TransactionDetails: Sendable, Hashable {
    public enum Reason: String, Sendable, Hashable {
        case purchase, renewal, restore
    }

    public let transactionId: String
    public let storefront: String
    /// The price charged (quantity included); 0 for a restore, a free trial or something owned bought again.
    public let price: Decimal
    public let currency: String
    public let originalPurchaseDate: Date
    public let expiresDate: Date?
    public let revocationDate: Date?
    public let willAutoRenew: Bool
    public let reason: Reason
    public let offer: TransactionOffer?
    public let revocationReason: RevocationReason?

    public init(transactionId: String, storefront: String, price: Decimal, currency: String, originalPurchaseDate: Date,
                expiresDate: Date?, revocationDate: Date?, willAutoRenew: Bool, reason: Reason,
                offer: TransactionOffer? = nil, revocationReason: RevocationReason? = nil) {
        self.transactionId = transactionId
        self.storefront = storefront
        self.price = price
        self.currency = currency
        self.originalPurchaseDate = originalPurchaseDate
        self.expiresDate = expiresDate
        self.revocationDate = revocationDate
        self.willAutoRenew = willAutoRenew
        self.reason = reason
        self.offer = offer
        self.revocationReason = revocationReason
    }

    /// These details as `terms` say they were when a snapshot was taken (a journaled update read
    /// later): what was charged, the expiry, the offer and any refund are the snapshot's, not
    /// what the transaction became since.
    public func applying(_ terms: TransactionTerms) -> TransactionDetails {
        TransactionDetails(transactionId: transactionId, storefront: storefront, price: terms.price, currency: terms.currency,
                           originalPurchaseDate: originalPurchaseDate, expiresDate: terms.expirationDate,
                           revocationDate: terms.revocation?.date, willAutoRenew: willAutoRenew, reason: reason, offer: terms.offer,
                           revocationReason: terms.revocation?.reason)
    }
}
