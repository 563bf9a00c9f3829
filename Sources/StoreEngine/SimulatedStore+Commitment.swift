import Foundation
import StoreCore
import StoreKitModel
import StoreSQL

/// Monthly plans with a 12-month commitment: each payment is a period of its own in the
/// subscription, numbered 1 to 12 within its commitment; the commitment's end is when a
/// downgrade, a plan switch or a price increase takes effect, and when a cancelled one stops.
extension SimulatedStore {
    /// Whether `latest` is a monthly payment with more of its commitment to bill.
    nonisolated static func inCommitment(_ latest: StoredTransaction) -> Bool {
        guard latest.billingPlan == .monthly, let commitment = latest.commitment else { return false }
        return commitment.billingPeriodNumber < commitment.totalBillingPeriods
    }

    /// The plan the next payment after `latest` is billed on.
    nonisolated static func nextBillingPlan(after latest: StoredTransaction) -> BillingPlanType {
        inCommitment(latest) ? .monthly : latest.renewalPlan ?? latest.billingPlan ?? .upFront
    }

    /// Sets `stored`, the first payment of a new commitment starting at `start`, on the monthly
    /// plan: its first month, and the twelve months the customer commits to.
    nonisolated func startCommitment(
        _ stored: inout StoredTransaction, total: Decimal, start: Date, controls: TestControls
    ) {
        stored.billingPlan = .monthly
        stored.commitment = TransactionCommitment(
            billingPeriodNumber: 1, totalBillingPeriods: CommitmentPlan.totalBillingPeriods, price: total,
            expirationDate: controls.timeRate.end(
                of: CommitmentPlan.billingPeriod, periods: CommitmentPlan.totalBillingPeriods, from: start))
        stored.commitmentAutoRenew = true
        stored.expiresDate = controls.timeRate.end(of: CommitmentPlan.billingPeriod, from: start)
    }

    /// The next payment of `previous`'s commitment, starting at `start`: one more month, the
    /// commitment's terms kept, its end moved by any time billing retry took (`start` after
    /// `previous`'s expiry; a forced renewal moved it earlier already), and the last month ending with the commitment. What waits for the
    /// commitment's end (a plan change, a price increase, an offer) waits on.
    nonisolated func continueCommitment(
        _ renewal: inout StoredTransaction, after previous: StoredTransaction, start: Date, controls: TestControls
    ) {
        guard let current = previous.commitment else { return }
        let delay = start.timeIntervalSince(previous.expiresDate ?? start)
        let number = current.billingPeriodNumber + 1
        let end = current.expirationDate.addingTimeInterval(delay)
        renewal.billingPlan = .monthly
        renewal.commitment = TransactionCommitment(
            billingPeriodNumber: number, totalBillingPeriods: current.totalBillingPeriods, price: current.price,
            expirationDate: end)
        renewal.commitmentAutoRenew = previous.commitmentAutoRenew
        renewal.expiresDate =
            number == current.totalBillingPeriods
            ? end : controls.timeRate.end(of: CommitmentPlan.billingPeriod, from: start)
        renewal.renewalProductId = previous.renewalProductId
        renewal.renewalPlan = previous.renewalPlan
        renewal.renewalOffer = previous.renewalOffer
        renewal.renewalPrice = previous.renewalPrice
        renewal.priceIncrease = previous.priceIncrease
        // The last payment is billed with the customer's choice for what follows it.
        renewal.autoRenew = number < current.totalBillingPeriods || previous.commitmentAutoRenew != false
    }

    /// The renewal info's account of the commitment `latest` is in; nil when paid up front.
    nonisolated func renewalCommitment(_ latest: StoredTransaction) -> RenewalCommitment? {
        guard latest.billingPlan == .monthly, let commitment = latest.commitment else { return nil }
        let productId = latest.renewalProductId ?? latest.transaction.productId
        let plan = latest.renewalPlan ?? .monthly
        let price =
            latest.increasedPrice(renewingTo: productId)
            ?? catalog.product(id: productId)?.billingPrice(plan, in: latest.storefront)
        return RenewalCommitment(
            willAutoRenew: latest.commitmentAutoRenew ?? latest.autoRenew, autoRenewProductId: productId,
            renewalBillingPlan: plan, renewalPrice: price, renewalDate: commitment.expirationDate)
    }
}

extension StoredTransaction {
    /// Moves the end of the commitment this payment is in (a forced renewal ended the month early).
    mutating func shiftCommitment(by interval: TimeInterval) {
        guard let current = commitment else { return }
        commitment = TransactionCommitment(
            billingPeriodNumber: current.billingPeriodNumber, totalBillingPeriods: current.totalBillingPeriods,
            price: current.price, expirationDate: current.expirationDate.addingTimeInterval(interval))
    }
}

extension TransactionCommitment {
    /// As a row keeps it; nil without one.
    init?(period: Int?, price: String?, expires: Double?) {
        guard let period, let price = price.flatMap({ Decimal(string: $0) }), let expires else { return nil }
        self.init(
            billingPeriodNumber: period, totalBillingPeriods: CommitmentPlan.totalBillingPeriods, price: price,
            expirationDate: Date(timeIntervalSince1970: expires))
    }
}
