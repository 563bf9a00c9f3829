import Foundation
import StoreCore
import StoreKitModel
import StoreSQL

/// A new time rate applies at once, as Xcode's does: each subscription period in force keeps the
/// share of it that is left, measured in the new rate, and a 12-month commitment's end follows.
/// Left as it was, a month bought in real time would last a month under a two-second rate, and a
/// commitment's last month would stretch to the end the old rate gave it.
extension SimulatedStore {
    nonisolated func rescalePeriodsInForce(from old: TimeRate, to new: TimeRate, at now: Date, _ db: any SQLDatabase)
        throws
    {
        guard old != new else { return }
        // Periods in force and the copies that mirror them (a restore, a re-download, a plan change).
        let rows = try StoredTransaction.fetchAll(
            db,
            where: """
                state = \(StateSQL.purchased) AND expires_date IS NOT NULL AND expires_date > ? \
                AND revocation_date IS NULL AND upgrade_date IS NULL
                """, [now.timeIntervalSince1970])
        for var row in rows {
            guard let product = catalog.product(id: row.transaction.productId), product.type == .autoRenewable,
                let period = grantedPeriod(of: row, product: product), let expiry = row.expiresDate
            else { continue }
            // Measured from now, so a copy made later than its original ends with it.
            let ratio =
                new.end(of: period, from: now).timeIntervalSince(now)
                / old.end(of: period, from: now).timeIntervalSince(now)
            guard ratio.isFinite, ratio > 0 else { continue }
            let rescaled = now.addingTimeInterval(expiry.timeIntervalSince(now) * ratio)
            row.expiresDate = rescaled
            if let commitment = row.commitment {
                let monthsAfter = commitment.totalBillingPeriods - commitment.billingPeriodNumber
                row.commitment = TransactionCommitment(
                    billingPeriodNumber: commitment.billingPeriodNumber,
                    totalBillingPeriods: commitment.totalBillingPeriods, price: commitment.price,
                    expirationDate: monthsAfter > 0
                        ? new.end(of: CommitmentPlan.billingPeriod, periods: monthsAfter, from: rescaled) : rescaled)
            }
            try row.update(db)
        }
    }

    /// The period `row` was granted: a month on the monthly plan, an offer's period, else the
    /// product's.
    nonisolated func grantedPeriod(of row: StoredTransaction, product: Product) -> SubscriptionPeriod? {
        if row.billingPlan == .monthly { return CommitmentPlan.billingPeriod }
        return row.offer.flatMap { terms(of: $0, product: product, plan: row.billingPlan) }?.period
            ?? product.subscription?.period
    }
}
