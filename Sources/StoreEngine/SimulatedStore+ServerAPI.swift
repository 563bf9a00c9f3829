import Foundation
import LocalState
import ServerRecords
import StoreCore
import StoreKitModel
import StoreSQL

/// What the App Store Server API reads and changes: transactions by id across accounts, an
/// account's history by pages, its subscriptions' statuses, and what a developer's server sends
/// (an app account token, consumption information, a renewal-date extension).
extension SimulatedStore {
    /// A transaction's columns, its original's purchase date, its place, and its modified date
    /// (the latest of its purchase, refund and upgrade), by which history pages are ordered.
    static func serverColumns(_ dialect: SQLDialect) -> String {
        switch dialect {
        case .sqlite: sqliteServerColumns
        case .postgres: postgresServerColumns
        }
    }

    // Built once per dialect: the column list is split and joined, and history pages and
    // notifications ask for it at every read.
    private static let sqliteServerColumns = makeServerColumns(.sqlite)
    private static let postgresServerColumns = makeServerColumns(.postgres)

    private static func makeServerColumns(_ dialect: SQLDialect) -> String {
        """
        \(StoredTransaction.columns(of: "t")), COALESCE(o.purchase_date, t.purchase_date), t.seq,
        \(modified(dialect)) AS modified
        FROM transactions t LEFT JOIN transactions o ON o.id = t.original_id
        """
    }

    /// The modified date of `t`, for a condition (a column's alias is not one in PostgreSQL).
    static func modified(_ dialect: SQLDialect) -> String {
        "\(dialect.greatest)(t.purchase_date, COALESCE(t.revocation_date, 0), COALESCE(t.upgrade_date, 0))"
    }

    nonisolated static func serverTransaction(_ row: SQLRow) -> (ServerTransaction, HistoryPosition) {
        let stored = StoredTransaction(row: row)
        let details = TransactionDetails(
            stored, originalPurchaseDate: Date(timeIntervalSince1970: row[StoredTransaction.fieldCount]))
        let position = HistoryPosition(
            modified: row[StoredTransaction.fieldCount + 2], sequence: row[StoredTransaction.fieldCount + 1])
        return (
            ServerTransaction(transaction: stored.published, details: details, appAccountToken: stored.appAccountToken),
            position
        )
    }

    /// A purchased or restored transaction by its id; nil for any other id.
    public func serverTransaction(id: String) async throws -> ServerTransaction? {
        try await renewDue()
        return try await database.read { db in
            try SQLRow.fetchOne(
                db.cachedStatement(
                    sql: "SELECT \(Self.serverColumns(db.dialect)) WHERE t.id = ? AND t.state IN \(StateSQL.paid)"),
                arguments: [id]
            )
            .map { Self.serverTransaction($0).0 }
        }
    }

