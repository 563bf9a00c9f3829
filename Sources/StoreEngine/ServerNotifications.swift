import Foundation
import LocalState
import ServerRecords
import StoreCore
import StoreKitModel
import StoreSQL

/// The deliverer's side of the outbox: what is due, the payload signed once, each attempt and
/// the retry it schedules, and the history Get Notification History and `/admin` read.
public struct ServerNotifications: Sendable {
    let store: SimulatedStore

    init(_ store: SimulatedStore) {
        self.store = store
    }

    private static let notificationColumns =
        "n.seq, n.uuid, n.type, n.subtype, n.transaction_id, n.created_at, n.signed_payload, n.consumption_request_reason, "
        + "n.mass_extension"

    /// Deliveries due by `now` at each of `urls`, the longest waiting first, at most `limit` per
    /// URL: a URL with a long backlog (a receiver that hangs) does not keep the others' from being
    /// read. One short read of an index per URL, however long the backlog.
    public func dueDeliveries(at now: Date, urls: [String], limit: Int) async throws -> [NotificationDelivery] {
        try await store.database.read { db in
            var due: [NotificationDelivery] = []
            for url in urls {
                due += try SQLRow.fetchAll(
                    db.cachedStatement(
                        sql: """
                            SELECT \(Self.notificationColumns), d.url AS delivery_url, d.attempts AS delivery_attempts FROM notification_deliveries d JOIN notifications n ON n.uuid = d.uuid
                            WHERE d.url = ? AND d.next_attempt IS NOT NULL AND d.next_attempt <= ? ORDER BY d.next_attempt LIMIT ?
                            """), arguments: [url, now.timeIntervalSince1970, limit]
                )
                .map { row in
                    NotificationDelivery(
                        notification: try Self.notification(row), url: try row["delivery_url"],
                        attempts: try row["delivery_attempts"])
                }
            }
            return due.sorted { $0.notification.sequence < $1.notification.sequence }
        }
    }

    /// Claims `deliveries` (read as due at `now`) for this server's attempts, each until `lease`:
    /// servers that share the store then do not attempt one delivery twice, and one that died
    /// mid-attempt leaves it to another once the lease ends. Returns those claimed; one another
    /// server claimed first is its own.
    public func claimDeliveries(_ deliveries: [NotificationDelivery], at now: Date, until lease: Date) async throws
        -> [NotificationDelivery]
    {
        guard !deliveries.isEmpty else { return [] }
        return try await store.database.write { db in
            try deliveries.filter { delivery in
                try db.cachedStatement(
                    sql: """
                        UPDATE notification_deliveries SET next_attempt = ?
                        WHERE uuid = ? AND url = ? AND next_attempt IS NOT NULL AND next_attempt <= ?
                        """
                ).execute(arguments: [
                    lease.timeIntervalSince1970, delivery.notification.uuid.uuidString.lowercased(), delivery.url,
                    now.timeIntervalSince1970,
                ])
                return try db.changesCount > 0
            }
        }
    }

    /// Every URL a delivery still waits for: those set now, and any set when its event happened.
    public func pendingURLs() async throws -> [String] {
        try await store.database.read { db in
            try String.fetchAll(
                db.cachedStatement(
                    sql: "SELECT DISTINCT url FROM notification_deliveries WHERE next_attempt IS NOT NULL"))
        }
    }

    /// When the next delivery falls due after `now`; nil when none waits. Those due already are
    /// being attempted, or wait for room among the attempts in flight.
    public func nextDeliveryDue(after now: Date) async throws -> Date? {
        try await store.database.read { db in
            try Double.fetchOne(
                db.cachedStatement(sql: "SELECT MIN(next_attempt) FROM notification_deliveries WHERE next_attempt > ?"),
                arguments: [now.timeIntervalSince1970]
            )
            .map(Date.init(timeIntervalSince1970:))
        }
    }

