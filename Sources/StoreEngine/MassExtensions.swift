import Foundation
import LocalState
import ServerRecords
import StoreCore
import StoreKitModel
import StoreSQL

/// Extend Subscription Renewal Dates for All Active Subscribers, as the App Store does it: the
/// request is recorded and answered at once, then applied in the background a batch of
/// subscribers per commit. Each subscriber's outcome is written in the commit that extends it (or
/// tells its failure), so a process killed mid-way resumes where it stopped and extends no one
/// twice; the summary is written in the commit that finds no one left.
public struct MassExtensions: Sendable {
    let store: SimulatedStore

    init(_ store: SimulatedStore) {
        self.store = store
    }

    /// Subscribers one commit of a mass extension handles.
    public static let massExtensionBatch = 100

    /// Records `request`, or finds the request its identifier named before.
    public func start(_ request: MassExtensionRequest) async throws -> MassExtensionStart {
        let now = store.clock.now()
        return try await store.database.write { db in
            if let earlier = try Self.massExtensionStatus(request.requestIdentifier, db) {
                return earlier.request == request ? .repeated(earlier) : .identifierReused(earlier)
            }
            try db.cachedStatement(
                sql: """
                    INSERT INTO mass_extensions (request_identifier, product_id, days, reason, storefronts, requested_at, seq)
                    VALUES (?, ?, ?, ?, ?, ?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM mass_extensions))
                    """
            ).execute(arguments: [
                request.requestIdentifier, request.productId, request.days, request.reason,
                request.storefronts.map(Self.jsonText), now.timeIntervalSince1970,
            ])
            return .started(
                MassExtensionStatus(request: request, requestedAt: now, completeDate: nil, succeeded: 0, failed: 0))
        }
    }

    /// The request with this identifier and its progress; nil when there is none.
    public func status(requestIdentifier: String) async throws -> MassExtensionStatus? {
        try await store.database.read { db in try Self.massExtensionStatus(requestIdentifier, db) }
    }

    /// The requests with these identifiers, for the summaries their notifications carry.
    public func statuses(_ identifiers: Set<String>) async throws -> [String: MassExtensionStatus] {
        try await store.database.read { db in
            var found: [String: MassExtensionStatus] = [:]
            for identifier in identifiers {
                found[identifier] = try Self.massExtensionStatus(identifier, db)
            }
            return found
        }
    }

    /// The latest requests, newest first, for `/admin`.
    public func recent(limit: Int) async throws -> [MassExtensionStatus] {
        try await store.database.read { db in
            try String.fetchAll(
                db.cachedStatement(
                    sql: "SELECT request_identifier FROM mass_extensions ORDER BY requested_at DESC, seq DESC LIMIT ?"
                ),
                arguments: [limit]
            ).compactMap { try Self.massExtensionStatus($0, db) }
        }
    }

    /// Applies the oldest unfinished request to at most `limit` more subscribers in one commit,
    /// and completes it, with its summary, once none is left. Returns how many it handled. A read
    /// first: with no request open (nearly always) it takes no write lock.
    @discardableResult
    public func advance(limit: Int = massExtensionBatch) async throws -> Int {
        let open = try await store.database.read { db in try Self.oldestOpen(db) != nil }
        guard open else { return 0 }
        try await store.renewDue()
        let now = store.clock.now()
        return try await store.database.write { db in
            guard let identifier = try Self.oldestOpen(db), let open = try Self.massExtensionStatus(identifier, db)
            else { return 0 }
            let due = try self.massExtensionSubscribers(open.request, at: now, limit: limit, db)
            for latest in due {
                try self.applyMassExtension(open.request, to: latest, at: now, db)
            }
            if due.count < limit {
                try self.completeMassExtension(identifier, at: now, db)
            }
            return due.count
        }
    }

