import Foundation
import StoreKitModel

/// StoreKit 1's `SKPaymentTransactionState`, which StoreKitTest's transactions report.
public enum SKPaymentTransactionState: Int, Sendable, Hashable {
    case purchasing = 0
    case purchased = 1
    case failed = 2
    case restored = 3
    case deferred = 4
}

/// StoreKit 1's `SKError`, whose codes `SKTestSession.failureError` takes: the store's own
/// `SKErrorCode`, which has Apple's cases and raw values.
public struct SKError: Error, Sendable, Hashable {
    public typealias Code = SKErrorCode

    public let code: Code

    public init(_ code: Code) {
        self.code = code
    }
}