    /// Keeps each payload as its notification's signed payload unless one is kept already, and
    /// returns the kept ones: every attempt at every URL sends the same bytes. One commit for
    /// the batch the deliverer took.
    public func keepSignedPayloads(_ payloads: [UUID: String]) async throws -> [UUID: String] {
        guard !payloads.isEmpty else { return [:] }
        return try await store.database.write { db in
            var kept: [UUID: String] = [:]
            for (uuid, payload) in payloads {
                let key = uuid.uuidString.lowercased()
                try db.cachedStatement(
                    sql: "UPDATE notifications SET signed_payload = ? WHERE uuid = ? AND signed_payload IS NULL"
                )
                .execute(arguments: [payload, key])
                kept[uuid] =
                    try String.fetchOne(
                        db.cachedStatement(sql: "SELECT signed_payload FROM notifications WHERE uuid = ?"),
                        arguments: [key]) ?? payload
            }
            return kept
        }
    }

    /// The transactions (and subscription states) notifications are about, in one read: what
    /// their payloads sign.
    public func contexts(transactionIds: Set<String>) async throws -> [String: NotificationContext] {
        let now = store.clock.now()
        return try await store.database.read { db in
            var contexts: [String: NotificationContext] = [:]
            for id in transactionIds {
                guard
                    let row = try SQLRow.fetchOne(
                        db.cachedStatement(
                            sql:
                                "SELECT \(SimulatedStore.serverColumns(db.dialect)) WHERE t.id = ? AND t.state IN \(StateSQL.paid)"
                        ),
                        arguments: [id])
                else { continue }
                let transaction = try SimulatedStore.serverTransaction(row).0
                let subscription =
                    store.catalog.product(id: transaction.transaction.productId)?.type == .autoRenewable
                    ? try store.subscriptionStatus(chain: transaction.transaction.originalId, at: now, db) : nil
                contexts[id] = NotificationContext(transaction: transaction, subscription: subscription)
            }
            return contexts
        }
    }

    /// Records attempts, in one commit, and schedules each one's next: none after a success or
    /// the last retry.
    public func recordAttempts(_ attempts: [(SendAttempt, NotificationDelivery)]) async throws {
        guard !attempts.isEmpty else { return }
        try await store.database.write { db in
            let rate = try TestControls.load(db, defaults: store.defaults).timeRate
            for (attempt, delivery) in attempts { try Self.keep(attempt, of: delivery, rate: rate, db) }
        }
    }

    private static func keep(
        _ attempt: SendAttempt, of delivery: NotificationDelivery, rate: TimeRate, _ db: any SQLDatabase
    ) throws {
        let key = delivery.notification.uuid.uuidString.lowercased()
        try db.cachedStatement(
            sql: """
                INSERT INTO notification_attempts (uuid, url, attempted_at, result, http_status, detail, seq)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, (SELECT COALESCE(MAX(seq), 0) + 1 FROM notification_attempts WHERE uuid = ?1))
                """
        ).execute(arguments: [
            key, attempt.url, attempt.date.timeIntervalSince1970, attempt.result.rawValue, attempt.httpStatus,
            attempt.detail,
        ])
        let attempts = delivery.attempts + 1
        let next =
            attempt.result == .success
            ? nil : NotificationRetry.delay(afterAttempt: attempts, rate: rate).map(attempt.date.addingTimeInterval)
        try db.cachedStatement(
            sql: """
                UPDATE notification_deliveries SET attempts = ?, next_attempt = ?, delivered_at = ?
                WHERE uuid = ? AND url = ? AND delivered_at IS NULL
                """
        ).execute(arguments: [
            attempts, next?.timeIntervalSince1970,
            attempt.result == .success ? attempt.date.timeIntervalSince1970 : nil, key, attempt.url,
        ])
    }

    /// The test control: every retry still waiting is due now. Returns how many.
    @discardableResult
    public func sendPendingNow() async throws -> Int {
        let now = store.clock.now()
        let count = try await store.database.write { db in
            try db.cachedStatement(sql: "UPDATE notification_deliveries SET next_attempt = ? WHERE next_attempt > ?")
                .execute(arguments: [now.timeIntervalSince1970, now.timeIntervalSince1970])
            return try db.changesCount
        }
        store.outbox.signal()
        return count
    }

    /// Request a Test Notification: a `TEST` notification due now; nil when no URL is set.
    public func requestTest() async throws -> StoredNotification? {
        let now = store.clock.now()
        return try await store.database.write { db in
            try store.notify(NotificationEvent(.test), about: nil, originalId: nil, at: now, db)
        }
    }

