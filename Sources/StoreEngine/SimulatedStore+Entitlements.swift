import Foundation
import LocalState
import StoreCore
import StoreKitModel
import StoreSQL

extension SimulatedStore {
    /// Owned non-consumables and the newest transaction of each subscription product (expired ones
    /// included, so a wallet can say "expired"); refunded transactions grant nothing, and restored
    /// copies add nothing to what their originals grant.
    public func entitlements(account: String) async throws -> [Entitlement] {
        return try await database.read { db in try self.entitlements(account: account, db) }
    }

    nonisolated func entitlements(account: String, at now: Date? = nil, _ db: any SQLDatabase) throws -> [Entitlement] {
        entitlements(
            of: try StoredTransaction.fetchAll(db, where: "account = ? AND state = \(StateSQL.purchased)", [account]),
            at: now ?? clock.now())
    }

    /// The entitlements `rows` (an account's transactions, oldest first) grant: purchased ones,
    /// neither refunded nor replaced by an upgrade. One per non-consumable and one per
    /// subscription group (the period of its latest plan), or per product outside a group.
    nonisolated func entitlements(of rows: [StoredTransaction], at now: Date) -> [Entitlement] {
        var newest: [String: StoredTransaction] = [:]
        for row in rows
        where row.transaction.state == .purchased && row.revocationDate == nil && row.upgrade == nil
            && row.reason != .planChange
        {
            guard let product = catalog.product(id: row.transaction.productId), product.type != .consumable else {
                continue
            }
            // A non-consumable's entitlement is its first purchase; a subscription's is its latest period.
            if product.type == .nonConsumable, newest[product.id] != nil { continue }
            let group = product.type == .autoRenewable ? product.subscription?.group : nil
            newest[group.map { "group \($0)" } ?? product.id] = row
        }
        return newest.values.sorted { $0.id < $1.id }.compactMap { row in
            guard let product = catalog.product(id: row.transaction.productId) else { return nil }
            return Entitlement(
                productId: product.id, type: product.type, transactionId: row.id,
                originalTransactionId: row.transaction.originalId, purchaseDate: row.transaction.purchaseDate,
                expiresDate: row.expiresDate, willAutoRenew: product.type == .autoRenewable && row.autoRenew,
                renewal: product.type == .autoRenewable ? renewalInfo(row, chain: rows, at: now) : nil)
        }
    }

    /// What the account holds as the purchase rules see it, leaving out the transaction being
    /// completed (`excluding`), in the caller's read or write: one read of the account's paid
    /// transactions serves both its entitlements and its history.
    nonisolated func holdings(account: String, excluding id: String, at now: Date, _ db: any SQLDatabase) throws
        -> Holdings
    {
        let paid = try StoredTransaction.fetchAll(
            db, where: "account = ? AND state IN \(StateSQL.paid) AND id != ?", [account, id])
        return Holdings(
            entitlements: entitlements(of: paid, at: now), history: paid.map(\.published), catalog: catalog, at: now)
    }
}