    /// The account whose purchase or restore has this transaction id or original transaction id.
    public func account(ofTransaction id: String) async throws -> String? {
        try await database.read { db in
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
        try await renewDue()
        let dialect = database.dialect
        var conditions = ["t.account = ?", "t.state = \(StateSQL.purchased)"]
        var arguments: SQLArguments = [account]
        if let ids = filter.productIds {
            conditions.append("t.product_id IN (\(dialect.textsOfJSONArray("?")))")
            arguments += [Self.jsonArray(ids)]
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
            arguments += [Self.jsonArray(catalog.products.filter { $0.type == .consumable }.map(\.id))]
        }
        let direction = filter.descending ? "DESC" : "ASC"
        if let position {
            conditions.append("(\(Self.modified(dialect)), t.seq) \(filter.descending ? "<" : ">") (?, ?)")
            arguments += [position.modified, position.sequence]
        }
        let sql =
            "SELECT \(Self.serverColumns(dialect)) WHERE \(conditions.joined(separator: " AND ")) ORDER BY modified \(direction), t.seq \(direction) LIMIT ?"
        arguments += [limit + 1]
        let bound = arguments
        let rows = try await database.read { db in
            try SQLRow.fetchAll(db.cachedStatement(sql: sql), arguments: bound).map(Self.serverTransaction)
        }
        let page = rows.prefix(limit)
        return HistoryPage(transactions: page.map(\.0), last: page.last?.1, hasMore: rows.count > limit)
    }

    private nonisolated static func jsonArray(_ values: some Collection<String>) -> String {
        (try? JSONEncoder().encode(Array(values))).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
    }

    /// Every auto-renewable subscription chain of the account, with its status now.
    public func subscriptionStatuses(account: String) async throws -> [SubscriptionStatus] {
        try await renewDue()
        let now = clock.now()
        let subscriptionIds = Self.jsonArray(catalog.products.filter { $0.type == .autoRenewable }.map(\.id))
        return try await database.read { db in
            // Only subscriptions' chains: an account's consumables are chains of one, thousands of them.
            let chains = try String.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT original_id FROM transactions WHERE account = ? AND state = \(StateSQL.purchased)
                            AND product_id IN (\(db.dialect.textsOfJSONArray("?"))) GROUP BY original_id ORDER BY MIN(seq)
                        """), arguments: [account, subscriptionIds])
            return try chains.compactMap { try self.subscriptionStatus(chain: $0, at: now, db) }
        }
    }

    /// One auto-renewable chain's status now; nil for any other chain.
    public func subscriptionStatus(originalTransactionId: String) async throws -> SubscriptionStatus? {
        let now = clock.now()
        return try await database.read { db in
            try self.subscriptionStatus(chain: originalTransactionId, at: now, db)
        }
    }

    nonisolated func subscriptionStatus(chain originalId: String, at now: Date, _ db: any SQLDatabase) throws
        -> SubscriptionStatus?
    {
        let rows = try SQLRow.fetchAll(
            db.cachedStatement(
                sql:
                    "SELECT \(Self.serverColumns(db.dialect)) WHERE t.original_id = ? AND t.state = \(StateSQL.purchased) ORDER BY t.seq"
            ),
            arguments: [originalId])
        guard let lastRow = rows.last else { return nil }
        let latest = StoredTransaction(row: lastRow)
        guard let product = catalog.product(id: latest.transaction.productId), product.type == .autoRenewable,
            let group = product.subscription?.group
        else { return nil }
        let chain = rows.map(StoredTransaction.init(row:))
        let renewal = renewalInfo(latest, chain: chain, at: now)
        let status: SubscriptionStatusCode =
            if latest.revocationDate != nil { .revoked } else if latest.billingRetryUntil != nil {
                (latest.graceExpires.map { $0 > now } ?? false) ? .gracePeriod : .billingRetry
            } else if inForce(latest, at: now) { .active } else { .expired }
        let next = catalog.product(id: renewal.autoRenewProductId)
        // Mid-commitment the next payment is the plan's month: offers and increases wait.
        let continuing = Self.inCommitment(latest)
        // An offer that waits starts after the commitment; one whose periods go on, within it.
        let offerPrice =
            (latest.renewalOffer.flatMap { continuing ? nil : terms(of: $0, product: next ?? product) }
            ?? offerGoesOn(latest, periodsTaken: { Self.offerPeriods(of: latest, in: chain) }))?
            .firstPayment(in: latest.storefront)
        let increased = continuing ? nil : next.flatMap { latest.increasedPrice(renewingTo: $0.id) }
        let planPrice = next?.billingPrice(renewal.renewalBillingPlan, in: latest.storefront)
        let price = renewal.willAutoRenew ? (offerPrice ?? increased ?? planPrice ?? latest.price) : nil
        return SubscriptionStatus(
            groupId: group, originalTransactionId: originalId, status: status,
            latest: Self.serverTransaction(lastRow).0,
            renewal: renewal, recentStartDate: Self.recentStart(chain),
            renewalPrice: price, renewalOffer: renewal.renewalOffer,
            eligibleWinBackOfferIds: status == .expired
                ? try eligibleWinBackOffers(group: group, account: latest.transaction.payment.account, at: now, db)
                : nil)
    }

    /// The group's win-back offers `account` may take now, by the one eligibility rule; nil for none.
    nonisolated func eligibleWinBackOffers(group: String, account: String, at now: Date, _ db: any SQLDatabase) throws
        -> [String]?
    {
        let offers = (groupMembers[group]?.products ?? []).flatMap { product in
            (product.subscription?.offers ?? []).filter { $0.kind == .winBack }.map { (product, $0) }
        }
        guard !offers.isEmpty else { return nil }
        let history = try offerHistory(account: account, at: now, db)
        let rate = try timeRate(db)
        var eligible: [String] = []
        for (product, offer) in offers where !eligible.contains(offer.id) {
            let verdict = OfferEligibility.verdict(for: offer, of: product, history: history, rate: rate, at: now)
            if verdict.isEligible { eligible.append(offer.id) }
        }
        return eligible.isEmpty ? nil : eligible
    }

    /// The start of the chain's latest run of periods with no gap between them.
    nonisolated static func recentStart(_ chain: [StoredTransaction]) -> Date {
        var start = chain.first?.transaction.purchaseDate ?? Date(timeIntervalSince1970: 0)
        var coveredUntil: Date?
        for row in chain where row.reason == .purchase || row.reason == .renewal {
            if let coveredUntil, row.transaction.purchaseDate > coveredUntil { start = row.transaction.purchaseDate }
            coveredUntil = max(coveredUntil ?? .distantPast, row.expiresDate ?? row.transaction.purchaseDate)
        }
        return start
    }

    /// Sets the app account token of a chain, on every transaction it has and each one it will
    /// have. False when no purchase has this original transaction id.
    public func setAppAccountToken(_ token: UUID, originalTransactionId: String) async throws -> Bool {
        try await database.write { db in
            try db.cachedStatement(
                sql: "UPDATE transactions SET app_account_token = ? WHERE original_id = ? AND state IN \(StateSQL.paid)"
            )
            .execute(arguments: [token.uuidString.lowercased(), originalTransactionId])
            return db.changesCount > 0
        }
    }

    /// Keeps the consumption information a server sent for a transaction (the last one sent counts).
    public func recordConsumption(transactionId: String, body: String) async throws {
        let now = clock.now()
        try await database.write { db in
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
        try await database.read { db in
            try SQLRow.fetchAll(
                db, sql: "SELECT transaction_id, body, received_at FROM consumption ORDER BY received_at DESC"
            ).map { row in
                ConsumptionReport(transactionId: row[0], body: row[1], receivedAt: Date(timeIntervalSince1970: row[2]))
            }
        }
    }
}

/// Consumption information as a developer's server sent it.
public struct ConsumptionReport: Sendable, Hashable {
    public let transactionId: String
    /// The request's JSON, as received.
    public let body: String
    public let receivedAt: Date
}

extension SimulatedStore {
    /// A server's own setting kept with the store (registered API keys, notification URLs).
    public func issuedSignatures() async throws -> [(Data, String)] {
        try await database.read { db in
            try SQLRow.fetchAll(db, sql: "SELECT digest, signature FROM issued_signatures").map { ($0[0], $0[1]) }
        }
    }

    public func keepIssuedSignatures(_ signatures: [(Data, String)]) async throws {
        try await database.write { db in
            for (digest, signature) in signatures {
                try db.cachedStatement(
                    sql: "INSERT INTO issued_signatures (digest, signature) VALUES (?, ?) ON CONFLICT DO NOTHING"
                )
                .execute(arguments: [digest, signature])
            }
        }
    }

    public func serverSetting(_ key: String) async throws -> String? {
        try await database.read { db in try StoreDatabase.setting(db, "server." + key) }
    }

    public func setServerSetting(_ key: String, _ value: String?) async throws {
        try await database.write { db in try StoreDatabase.setSetting(db, "server." + key, value) }
    }
}
