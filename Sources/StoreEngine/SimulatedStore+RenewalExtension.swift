import Foundation
import GRDB
import LocalState
import ServerRecords
import StoreCore
import StoreKitModel

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
        return try await database.writer.write { db in
            if let earlier = try Row.fetchOne(
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
            let controls = try TestControls.load(db, defaults: self.defaults)
            let expires = controls.timeRate.end(
                of: SubscriptionPeriod(value: days, unit: .day), from: latest.expiresDate ?? now)
            latest.expiresDate = expires
            try latest.update(db)
            try db.cachedStatement(
                sql: """
                    INSERT INTO renewal_extensions (request_identifier, original_id, transaction_id, days, reason, new_expires_date, extended_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """
            ).execute(arguments: [
                requestIdentifier, originalTransactionId, latest.id, days, reason, expires.timeIntervalSince1970,
                now.timeIntervalSince1970,
            ])
            try self.notify(
                NotificationEvent(.renewalExtended), about: latest.id, originalId: latest.transaction.originalId,
                at: now, db)
            return .success(
                RenewalExtension(
                    originalTransactionId: originalTransactionId, transactionId: latest.id, newExpiresDate: expires))
        }
    }

    private nonisolated func extensionRefusal(_ latest: StoredTransaction, at now: Date, _ db: Database) throws
        -> RenewalExtension.Refusal?
    {
        guard catalog.product(id: latest.transaction.productId)?.type == .autoRenewable else {
            return .ineligible("transaction \(latest.transaction.originalId) is not an auto-renewable subscription")
        }
        if latest.ownership == .familyShared { return .familyShared }
        guard latest.revocationDate == nil else { return .ineligible("the subscription was refunded") }
        guard latest.billingRetryUntil == nil else { return .ineligible("the subscription is in billing retry") }
        guard inForce(latest, at: now) else { return .ineligible("the subscription has expired") }
        let yearAgo = now.addingTimeInterval(-365 * 86_400).timeIntervalSince1970
        let recent =
            try Int.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT COUNT(*) FROM renewal_extensions WHERE original_id = ? AND extended_at > ?
                        """), arguments: [latest.transaction.originalId, yearAgo]) ?? 0
        return recent >= Self.extensionsPerYear ? .tooManyExtensions : nil
    }
}
