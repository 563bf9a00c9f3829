import Foundation
import StoreKitModel

/// One step the app took for a transaction, for the UI and the headless commands to show.
public enum AppStep: Sendable, Hashable {
    case delivered(transactionId: String, firstTime: Bool)
    /// `applicationUsername` came back empty and the order was found by account and product.
    case orderMatched(transactionId: String, orderId: String)
    case verified(transactionId: String)
    case verificationRejected(transactionId: String, reason: String)
    case verificationDeferred(transactionId: String, reason: String, nextAttempt: Date?)
    /// Another device of the account had the transaction verified first: this device's provisional
    /// delivery was taken back (the other device's stands), and the transaction finished.
    case deliveredElsewhere(transactionId: String)
    case finished(transactionId: String)
    case waitingForApproval(transactionId: String)
    /// The App Store refunded the transaction: the app withdrew what it granted, and `amount` of
    /// `balance` when it was a consumable's credit.
    case revoked(transactionId: String, balance: String?, amount: Int)
    /// The App Store reversed a refund the app had acted on: what it withdrew is back, and
    /// `amount` of `balance` when it was a consumable's credit.
    case reinstated(transactionId: String, balance: String?, amount: Int)
    case showError(transactionId: String, error: StoreError)
}
