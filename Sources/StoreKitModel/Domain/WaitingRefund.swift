import Foundation

/// A refund the customer asked for that waits for the App Store's decision: the reason given and
/// when. The store reports it on the transaction (`Transaction.refundRequest`) wherever the request
/// was made, so the manager and the inspector show it until it is decided.
public struct WaitingRefund: Sendable, Hashable {
    public var reason: RefundRequestReason
    public var requestedAt: Date

    public init(reason: RefundRequestReason, requestedAt: Date) {
        self.reason = reason
        self.requestedAt = requestedAt
    }
}
