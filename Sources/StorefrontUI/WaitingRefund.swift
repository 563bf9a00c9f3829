import Foundation
import StoreCore

/// A refund the customer asked for in this session that waits for the App Store's decision: the
/// reason given and when, which the manager and the inspector show until it is decided.
public struct WaitingRefund: Sendable, Hashable {
    public var reason: RefundRequestReason
    public var requestedAt: Date

    public init(reason: RefundRequestReason, requestedAt: Date) {
        self.reason = reason
        self.requestedAt = requestedAt
    }
}
