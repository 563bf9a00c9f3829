import Foundation

/// Why StoreKit shows a message over the app about a subscription (`Message.Reason`).
public enum StoreMessageReason: Sendable, Hashable {
    /// A price increase waits for the subscriber's consent.
    case priceIncreaseConsent
    /// A renewal could not bill: the subscriber updates the payment method.
    case billingIssue
}

extension Entitlement {
    /// The message this subscription calls for, if any: a billing issue comes before a price
    /// increase, and a subscription that will not renew asks no consent.
    public var messageReason: StoreMessageReason? {
        guard let renewal else { return nil }
        if renewal.isInBillingRetry { return .billingIssue }
        if renewal.priceIncreaseStatus == .pending, renewal.willAutoRenew { return .priceIncreaseConsent }
        return nil
    }
}
