import Foundation
import LocalState
import ServerRecords
import StoreCore
import StoreKitModel
import StoreSQL

/// Extend a Subscription Renewal Date, as the App Store does it: the period in force runs
/// longer at no charge, at most twice a year per subscription, and a request id is applied once.
extension SimulatedStore {
    /// How many extensions a subscription may have within any 365 days.
    static let extensionsPerYear = 2

    /// Moves the period in force of `latest`'s chain `days` later (scaled by the time rate, as
    /// periods are), and the end of a commitment it is in with it, and tells servers RENEWAL_EXTENDED, in the caller's commit; the new end.
    nonisolated func extend(_ latest: inout StoredTransaction, days: Int, at now: Date, _ db: any SQLDatabase) throws
        -> Date
    {
        let controls = try TestControls.load(db, defaults: defaults)
        let expires = controls.timeRate.end(
            of: SubscriptionPeriod(value: days, unit: .day), from: latest.expiresDate ?? now)
        // Free days in a commitment move its end too: the payments left are still twelve's.
        latest.shiftCommitment(by: expires.timeIntervalSince(latest.expiresDate ?? now))
        latest.expiresDate = expires
        try latest.update(db)
        try notify(
            NotificationEvent(.renewalExtended), about: latest.id, originalId: latest.transaction.originalId, at: now,
            db)
        return expires
    }

    /// Why the App Store would not extend `latest`'s chain now; nil when it would. The one rule
    /// of both extension routes.
    nonisolated func extensionRefusal(_ latest: StoredTransaction, at now: Date, _ db: any SQLDatabase) throws
        -> RenewalExtension.Refusal?
    {
        guard catalog.product(id: latest.transaction.productId)?.type == .autoRenewable else {
            return .ineligible("transaction \(latest.transaction.originalId) is not an auto-renewable subscription")
        }
        if latest.ownership == .familyShared { return .familyShared }
        if latest.ownership == .assigned { return .assigned }
        guard latest.revocationDate == nil else { return .ineligible("the subscription was refunded") }
        guard latest.billingRetryUntil == nil else { return .ineligible("the subscription is in billing retry") }
        guard inForce(latest, at: now) else { return .ineligible("the subscription has expired") }
        let recent = try extensionCount(
            originalId: latest.transaction.originalId, since: now.addingTimeInterval(-365 * 86_400), db)
        return recent >= Self.extensionsPerYear ? .tooManyExtensions : nil
    }

    /// The chain's extensions since `date`, one by one and as part of mass extensions.
    private nonisolated func extensionCount(originalId: String, since date: Date, _ db: any SQLDatabase) throws -> Int {
        try Int.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT (SELECT COUNT(*) FROM renewal_extensions WHERE original_id = ?1 AND extended_at > ?2)
                        + (SELECT COUNT(*) FROM mass_extension_items WHERE original_id = ?1 AND extended_at > ?2
                            AND outcome = '\(MassExtensionOutcome.succeeded.rawValue)')
                    """), arguments: [originalId, date.timeIntervalSince1970]) ?? 0
    }
}
