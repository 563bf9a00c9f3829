import Foundation
import GRDB
import StoreCore
import StoreKitModel

/// A non-renewing subscription's term is the app's to keep: Apple's transactions and receipts
/// carry no expiry for it, and Apple's guidance has the app compute the term from the purchases
/// and extend it when the customer buys again.
extension AppLedger {
    /// When each non-renewing subscription this app delivered to `account` ends, by product id:
    /// each purchase adds its period (times its quantity) to the term, from the later of its
    /// purchase and the end of the term before it. A refund the app acted on took its delivery
    /// back, so it adds nothing. `rate` scales the periods as the store scales subscriptions.
    public func nonRenewingTerms(account: String, catalog: Catalog, rate: TimeRate) throws -> [String: Date] {
        let ids = catalog.products.filter { $0.type == .nonRenewing }.map(\.id)
        guard !ids.isEmpty else { return [:] }
        let rows = try pool.guardedReadNow { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT product_id, quantity, COALESCE(purchased_at, delivered_at) AS purchased FROM deliveries
                    WHERE store_id = ? AND account = ? AND product_id IN (\(ids.map { _ in "?" }.joined(separator: ",")))
                    ORDER BY purchased, rowid
                    """, arguments: StatementArguments([storeId, account] + ids))
        }
        var terms: [String: Date] = [:]
        for row in rows {
            let productId: String = row["product_id"]
            guard let period = catalog.product(id: productId)?.subscription?.period else { continue }
            let purchased = Date(timeIntervalSince1970: row["purchased"])
            let start = max(purchased, terms[productId] ?? purchased)
            terms[productId] = rate.end(of: period, periods: max(1, row["quantity"]), from: start)
        }
        return terms
    }

    /// `entitlements` as the app shows them: a non-renewing subscription ends when the app's term
    /// does (`nonRenewingTerms`); the store's entitlement has no expiry for it.
    public func withAppTerms(_ entitlements: [Entitlement], account: String, catalog: Catalog, rate: TimeRate)
        throws -> [Entitlement]
    {
        guard entitlements.contains(where: { $0.type == .nonRenewing }) else { return entitlements }
        let terms = try nonRenewingTerms(account: account, catalog: catalog, rate: rate)
        return entitlements.map { entitlement in
            guard entitlement.type == .nonRenewing, let term = terms[entitlement.productId] else { return entitlement }
            return Entitlement(
                productId: entitlement.productId, type: entitlement.type, transactionId: entitlement.transactionId,
                originalTransactionId: entitlement.originalTransactionId, purchaseDate: entitlement.purchaseDate,
                expiresDate: term, willAutoRenew: false)
        }
    }
}
