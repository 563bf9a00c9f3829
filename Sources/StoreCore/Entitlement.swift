import Foundation
import StoreKitModel

/// What an account currently owns beyond consumables, as StoreKit 2's `Transaction.currentEntitlements`
/// reports it: non-consumables, and the latest transaction of each subscription with its expiry.
public struct Entitlement: Sendable, Hashable {
    public let productId: String
    public let type: ProductType
    public let transactionId: String
    public let originalTransactionId: String
    public let purchaseDate: Date
    /// Subscriptions only; under an accelerated time rate this is minutes away, not a month.
    public let expiresDate: Date?
    public let willAutoRenew: Bool
    /// Auto-renewable subscriptions only.
    public let renewal: RenewalInfo?

    public init(
        productId: String, type: ProductType, transactionId: String, originalTransactionId: String,
        purchaseDate: Date, expiresDate: Date?, willAutoRenew: Bool, renewal: RenewalInfo? = nil
    ) {
        self.productId = productId
        self.type = type
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.purchaseDate = purchaseDate
        self.expiresDate = expiresDate
        self.willAutoRenew = willAutoRenew
        self.renewal = renewal
    }

    /// In force: not expired, or in its billing grace period.
    public func isActive(at now: Date) -> Bool {
        guard let expiresDate, expiresDate <= now else { return true }
        return renewal?.gracePeriodExpirationDate.map { $0 > now } ?? false
    }
}

/// StoreKit 2's renewal info of an auto-renewable subscription (`Product.SubscriptionInfo.RenewalInfo`).
public struct RenewalInfo: Sendable, Hashable {
    public var willAutoRenew: Bool
    /// What the subscription renews to: itself, or the plan a downgrade or crossgrade chose.
    public var autoRenewProductId: String
    /// Set once it has stopped renewing.
    public var expirationReason: ExpirationReason?
    /// A renewal failed to bill and the App Store is still trying (access lost unless in grace).
    public var isInBillingRetry: Bool
    /// Access continues until then while the billing issue is open.
    public var gracePeriodExpirationDate: Date?
    /// Nil without a price increase.
    public var priceIncreaseStatus: PriceIncreaseStatus?
    /// What the next renewal charges when a price increase set it; nil: the catalog's price.
    public var renewalPrice: Decimal?
    /// How the next payment is billed (`renewalBillingPlanType`).
    public var renewalBillingPlan: BillingPlanType
    /// While a 12-month commitment runs: what becomes of it at its end. Nil when paid up front.
    public var commitment: RenewalCommitment?
    /// An offer taken on the plan in force, which the next renewal (or the commitment's end) takes.
    public var renewalOffer: TransactionOffer?

    public init(
        willAutoRenew: Bool, autoRenewProductId: String, expirationReason: ExpirationReason? = nil,
        isInBillingRetry: Bool = false,
        gracePeriodExpirationDate: Date? = nil, priceIncreaseStatus: PriceIncreaseStatus? = nil,
        renewalPrice: Decimal? = nil, renewalBillingPlan: BillingPlanType = .upFront,
        commitment: RenewalCommitment? = nil, renewalOffer: TransactionOffer? = nil
    ) {
        self.renewalOffer = renewalOffer
        self.renewalBillingPlan = renewalBillingPlan
        self.commitment = commitment
        self.renewalPrice = renewalPrice
        self.willAutoRenew = willAutoRenew
        self.autoRenewProductId = autoRenewProductId
        self.expirationReason = expirationReason
        self.isInBillingRetry = isInBillingRetry
        self.gracePeriodExpirationDate = gracePeriodExpirationDate
        self.priceIncreaseStatus = priceIncreaseStatus
    }
}

/// What becomes of a 12-month commitment at its end (StoreKit's `RenewalInfo.CommitmentInfo`,
/// the App Store Server API's `RenewalCommitmentInfo`). The subscription's own `willAutoRenew`
/// says whether the next monthly payment is made; this says whether a new commitment follows.
public struct RenewalCommitment: Sendable, Hashable {
    /// Whether the subscription renews when the commitment ends; turning auto-renew off
    /// mid-commitment clears this and nothing else.
    public var willAutoRenew: Bool
    /// The product it renews to then.
    public var autoRenewProductId: String
    /// The plan it renews on then.
    public var renewalBillingPlan: BillingPlanType
    /// What one payment of that plan costs (a month's on the monthly plan, the year's up front).
    public var renewalPrice: Decimal?
    /// When the commitment ends and the renewal is due.
    public var renewalDate: Date

    public init(
        willAutoRenew: Bool, autoRenewProductId: String, renewalBillingPlan: BillingPlanType, renewalPrice: Decimal?,
        renewalDate: Date
    ) {
        self.willAutoRenew = willAutoRenew
        self.autoRenewProductId = autoRenewProductId
        self.renewalBillingPlan = renewalBillingPlan
        self.renewalPrice = renewalPrice
        self.renewalDate = renewalDate
    }
}