    /// One notification with its attempts, by its UUID.
    public func record(_ uuid: UUID) async throws -> NotificationRecord? {
        try await store.database.read { db in
            guard
                let row = try SQLRow.fetchOne(
                    db.cachedStatement(sql: "SELECT \(Self.notificationColumns) FROM notifications n WHERE n.uuid = ?"),
                    arguments: [uuid.uuidString.lowercased()])
            else { return nil }
            return try Self.withAttempts(Self.notification(row), db)
        }
    }

    /// Notifications the filter matches, oldest first, after `sequence`, with whether more follow.
    public func history(_ filter: NotificationFilter, after sequence: Int64?, limit: Int) async throws
        -> (records: [NotificationRecord], hasMore: Bool)
    {
        try await store.database.read { db in
            var conditions = ["n.created_at >= ?", "n.created_at < ?", "n.seq > ?"]
            var arguments: SQLArguments = [
                filter.startDate.timeIntervalSince1970, filter.endDate.timeIntervalSince1970, sequence ?? 0,
            ]
            if let type = filter.type {
                conditions.append("n.type = ?")
                arguments.append(type.rawValue)
            }
            if let subtype = filter.subtype {
                conditions.append("n.subtype = ?")
                arguments.append(subtype.rawValue)
            }
            if let account = filter.account {
                conditions.append("n.transaction_id IN (SELECT id FROM transactions WHERE account = ?)")
                arguments.append(account)
            }
            if filter.onlyFailures {
                conditions.append(
                    "EXISTS (SELECT 1 FROM notification_deliveries d WHERE d.uuid = n.uuid AND d.delivered_at IS NULL)")
            }
            arguments.append(limit + 1)
            let rows = try SQLRow.fetchAll(
                db,
                sql: """
                    SELECT \(Self.notificationColumns) FROM notifications n WHERE \(conditions.joined(separator: " AND ")) ORDER BY n.seq LIMIT ?
                    """, arguments: arguments)
            let records = try rows.prefix(limit).map { try Self.withAttempts(Self.notification($0), db) }
            return (records, rows.count > limit)
        }
    }

    /// The latest notifications, newest first, for `/admin`.
    public func recent(limit: Int) async throws -> [NotificationRecord] {
        try await store.database.read { db in
            try SQLRow.fetchAll(
                db.cachedStatement(
                    sql: "SELECT \(Self.notificationColumns) FROM notifications n ORDER BY n.seq DESC LIMIT ?"),
                arguments: [limit]
            )
            .map { try Self.withAttempts(Self.notification($0), db) }
        }
    }

    private static func notification(_ row: SQLRow) throws -> StoredNotification {
        let uuid = try row.parsed(1, as: "a UUID", UUID.init(uuidString:))
        let type = try row.parsed(2, as: "a notification type", NotificationType.init(rawValue:))
        let subtype = try row.parsedIfPresent(3, as: "a notification subtype", NotificationSubtype.init(rawValue:))
        return StoredNotification(
            sequence: try row[0], uuid: uuid, event: NotificationEvent(type, subtype), transactionId: try row[4],
            createdAt: Date(timeIntervalSince1970: try row[5]), signedPayload: try row[6],
            consumptionRequestReason: try row.parsedIfPresent(
                7, as: "a refund request reason", RefundRequestReason.init(rawValue:)),
            massExtension: try row[8])
    }

    private static func withAttempts(_ notification: StoredNotification, _ db: any SQLDatabase) throws
        -> NotificationRecord
    {
        let key = notification.uuid.uuidString.lowercased()
        let attempts = try SQLRow.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT url, attempted_at, result, http_status, detail FROM notification_attempts WHERE uuid = ? ORDER BY attempted_at, seq
                    """), arguments: [key]
        ).map { row in
            SendAttempt(
                url: try row[0], date: Date(timeIntervalSince1970: try row[1]),
                result: (try row[2] as String?).flatMap(SendAttemptResult.init(rawValue:)) ?? .other,
                httpStatus: try row[3],
                detail: try row[4])
        }
        var pending: [String: Date] = [:]
        for row in try SQLRow.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT url, next_attempt FROM notification_deliveries WHERE uuid = ? AND next_attempt IS NOT NULL
                    """), arguments: [key])
        {
            pending[try row[0]] = Date(timeIntervalSince1970: try row[1])
        }
        return NotificationRecord(notification: notification, attempts: attempts, pending: pending)
    }
}
