import Foundation
import LocalState
import ServerRecords
import StoreCore
import StoreKitModel
import StoreSQL

/// Server notifications are written to the outbox in the commit of the change they tell of, so a
/// process killed at any moment has either both or neither, and the deliverer sends what the
/// outbox holds after a restart.
extension SimulatedStore {
    /// Writes `event` about `transactionId` (nil for `TEST` and a mass extension's summary) to
    /// the outbox, due now at every URL set. `dedupe` names an event a sweep found, so a second
    /// sweep does not tell it again; `massExtension` names the request a summary sums up.
    @discardableResult
    nonisolated func notify(
        _ event: NotificationEvent, about transactionId: String?, originalId: String?, dedupe: String? = nil,
        consumptionRequestReason: RefundRequestReason? = nil, massExtension: String? = nil, at now: Date,
        _ db: any SQLDatabase
    ) throws -> StoredNotification? {
        let urls = outbox.urls
        guard !urls.isEmpty, event.isSent(in: environment) else { return nil }
        let uuid = UUID()
        // A notification already made for `dedupe` is not made again: no row comes back.
        guard
            let sequence = try Int64.fetchOne(
                db.cachedStatement(
                    sql: """
                        INSERT INTO notifications
                            (uuid, type, subtype, transaction_id, original_id, created_at, dedupe, consumption_request_reason,
                             mass_extension)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                        ON CONFLICT DO NOTHING RETURNING seq
                        """),
                arguments: [
                    uuid.uuidString.lowercased(), event.type.rawValue, event.subtype?.rawValue, transactionId,
                    originalId,
                    now.timeIntervalSince1970, dedupe, consumptionRequestReason?.rawValue, massExtension,
                ])
        else { return nil }
        for url in urls {
            try db.cachedStatement(
                sql: "INSERT INTO notification_deliveries (uuid, url, next_attempt) VALUES (?, ?, ?)"
            )
            .execute(arguments: [uuid.uuidString.lowercased(), url, now.timeIntervalSince1970])
        }
        let outbox = outbox
        db.afterCommit { outbox.signal() }
        return StoredNotification(
            sequence: sequence, uuid: uuid, event: event, transactionId: transactionId, createdAt: now,
            signedPayload: nil, consumptionRequestReason: consumptionRequestReason, massExtension: massExtension)
    }

    /// The outbox entry of a recorded change, when it tells of one.
    nonisolated func notifyOf(_ stored: StoredTransaction, at now: Date, _ db: any SQLDatabase) throws {
        guard let event = stored.notification else { return }
        let subject =
            stored.notificationSubject ?? NotificationSubject(id: stored.id, originalId: stored.transaction.originalId)
        try notify(event, about: subject.id, originalId: subject.originalId, at: now, db)
    }

    /// What a completed purchase tells a server: a one-time charge, a new subscription, a plan
    /// change, or an offer redeemed. Nil when nothing was bought (owned, or subscribed already
    /// without an offer).
    nonisolated static func purchaseEvent(
        _ product: Product, basis: PurchaseQuote.Basis, offer: TransactionOffer?,
        subscribedBefore: Bool
    ) -> NotificationEvent? {
        guard product.type == .autoRenewable else {
            if case .alreadyOwned = basis { return nil }
            return NotificationEvent(.oneTimeCharge)
        }
        let redeemed = offer.map { $0.type != .introductory } ?? false
        let subtype: NotificationSubtype?
        switch basis {
        case .alreadySubscribed:
            guard redeemed else { return nil }
            subtype = nil
        case .atNextRenewal:
            subtype = .downgrade
        case .replacesNow:
            subtype = .upgrade
        case .fullPrice, .introductory, .alreadyOwned:
            subtype = subscribedBefore ? .resubscribe : .initialBuy
        }
        if redeemed { return NotificationEvent(.offerRedeemed, subtype) }
        if subtype == .upgrade || subtype == .downgrade { return NotificationEvent(.didChangeRenewalPref, subtype) }
        return NotificationEvent(.subscribed, subtype)
    }

    /// A change that time alone brings about, found by a sweep.
    struct TimedEvent: Sendable {
        let event: NotificationEvent
        let latest: StoredTransaction
        let dedupe: String
    }

    /// Tells what time alone brought about since the last sweep: a subscription that reached its
    /// end with auto-renew off, and a grace period that ran out during billing retry. Runs every
    /// second in a server; a read finds nothing nearly always, and only a find is written.
    func sweepTimedEvents() async throws {
        let now = clock.now()
        guard !outbox.urls.isEmpty else {
            sweptUntil = now  // nothing is told while no URL is set
            return
        }
        let since: Date
        if let swept = sweptUntil {
            since = swept
        } else {
            let saved = try await database.read { db in
                try StoreDatabase.setting(db, Self.timedEventsSetting)
            }
            since = saved.flatMap(Double.init).map(Date.init(timeIntervalSince1970:)) ?? now
        }
        let found = try await database.read { db in try self.timedEvents(after: since, upTo: now, db) }
        if !found.isEmpty {
            try await database.write { db in
                for timed in found {
                    try self.notify(
                        timed.event, about: timed.latest.id, originalId: timed.latest.transaction.originalId,
                        dedupe: timed.dedupe, at: now, db)
                }
                try StoreDatabase.setSetting(db, Self.timedEventsSetting, String(now.timeIntervalSince1970))
            }
        }
        sweptUntil = now
    }

    nonisolated func timedEvents(after since: Date, upTo now: Date, _ db: any SQLDatabase) throws -> [TimedEvent] {
        let window: SQLArguments = [since.timeIntervalSince1970, now.timeIntervalSince1970]
        var found: [TimedEvent] = []
        for latest in try StoredTransaction.fetchAll(
            db,
            where: """
                expires_date > ? AND expires_date <= ? AND state = \(StateSQL.purchased) AND auto_renew = 0 AND billing_retry_until IS NULL \
                AND revocation_date IS NULL AND upgrade_date IS NULL AND reason != '\(TransactionReason.planChange.rawValue)'
                """, window) where try isLatestOfAutoRenewableChain(latest, db)
        {
            found.append(
                TimedEvent(
                    event: .expired(latest.expirationReason ?? .autoRenewDisabled), latest: latest,
                    dedupe: Self.expiryKey(latest)))
        }
        for latest in try StoredTransaction.fetchAll(
            db,
            where: """
                grace_expires > ? AND grace_expires <= ? AND state = \(StateSQL.purchased) AND billing_retry_until IS NOT NULL
                """, window) where try isLatestOfAutoRenewableChain(latest, db)
        {
            found.append(
                TimedEvent(
                    event: NotificationEvent(.gracePeriodExpired), latest: latest,
                    dedupe: "GRACE_PERIOD_EXPIRED:\(latest.id)"))
        }
        return found
    }

    /// One expiry of a chain, however it was found.
    nonisolated static func expiryKey(_ latest: StoredTransaction) -> String {
        "EXPIRED:\(latest.transaction.originalId):\(latest.expiresDate?.timeIntervalSince1970 ?? 0)"
    }

    static let timedEventsSetting = "notifications.swept_until"

    private nonisolated func isLatestOfAutoRenewableChain(_ stored: StoredTransaction, _ db: any SQLDatabase) throws
        -> Bool
    {
        guard catalog.product(id: stored.transaction.productId)?.type == .autoRenewable else { return false }
        return try Self.isLatest(stored, db)
    }
}
