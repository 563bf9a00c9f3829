import Foundation

/// One subscription chain's status as StoreKit 2's `Product.SubscriptionInfo.Status` is made from
/// it: the App Store Server API's status number, the latest transaction's JWS and the renewal
/// info's JWS, each signed by the store.
public struct SignedSubscriptionStatus: Sendable, Hashable {
    public let groupId: String
    public let originalTransactionId: String
    /// Apple's numbers: 1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked.
    public let status: Int
    public let signedTransactionInfo: String
    public let signedRenewalInfo: String

    public init(
        groupId: String, originalTransactionId: String, status: Int, signedTransactionInfo: String,
        signedRenewalInfo: String
    ) {
        self.groupId = groupId
        self.originalTransactionId = originalTransactionId
        self.status = status
        self.signedTransactionInfo = signedTransactionInfo
        self.signedRenewalInfo = signedRenewalInfo
    }
}
