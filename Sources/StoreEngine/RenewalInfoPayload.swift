import Foundation
import ServerRecords
import StoreCore
import StoreKitModel

/// `JWSRenewalInfoDecodedPayload`: a subscription chain's renewal info, as the App Store Server
/// API and notifications sign it. Dates in epoch milliseconds, the price in milliunits.
public struct SignedRenewalInfoPayload: Codable, Sendable, Hashable {
    public let originalTransactionId: String
    public let productId: String
    public let autoRenewProductId: String
    /// 0 off, 1 on.
    public let autoRenewStatus: Int
    /// 1 cancelled, 2 billing error, 3 no consent to a price increase, 4 product unavailable, 5 other.
    public let expirationIntent: Int?
    public let isInBillingRetryPeriod: Bool
    public let gracePeriodExpiresDate: Int64?
    /// 0 pending consent, 1 agreed.
    public let priceIncreaseStatus: Int?
    public let offerType: ServerOfferType?
    public let offerIdentifier: String?
    public let offerDiscountType: String?
    public let offerPeriod: String?
    public let signedDate: Int64
    public let environment: StoreEnvironment
    public let recentSubscriptionStartDate: Int64
    /// The latest period's expiry: when the next period starts, or started had it renewed.
    /// Apple sends it for every auto-renewable subscription, expired or not.
    public let renewalDate: Int64?
    public let currency: String
    public let renewalPrice: Int64?
    public let appAccountToken: String?
    public let appTransactionId: String
    /// The win-back offers the customer may redeem now; absent while there is none.
    public let eligibleWinBackOfferIds: [String]?
    /// `BILLED_UPFRONT` or `MONTHLY`: how the next payment is billed.
    public let renewalBillingPlanType: String
    /// While a 12-month commitment runs: whether a new one follows its end, and on what terms.
    public let commitmentInfo: SignedRenewalCommitmentInfo?

    package init(_ status: SubscriptionStatus, catalog: Catalog, environment: StoreEnvironment, signedAt: Date) {
        let latest = status.latest
        let renewal = status.renewal
        originalTransactionId = status.originalTransactionId
        productId = latest.transaction.productId
        autoRenewProductId = renewal.autoRenewProductId
        autoRenewStatus = renewal.willAutoRenew ? 1 : 0
        // Apple gives why a subscription expired once it has (or while billing is retried), not
        // while a declined price increase or a cancellation waits for the period's end.
        expirationIntent = status.status == .active ? nil : renewal.expirationReason?.rawValue
        isInBillingRetryPeriod = renewal.isInBillingRetry
        gracePeriodExpiresDate = renewal.gracePeriodExpirationDate?.epochMilliseconds
        priceIncreaseStatus = renewal.priceIncreaseStatus?.rawValue
        offerType = status.renewalOffer.map { ServerOfferType($0.type) }
        offerIdentifier = status.renewalOffer?.id
        offerDiscountType = status.renewalOffer.map { TransactionSigner.discountType($0.paymentMode) }
        offerPeriod = status.renewalOffer?.period?.iso8601
        signedDate = signedAt.epochMilliseconds
        self.environment = environment
        recentSubscriptionStartDate = status.recentStartDate.epochMilliseconds
        renewalDate = latest.details.expiresDate?.epochMilliseconds
        currency = latest.details.currency
        renewalPrice = status.renewalPrice.map(TransactionSigner.milliunits)
        appAccountToken = TransactionSigner.accountToken(of: latest.transaction, set: latest.appAccountToken)
        appTransactionId = SimulatedStore.appTransactionId(
            bundleId: catalog.bundleId, account: latest.transaction.payment.account)
        eligibleWinBackOfferIds = status.eligibleWinBackOfferIds
        renewalBillingPlanType = renewal.renewalBillingPlan.serverName
        commitmentInfo = renewal.commitment.map(SignedRenewalCommitmentInfo.init)
    }
}

/// Apple's `RenewalCommitmentInfo`. `commitmentAutoRenewStatus` is the customer's choice for the
/// next commitment: turning auto-renew off mid-commitment sets it to 0 while the top-level
/// `autoRenewStatus` stays 1, since the months left are still billed. The price is one payment's,
/// in milliunits.
public struct SignedRenewalCommitmentInfo: Codable, Sendable, Hashable {
    /// 0 off, 1 on.
    public let commitmentAutoRenewStatus: Int
    public let commitmentAutoRenewProductId: String
    public let commitmentRenewalBillingPlanType: String
    public let commitmentRenewalDate: Int64
    public let commitmentRenewalPrice: Int64?

    package init(_ commitment: RenewalCommitment) {
        commitmentAutoRenewStatus = commitment.willAutoRenew ? 1 : 0
        commitmentAutoRenewProductId = commitment.autoRenewProductId
        commitmentRenewalBillingPlanType = commitment.renewalBillingPlan.serverName
        commitmentRenewalDate = commitment.renewalDate.epochMilliseconds
        commitmentRenewalPrice = commitment.renewalPrice.map(TransactionSigner.milliunits)
    }
}
