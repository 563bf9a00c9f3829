import Foundation
import StoreCore

/// `GET /v1/accounts/{account}/subscription-statuses`: each auto-renewable subscription of the
/// account, signed as Get All Subscription Statuses signs it, for StoreKit 2's
/// `Product.SubscriptionInfo.Status` in an app that reaches the store over HTTP.
public struct SubscriptionStatusesResponse: Codable, Sendable, Hashable {
    public struct Status: Codable, Sendable, Hashable {
        public let subscriptionGroupIdentifier: String
        public let originalTransactionId: String
        /// 1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked.
        public let status: Int
        public let signedTransactionInfo: String
        public let signedRenewalInfo: String

        public init(_ signed: SignedSubscriptionStatus) {
            subscriptionGroupIdentifier = signed.groupId
            originalTransactionId = signed.originalTransactionId
            status = signed.status
            signedTransactionInfo = signed.signedTransactionInfo
            signedRenewalInfo = signed.signedRenewalInfo
        }

        public var signed: SignedSubscriptionStatus {
            SignedSubscriptionStatus(
                groupId: subscriptionGroupIdentifier, originalTransactionId: originalTransactionId, status: status,
                signedTransactionInfo: signedTransactionInfo, signedRenewalInfo: signedRenewalInfo)
        }
    }

    public let statuses: [Status]

    public init(_ statuses: [SignedSubscriptionStatus]) {
        self.statuses = statuses.map(Status.init)
    }
}
