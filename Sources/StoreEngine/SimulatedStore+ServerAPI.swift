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
    /// (the latest of its purchase, refund, upgrade and refund reversal), by which history pages are ordered.
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
        """
        \(dialect.greatest)(t.purchase_date, COALESCE(t.revocation_date, 0), COALESCE(t.upgrade_date, 0), \
        COALESCE(t.refund_reversed_at, 0))
        """
    }

    nonisolated static func serverTransaction(_ row: SQLRow) throws -> (ServerTransaction, HistoryPosition) {
        let stored = try StoredTransaction(row: row)
        let details = TransactionDetails(
            stored, originalPurchaseDate: Date(timeIntervalSince1970: try row[StoredTransaction.fieldCount]))
        let position = HistoryPosition(
            modified: try row[StoredTransaction.fieldCount + 2], sequence: try row[StoredTransaction.fieldCount + 1])
        return (
            ServerTransaction(transaction: stored.published, details: details, appAccountToken: stored.appAccountToken),
            position
        )
    }

    nonisolated static func jsonArray(_ values: some Collection<String>) -> String {
        (try? JSONEncoder().encode(Array(values))).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
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
        let latest = try StoredTransaction(row: lastRow)
        guard let product = catalog.product(id: latest.transaction.productId), product.type == .autoRenewable,
            let group = product.subscription?.group
        else { return nil }
        let chain = try rows.map(StoredTransaction.init(row:))
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
        let price = offerPrice ?? increased ?? planPrice ?? latest.price
        return SubscriptionStatus(
            groupId: group, originalTransactionId: originalId, status: status,
            latest: try Self.serverTransaction(lastRow).0,
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

}

/// Consumption information as a developer's server sent it.
public struct ConsumptionReport: Sendable, Hashable {
    public let transactionId: String
    /// The request's JSON, as received.
    public let body: String
    public let receivedAt: Date
}
