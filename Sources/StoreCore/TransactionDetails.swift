import Foundation
import StoreKitModel

/// What the store keeps about a transaction beyond StoreKit's `SKPaymentTransaction`: what a
/// signed transaction (JWS) and a verifyReceipt answer report. What was charged, the expiry,
/// the offer and any refund are StoreKit 2's terms, kept once in `terms`.
public struct TransactionDetails: Sendable, Hashable {
    public enum Reason: String, Sendable, Hashable {
        case purchase, renewal, restore
    }

    public let transactionId: String
    public let storefront: String
    public let originalPurchaseDate: Date
    public let willAutoRenew: Bool
    public let reason: Reason
    public private(set) var terms: TransactionTerms
    /// One a server set on the subscription (Set App Account Token); it replaces the app's.
    public let appAccountToken: UUID?

    public init(
        transactionId: String, storefront: String, originalPurchaseDate: Date, willAutoRenew: Bool, reason: Reason,
        terms: TransactionTerms, appAccountToken: UUID? = nil
    ) {
        self.transactionId = transactionId
        self.storefront = storefront
        self.originalPurchaseDate = originalPurchaseDate
        self.willAutoRenew = willAutoRenew
        self.reason = reason
        self.terms = terms
        self.appAccountToken = appAccountToken
    }

    /// The price charged (quantity included); 0 for a restore, a free trial or something owned bought again.
    public var price: Decimal { terms.price }
    public var currency: String { terms.currency }
    public var expiresDate: Date? { terms.expirationDate }
    public var revocationDate: Date? { terms.revocation?.date }
    public var revocationReason: RevocationReason? { terms.revocation?.reason }
    public var offer: TransactionOffer? { terms.offer }
    public var upgrade: Upgrade? { terms.upgrade }
    public var ownership: OwnershipType { terms.ownership }

    /// These details as `terms` say they were when a snapshot was taken (a journaled update read
    /// later): what was charged, the expiry, the offer and any refund are the snapshot's, not
    /// what the transaction became since.
    public func applying(_ terms: TransactionTerms) -> TransactionDetails {
        var details = self
        details.terms = terms
        return details
    }
}
