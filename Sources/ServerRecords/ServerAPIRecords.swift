import Foundation
import StoreCore
import StoreKitModel

/// A transaction as the App Store's servers report it: StoreKit's transaction with its terms,
/// the details a signed transaction carries, and the app account token a server set on its chain.
public struct ServerTransaction: Sendable, Hashable {
    public let transaction: Transaction
    public let details: TransactionDetails
    /// Set through the App Store Server API (Set App Account Token); it replaces the one the app
    /// sent with the payment.
    public let appAccountToken: UUID?

    public init(transaction: Transaction, details: TransactionDetails, appAccountToken: UUID?) {
        self.transaction = transaction
        self.details = details
        self.appAccountToken = appAccountToken
    }

    /// When the signed facts last changed (the purchase, a refund, an upgrade, a refund reversed): Apple's "recently
    /// modified date", by which history is sorted, and the `signedDate` of its JWS.
    public var modifiedDate: Date { transaction.modifiedDate(details) }
}

extension Transaction {
    /// When the signed facts last changed: the purchase, a refund, an upgrade, a refund reversed.
    public func modifiedDate(_ details: TransactionDetails?) -> Date {
        [purchaseDate, details?.revocationDate, details?.upgrade?.date, details?.terms.refundReversalDate]
            .compactMap { $0 }.max() ?? purchaseDate
    }
}

/// Which transactions Get Transaction History returns; every filter given must match.
public struct HistoryFilter: Sendable, Hashable {
    /// Nil: every product. Product ids, product types and subscription groups all narrow this set.
    public var productIds: Set<String>?
    public var startDate: Date?
    public var endDate: Date?
    /// True: only refunded or revoked; false: only the others; nil: both.
    public var revoked: Bool?
    /// Only the account's own purchases, or only what its family shared with it; nil: both.
    public var ownership: OwnershipType?
    public var descending: Bool
    /// Version 1 leaves out consumables the app finished (unless refunded).
    public var excludesFinishedConsumables: Bool

    public init(
        productIds: Set<String>? = nil, startDate: Date? = nil, endDate: Date? = nil, revoked: Bool? = nil,
        ownership: OwnershipType? = nil, descending: Bool = false, excludesFinishedConsumables: Bool = false
    ) {
        self.productIds = productIds
        self.startDate = startDate
        self.endDate = endDate
        self.revoked = revoked
        self.ownership = ownership
        self.descending = descending
        self.excludesFinishedConsumables = excludesFinishedConsumables
    }
}

/// Where a page of history ended: the last transaction's modified date and its place in the store.
public struct HistoryPosition: Sendable, Hashable {
    public let modified: Double
    public let sequence: Int64

    public init(modified: Double, sequence: Int64) {
        self.modified = modified
        self.sequence = sequence
    }
}

public struct HistoryPage: Sendable, Hashable {
    public let transactions: [ServerTransaction]
    /// Where the next page starts; nil when this page is empty (the request's own position stands).
    public let last: HistoryPosition?
    public let hasMore: Bool

    public init(transactions: [ServerTransaction], last: HistoryPosition?, hasMore: Bool) {
        self.transactions = transactions
        self.last = last
        self.hasMore = hasMore
    }
}

/// The App Store Server API's subscription status values.
public enum SubscriptionStatusCode: Int, Sendable, Hashable, CaseIterable {
    case active = 1
    case expired, billingRetry, gracePeriod, revoked
}

/// One subscription chain's status, as Get All Subscription Statuses and notifications report it.
public struct SubscriptionStatus: Sendable, Hashable {
    public let groupId: String
    public let originalTransactionId: String
    public let status: SubscriptionStatusCode
    /// The chain's latest transaction.
    public let latest: ServerTransaction
    public let renewal: RenewalInfo
    /// When the chain's current run of periods without a gap began.
    public let recentStartDate: Date
    /// What the next renewal charges, or would were auto-renew on, in the storefront's currency:
    /// Apple reports it for an expired subscription and one that will not renew too.
    public let renewalPrice: Decimal?
    /// The offer the next renewal takes, if any.
    public let renewalOffer: TransactionOffer?
    /// The win-back offers of the group the customer may take now, in the catalog's order; nil
    /// while none is eligible (a subscription in force, or none offered).
    public let eligibleWinBackOfferIds: [String]?

    public init(
        groupId: String, originalTransactionId: String, status: SubscriptionStatusCode, latest: ServerTransaction,
        renewal: RenewalInfo, recentStartDate: Date, renewalPrice: Decimal?, renewalOffer: TransactionOffer?,
        eligibleWinBackOfferIds: [String]? = nil
    ) {
        self.eligibleWinBackOfferIds = eligibleWinBackOfferIds
        self.groupId = groupId
        self.originalTransactionId = originalTransactionId
        self.status = status
        self.latest = latest
        self.renewal = renewal
        self.recentStartDate = recentStartDate
        self.renewalPrice = renewalPrice
        self.renewalOffer = renewalOffer
    }
}

/// An extension Extend a Subscription Renewal Date made (a refusal is a `Refusal`).
public struct RenewalExtension: Sendable, Hashable {
    public enum Refusal: Error, Sendable, Hashable {
        /// Not an auto-renewable subscription, or not in force (expired, refunded, in billing retry).
        case ineligible(String)
        /// Extended as often as a year allows already.
        case tooManyExtensions
        /// The request id was used for another subscription.
        case requestIdentifierReused
        /// A family member's copy of a shared subscription: only the purchaser's extends.
        case familyShared
        /// A subscription an organization or group assigned to the account: it renews on the
        /// purchaser's schedule, so only the purchaser's extends.
        case assigned
    }

    public let originalTransactionId: String
    /// The transaction whose period was extended.
    public let transactionId: String
    public let newExpiresDate: Date

    public init(originalTransactionId: String, transactionId: String, newExpiresDate: Date) {
        self.originalTransactionId = originalTransactionId
        self.transactionId = transactionId
        self.newExpiresDate = newExpiresDate
    }
}
