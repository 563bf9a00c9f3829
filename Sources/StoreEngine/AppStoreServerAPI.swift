import Foundation
import LocalState
import ServerRecords
import StoreCore
import StoreKitModel
import StoreSQL

/// The App Store Server API's view of the store: transactions by id across accounts, an
/// account's history by pages, its subscriptions' statuses, and what a developer's server sends
/// (an app account token, consumption information, Finish Transaction, a renewal-date extension).
public struct AppStoreServerAPI: Sendable {
    let store: SimulatedStore

    init(_ store: SimulatedStore) {
        self.store = store
    }

    /// A purchased or restored transaction by its id; nil for any other id.
    public func transaction(id: String) async throws -> ServerTransaction? {
        return try await store.database.read { db in
            try SQLRow.fetchOne(
                db.cachedStatement(
                    sql:
                        "SELECT \(SimulatedStore.serverColumns(db.dialect)) WHERE t.id = ? AND t.state IN \(StateSQL.paid)"
                ),
                arguments: [id]
            )
            .map { try SimulatedStore.serverTransaction($0).0 }
        }
    }

    /// The account whose purchase or restore has this transaction id or original transaction id.
    public func account(ofTransaction id: String) async throws -> String? {
        try await store.database.read { db in
            try String.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT account FROM transactions WHERE (id = ? OR original_id = ?) AND state IN \(StateSQL.paid) LIMIT 1
                        """), arguments: [id, id])
        }
    }

    /// One page of an account's purchases (restored copies are the app's, not the App Store's),
    /// ordered by modified date then by when the store wrote them, starting after `position`.
    public func history(account: String, filter: HistoryFilter, after position: HistoryPosition?, limit: Int)
        async throws -> HistoryPage
    {
        let dialect = store.database.dialect
        var conditions = ["t.account = ?", "t.state = \(StateSQL.purchased)"]
        var arguments: SQLArguments = [account]
        if let ids = filter.productIds {
            conditions.append("t.product_id IN (\(dialect.textsOfJSONArray("?")))")
            arguments += [SimulatedStore.jsonArray(ids)]
        }
        if let start = filter.startDate {
            conditions.append("t.purchase_date >= ?")
            arguments += [start.timeIntervalSince1970]
        }
        if let end = filter.endDate {
            conditions.append("t.purchase_date < ?")
            arguments += [end.timeIntervalSince1970]
        }
        if let revoked = filter.revoked {
            conditions.append(revoked ? "t.revocation_date IS NOT NULL" : "t.revocation_date IS NULL")
        }
        if let ownership = filter.ownership {
            conditions.append("t.ownership = ?")
            arguments += [ownership.rawValue]
        }
        if filter.excludesFinishedConsumables {
            conditions.append(
                "NOT (t.finished = 1 AND t.revocation_date IS NULL AND t.product_id IN (\(dialect.textsOfJSONArray("?"))))"
            )
            arguments += [SimulatedStore.jsonArray(store.catalog.products.filter { $0.type == .consumable }.map(\.id))]
        }
        let direction = filter.descending ? "DESC" : "ASC"
        if let position {
            conditions.append("(\(SimulatedStore.modified(dialect)), t.seq) \(filter.descending ? "<" : ">") (?, ?)")
            arguments += [position.modified, position.sequence]
        }
        let sql =
            "SELECT \(SimulatedStore.serverColumns(dialect)) WHERE \(conditions.joined(separator: " AND ")) ORDER BY modified \(direction), t.seq \(direction) LIMIT ?"
        arguments += [limit + 1]
        let bound = arguments
        let rows = try await store.database.read { db in
            try SQLRow.fetchAll(db.cachedStatement(sql: sql), arguments: bound).map(SimulatedStore.serverTransaction)
        }
        let page = rows.prefix(limit)
        return HistoryPage(transactions: page.map(\.0), last: page.last?.1, hasMore: rows.count > limit)
    }

    /// Every auto-renewable subscription chain of the account, with its status now.
    public func subscriptionStatuses(account: String) async throws -> [SubscriptionStatus] {
        let now = store.clock.now()
        let subscriptionIds = SimulatedStore.jsonArray(
            store.catalog.products.filter { $0.type == .autoRenewable }.map(\.id))
        return try await store.database.read { db in
            // Only subscriptions' chains: an account's consumables are chains of one, thousands of them.
            let chains = try String.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT original_id FROM transactions WHERE account = ? AND state = \(StateSQL.purchased)
                            AND product_id IN (\(db.dialect.textsOfJSONArray("?"))) GROUP BY original_id ORDER BY MIN(seq)
                        """), arguments: [account, subscriptionIds])
            return try chains.compactMap { try store.subscriptionStatus(chain: $0, at: now, db) }
        }
    }

    /// One auto-renewable chain's status now; nil for any other chain.
    public func subscriptionStatus(originalTransactionId: String) async throws -> SubscriptionStatus? {
        let now = store.clock.now()
        return try await store.database.read { db in
            try store.subscriptionStatus(chain: originalTransactionId, at: now, db)
        }
    }

    /// Sets the app account token of a chain, on every transaction it has and each one it will
    /// have. False when no purchase has this original transaction id.
    public func setAppAccountToken(_ token: UUID, originalTransactionId: String) async throws -> Bool {
        try await store.database.write { db in
            try db.cachedStatement(
                sql: "UPDATE transactions SET app_account_token = ? WHERE original_id = ? AND state IN \(StateSQL.paid)"
            )
            .execute(arguments: [token.uuidString.lowercased(), originalTransactionId])
            return try db.changesCount > 0
        }
    }

    /// Keeps the consumption information a server sent for a transaction (the last one sent counts).
    public func recordConsumption(transactionId: String, body: String) async throws {
        let now = store.clock.now()
        try await store.database.write { db in
            try db.cachedStatement(
                sql: """
                    INSERT INTO consumption (transaction_id, body, received_at) VALUES (?, ?, ?)
                    ON CONFLICT(transaction_id) DO UPDATE SET body = excluded.body, received_at = excluded.received_at
                    """
            ).execute(arguments: [transactionId, body, now.timeIntervalSince1970])
        }
    }

    /// The consumption information received, newest first.
    public func consumptionReports() async throws -> [ConsumptionReport] {
        try await store.database.read { db in
            try SQLRow.fetchAll(
                db, sql: "SELECT transaction_id, body, received_at FROM consumption ORDER BY received_at DESC"
            ).map { row in
                ConsumptionReport(
                    transactionId: try row[0], body: try row[1], receivedAt: Date(timeIntervalSince1970: try row[2]))
            }
        }
    }

    /// Finishes a purchased or restored transaction for its app; false when the App Store Server
    /// API knows no such transaction (another state, or no id). Finishing one already finished
    /// changes nothing and is no error.
    public func finishFromServer(transactionId: String) async throws -> Bool {
        let now = store.clock.now()
        return try await store.database.write { db in
            guard let stored = try StoredTransaction.fetch(db, id: transactionId), stored.transaction.state.hasReceipt
            else { return false }
            try SimulatedStore.finishForTheApp(stored, at: now, db)
            return true
        }
    }

    /// Extends the chain's period in force by `days` (scaled by the time rate, as periods are);
    /// nil when no purchase has this original transaction id. A request id sent again gets the
    /// first answer.
    public func extendRenewal(originalTransactionId: String, days: Int, reason: Int, requestIdentifier: String)
        async throws
        -> Result<RenewalExtension, RenewalExtension.Refusal>?
    {
        try await store.renewDue()
        let now = store.clock.now()
        return try await store.database.write { db in
            if let earlier = try SQLRow.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT original_id, transaction_id, new_expires_date FROM renewal_extensions WHERE request_identifier = ?
                        """), arguments: [requestIdentifier])
            {
                guard try earlier[0] as String == originalTransactionId else {
                    return .failure(.requestIdentifierReused)
                }
                return .success(
                    RenewalExtension(
                        originalTransactionId: try earlier[0], transactionId: try earlier[1],
                        newExpiresDate: Date(timeIntervalSince1970: try earlier[2])))
            }
            guard let first = try StoredTransaction.fetch(db, id: originalTransactionId) else { return nil }
            var latest = try store.chainLatest(of: first, db)
            if let refusal = try store.extensionRefusal(latest, at: now, db) { return .failure(refusal) }
            let expires = try store.extend(&latest, days: days, at: now, db)
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
}
