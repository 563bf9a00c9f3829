import Foundation
import StoreCore
import StoreKitModel

/// A monthly payment's place in its 12-month commitment, in `transactions --json` and `wallet
/// --json` (`Transaction.CommitmentInfo`, the App Store Server API's `TransactionCommitmentInfo`).
struct CommitmentJSON: Encodable {
    let billingPeriodNumber: Int
    let totalBillingPeriods: Int
    /// What the whole commitment costs, an exact decimal.
    let commitmentPrice: String
    let commitmentExpiresDate: String
    /// "payment 4 of 12".
    let progress: String

    init(_ commitment: TransactionCommitment) {
        billingPeriodNumber = commitment.billingPeriodNumber
        totalBillingPeriods = commitment.totalBillingPeriods
        commitmentPrice = commitment.price.exactString
        commitmentExpiresDate = commitment.expirationDate.formatted(.iso8601)
        progress = commitment.progress
    }
}

/// What becomes of a commitment at its end (`RenewalInfo.CommitmentInfo`).
struct RenewalCommitmentJSON: Encodable {
    /// Whether a new commitment follows; false once auto-renew was turned off mid-commitment.
    let willAutoRenew: Bool
    let autoRenewProductId: String
    /// `upFront` or `monthly`.
    let renewalBillingPlanType: String
    /// One payment of that plan, an exact decimal.
    let renewalPrice: String?
    let renewalDate: String

    init(_ commitment: RenewalCommitment) {
        willAutoRenew = commitment.willAutoRenew
        autoRenewProductId = commitment.autoRenewProductId
        renewalBillingPlanType = commitment.renewalBillingPlan.rawValue
        renewalPrice = commitment.renewalPrice?.exactString
        renewalDate = commitment.renewalDate.formatted(.iso8601)
    }
}
