import Foundation
import StoreCore
import StoreKitModel
import StoreSQL

/// What a transaction made outside the device may not contradict: the App Store keeps one
/// subscription per account and group, with periods that never overlap, and sells a
/// non-consumable once. A creation that would break either is refused, saying what to do.
extension SimulatedStore {
    nonisolated func refuseWhatIsHeld(
        _ product: Product, by account: String, from date: Date, at now: Date, _ db: any SQLDatabase
    ) throws {
        switch product.type {
        case .nonConsumable: try refuseOwned(product, by: account, db)
        case .autoRenewable: try refuseOverlap(product, by: account, from: date, at: now, db)
        case .consumable, .nonRenewing: return
        }
    }

    nonisolated func refuseOwned(_ product: Product, by account: String, _ db: any SQLDatabase) throws {
        guard
            let owned = try StoredTransaction.fetchAll(
                db, where: "account = ? AND product_id = ? AND state IN \(StateSQL.paid) AND revocation_date IS NULL",
                [account, product.id]
            ).first
        else { return }
        throw StoreFailure(
            "\(account) already owns \(product.id) (transaction \(owned.id)), and a non-consumable is bought once; refund or delete that purchase first (storefront manage refund \(owned.id)), or create it for another account",
            kind: .conflict)
    }

    /// The account's subscription in the group, in force now or in billing retry, or one whose
    /// periods reach past `date`.
    nonisolated func refuseOverlap(
        _ product: Product, by account: String, from date: Date, at now: Date, _ db: any SQLDatabase
    ) throws {
        guard let group = product.subscription?.group else { return }
        let inGroup = { (row: StoredTransaction) in
            self.catalog.product(id: row.transaction.productId)?.subscription?.group == group
        }
        let clear = "clear \(account)'s history first (storefront manage clear --account \(account))"
        if let active = try activeSubscriptions(account: account, at: now, db).first(where: inGroup) {
            let until = active.expiresDate.map { ", until \(TransactionCreation.text(of: $0))" } ?? ""
            throw StoreFailure(
                "\(account) already has an active subscription in the group \(group) (transaction \(active.id), \(active.transaction.productId)\(until)); a second one cannot run beside it. Create it for another account, or \(clear)",
                kind: .conflict)
        }
        let periods = try StoredTransaction.fetchAll(
            db,
            where: "account = ? AND state = \(StateSQL.purchased) AND expires_date IS NOT NULL AND ownership = ?",
            [account, OwnershipType.purchased.rawValue]
        ).filter(inGroup)
        let ends = periods.compactMap { row in
            [row.expiresDate, row.revocationDate, row.upgrade?.date].compactMap { $0 }.min().map { (row, $0) }
        }
        guard let (last, end) = ends.max(by: { $0.1 < $1.1 }), end > date else { return }
        throw StoreFailure(
            "\(account)'s subscription in the group \(group) ran until \(TransactionCreation.text(of: end)) (transaction \(last.id)); one bought on \(TransactionCreation.text(of: date)) would overlap it. Choose a date after \(TransactionCreation.text(of: end)), or \(clear)",
            kind: .conflict)
    }
}
