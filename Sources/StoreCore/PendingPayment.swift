import Foundation
import StoreKitModel

/// A payment the user may believe failed but which is still in flight: the data behind the
/// "do not pay again" banner and the warning before a second purchase of the same product.
public struct PendingPayment: Sendable, Hashable {
    public enum Reason: Sendable, Hashable {
        /// Ask to Buy: deferred until a parent approves or declines.
        case awaitingApproval
        /// Paid and delivered; the app's server has not confirmed the receipt yet.
        case awaitingVerification(attempts: Int, lastError: String?, nextAttempt: Date?)
        /// In the queue, not yet handled by the app (left by an earlier run, or just arrived).
        case unfinished
    }

    public let transactionId: String
    public let productId: String
    public let quantity: Int
    public let state: TransactionState
    public let since: Date
    public let reason: Reason

    public init(
        transactionId: String, productId: String, quantity: Int, state: TransactionState, since: Date, reason: Reason
    ) {
        self.transactionId = transactionId
        self.productId = productId
        self.quantity = quantity
        self.state = state
        self.since = since
        self.reason = reason
    }

    /// What the app is waiting for, in words for the pending-payments view.
    public var waitingFor: String {
        switch reason {
        case .awaitingApproval:
            "waiting for a parent to approve (Ask to Buy); not charged"
        case .awaitingVerification(let attempts, let lastError, _):
            "paid and delivered; waiting for the server to confirm the receipt"
                + (attempts > 0
                    ? " (\(attempts) attempt\(attempts == 1 ? "" : "s")\(lastError.map { ": \($0)" } ?? ""))" : "")
        case .unfinished:
            "paid; the app has not finished it yet, so it will be delivered and confirmed"
        }
    }

    /// Pending payments that should make the user think twice before buying `productId` again.
    public static func blocking(_ productId: String, in pending: [PendingPayment]) -> [PendingPayment] {
        pending.filter { $0.productId == productId }
    }
}