    private static func oldestOpen(_ db: any SQLDatabase) throws -> String? {
        try String.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT request_identifier FROM mass_extensions WHERE completed_at IS NULL ORDER BY requested_at, seq LIMIT 1
                    """))
    }

    /// The latest periods of the chains the request still has to handle: subscriptions of its
    /// product the customer bought (a family member's copy extends with the purchaser's), with
    /// access now (active, or in a grace period), in its storefronts, not yet handled by it.
    private func massExtensionSubscribers(
        _ request: MassExtensionRequest, at now: Date, limit: Int, _ db: any SQLDatabase
    ) throws -> [StoredTransaction] {
        try SQLRow.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT \(StoredTransaction.columns) FROM transactions
                    WHERE product_id = ?1 AND state = \(StateSQL.purchased) AND ownership = '\(OwnershipType.purchased.rawValue)'
                    AND revocation_date IS NULL AND upgrade_date IS NULL AND (expires_date > ?2 OR grace_expires > ?2)
                    AND (CAST(?3 AS TEXT) IS NULL OR storefront IN (\(db.dialect.textsOfJSONArray("?3"))))
                    AND NOT EXISTS (SELECT 1 FROM transactions later WHERE later.original_id = transactions.original_id
                        AND later.seq > transactions.seq AND later.state = \(StateSQL.purchased))
                    AND NOT EXISTS (SELECT 1 FROM mass_extension_items item WHERE item.request_identifier = ?4
                        AND item.original_id = transactions.original_id)
                    ORDER BY seq LIMIT ?5
                    """),
            arguments: [
                request.productId, now.timeIntervalSince1970, request.storefronts.map(Self.jsonText),
                request.requestIdentifier, limit,
            ]
        ).map(StoredTransaction.init(row:))
    }

    /// Extends one subscriber by the one extension rule, or tells its server why not
    /// (RENEWAL_EXTENSION/FAILURE about its latest period), and records which, in one commit.
    private func applyMassExtension(
        _ request: MassExtensionRequest, to latest: StoredTransaction, at now: Date, _ db: any SQLDatabase
    ) throws {
        var latest = latest
        let outcome: MassExtensionOutcome
        if try store.extensionRefusal(latest, at: now, db) == nil {
            _ = try store.extend(&latest, days: request.days, at: now, db)
            outcome = .succeeded
        } else {
            try store.notify(
                NotificationEvent(.renewalExtension, .failure), about: latest.id,
                originalId: latest.transaction.originalId, at: now, db)
            outcome = .failed
        }
        try db.cachedStatement(
            sql: """
                INSERT INTO mass_extension_items (request_identifier, original_id, transaction_id, outcome, extended_at)
                VALUES (?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            request.requestIdentifier, latest.transaction.originalId, latest.id, outcome.rawValue,
            now.timeIntervalSince1970,
        ])
    }

    private func completeMassExtension(_ identifier: String, at now: Date, _ db: any SQLDatabase) throws {
        try db.cachedStatement(sql: "UPDATE mass_extensions SET completed_at = ? WHERE request_identifier = ?")
            .execute(arguments: [now.timeIntervalSince1970, identifier])
        try store.notify(
            NotificationEvent(.renewalExtension, .summary), about: nil, originalId: nil,
            dedupe: "RENEWAL_EXTENSION/SUMMARY:\(identifier)", massExtension: identifier, at: now, db)
    }

    private static func massExtensionStatus(_ identifier: String, _ db: any SQLDatabase) throws
        -> MassExtensionStatus?
    {
        guard
            let row = try SQLRow.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT product_id, days, reason, storefronts, requested_at, completed_at,
                            (SELECT COUNT(*) FROM mass_extension_items i WHERE i.request_identifier = m.request_identifier
                                AND i.outcome = '\(MassExtensionOutcome.succeeded.rawValue)'),
                            (SELECT COUNT(*) FROM mass_extension_items i WHERE i.request_identifier = m.request_identifier
                                AND i.outcome = '\(MassExtensionOutcome.failed.rawValue)')
                        FROM mass_extensions m WHERE m.request_identifier = ?
                        """), arguments: [identifier])
        else { return nil }
        let storefronts = try row.jsonIfPresent("storefronts", as: "a JSON array of storefronts") { text in
            try JSONDecoder().decode([String].self, from: Data(text.utf8))
        }
        return MassExtensionStatus(
            request: MassExtensionRequest(
                requestIdentifier: identifier, productId: try row[0], days: try row[1], reason: try row[2],
                storefronts: storefronts
            ),
            requestedAt: Date(timeIntervalSince1970: try row[4]),
            completeDate: (try row[5] as Double?).map(Date.init(timeIntervalSince1970:)), succeeded: try row[6],
            failed: try row[7])
    }

    private static func jsonText(_ values: [String]) -> String {
        (try? JSONEncoder().encode(values)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
    }
}

/// How a mass extension ended for one subscriber, as `mass_extension_items.outcome` holds it.
enum MassExtensionOutcome: String, Sendable {
    case succeeded
    /// The extension rules refused it; its server got RENEWAL_EXTENSION/FAILURE.
    case failed
}
