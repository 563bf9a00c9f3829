import Foundation
import StoreCore
import StoreKitModel

extension Product.SubscriptionInfo {
    /// StoreKit 2's `Product.SubscriptionInfo.RenewalState`, with the App Store's numbers.
    public struct RenewalState: RawRepresentable, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Entitled to service.
        public static let subscribed = RenewalState(rawValue: 1)
        public static let expired = RenewalState(rawValue: 2)
        /// A renewal failed to bill and the App Store still tries; no service.
        public static let inBillingRetryPeriod = RenewalState(rawValue: 3)
        /// A renewal failed to bill, and service continues until the grace period ends.
        public static let inGracePeriod = RenewalState(rawValue: 4)
        /// Refunded, or a family member's access stopped.
        public static let revoked = RenewalState(rawValue: 5)
    }

    /// StoreKit 2's `Product.SubscriptionInfo.Status`: one subscription chain's state, its
    /// latest transaction and its renewal info, both signed by the store.
    public struct Status: Hashable, Sendable {
        public let state: RenewalState
        public let transaction: VerificationResult<Transaction>
        public let renewalInfo: VerificationResult<RenewalInfo>
        let groupID: String
    }

    /// The account's subscriptions in this product's group: empty if it never subscribed, more
    /// than one when a family member shares one too.
    public var status: [Status] {
        get async throws { try await Self.status(for: subscriptionGroupID) }
    }

    /// The account's subscriptions in the group.
    public static func status(for groupID: String) async throws -> [Status] {
        let store = try await StoreKitCall.store()
        return try await SubscriptionStatuses.read(store, groupID: groupID)
    }
}

extension Transaction {
    /// The status of the subscription this transaction belongs to; nil for any other product.
    public var subscriptionStatus: Product.SubscriptionInfo.Status? {
        get async {
            guard productType == .autoRenewable, let subscriptionGroupID,
                let statuses = try? await Product.SubscriptionInfo.status(for: subscriptionGroupID)
            else { return nil }
            return statuses.first { $0.renewalInfo.unsafePayloadValue.originalTransactionID == originalID }
        }
    }
}

/// The account's subscription statuses from the store's signed ones.
enum SubscriptionStatuses {
    /// `groupID`: one group's, or every group's. `simulating`: a simulated error for the
    /// subscription-status call fails the read, as the app's own call fails.
    static func read(_ store: OpenedStore, groupID: String?, simulating: Bool = true) async throws
        -> [Product.SubscriptionInfo.Status]
    {
        let controls = try await StoreKitCall.run { try await store.backend.controls() }
        if simulating, let error = controls.apiErrors[.subscriptionStatus] { throw StoreKitErrors.mapped(error) }
        let signed = try await StoreKitCall.run {
            try await store.backend.signedSubscriptionStatuses(account: store.account.name)
        }
        let failing = TransactionSigning.failsVerification(controls)
        return signed.filter { groupID == nil || $0.groupId == groupID }.compactMap {
            status($0, store: store, forcedFailure: failing)
        }
    }

    static func status(_ signed: SignedSubscriptionStatus, store: OpenedStore, forcedFailure: Bool)
        -> Product.SubscriptionInfo.Status?
    {
        guard
            let transaction = SignedValue.verified(
                signed.signedTransactionInfo, store: store, forcedFailure: forcedFailure, decode: Transaction.init),
            let renewal = SignedValue.verified(
                signed.signedRenewalInfo, store: store, forcedFailure: forcedFailure,
                decode: Product.SubscriptionInfo.RenewalInfo.init)
        else { return nil }
        return Product.SubscriptionInfo.Status(
            state: Product.SubscriptionInfo.RenewalState(rawValue: signed.status), transaction: transaction,
            renewalInfo: renewal, groupID: signed.groupId)
    }
}
