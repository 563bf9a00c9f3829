import Foundation
import StoreKitModel

/// What an account currently owns beyond consumables, as StoreKit 2's `Transaction.currentEntitlements`
/// reports it: non-consumables, and the latest transaction of each subscription with its expiry.
public struct Entitlement: Sendable, Hashable {
    public let productId: String
    public let type: ProductType
    public let transactionId: String
    public let originalTransactionId: String
    public let purchaseDate: Date
    /// Subscriptions only; under an accelerated time rate this is minutes away, not a month.
    public let expiresDate: Date?
    public let willAutoRenew: Bool

    public init(productId: String, type: ProductType, transactionId: String, originalTransactionId: String,
                purchaseDate: Date, expiresDate: Date?, willAutoRenew: Bool) {
        self.productId = productId
        self.type = type
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.purchaseDate = purchaseDate
        self.expiresDate = expiresDate
        self.willAutoRenew = willAutoRenew
    }

    public func isActive(at now: Date) -> Bool {
        expiresDate.map { $0 > now } ?? true
    }
}
