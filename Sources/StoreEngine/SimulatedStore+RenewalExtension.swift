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

    /// Extends the chain's period in force by `days` (scaled by the time rate, as periods are);
    /// nil when no purchase has this original transaction id. A request id sent again gets the
    /// first answer.
    public func extendRenewal(originalTransactionId: String, days: Int, reason: Int, requestIdentifier: String)
        async throws
        -> Result<RenewalExtension, RenewalExtension.Refusal>?
    {
        try await renewDue()
        let now = clock.now()
        return try await database.write { db in
            if let earlier = try SQLRow.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT original_id, transaction_id, new_expires_date FROM renewal_extensions WHERE request_identifier = ?
                        """), arguments: [requestIdentifier])
            {
                guard earlier[0] as String == originalTransactionId else { return .failure(.requestIdentifierReused) }
                return .success(
                    RenewalExtension(
                        originalTransactionId: earlier[0], transactionId: earlier[1],
                        newExpiresDate: Date(timeIntervalSince1970: earlier[2])))
            }
            guard let first = try StoredTransaction.fetch(db, id: originalTransactionId) else { return nil }
            var latest = try self.chainLatest(of: first, db)
            if let refusal = try self.extensionRefusal(latest, at: now, db) { return .failure(refusal) }
            let expires = try self.extend(&latest, days: days, at: now, db)
            try db.cachedStatement(
                sql: """
                    INSERT INTO renewal_extensions (request_identifier, original_id, transaction_id, days, reason, new_expires_date, extended_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """
            ).execute(arguments: [
                requestIdentifier, originalTransactionId, latest.id, days, reason, expires.timeIntervalSince1970,
                now.timeIntervalSince1970,
            ])
            return .success(
                RenewalExtension(
                    originalTransactionId: originalTransactionId, transactionId: latest.id, newExpiresDate: expires))
        }
    }

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
