import Foundation
import LocalState
import ServerRecords
import StoreCore
import StoreKitModel
import StoreSQL

/// A subscription's identity, as the App Store keeps it: one per account and subscription group,
/// with one original transaction id for life. Renewals, upgrades, downgrades, crossgrades,
/// resubscriptions after any lapse, win-back and offer codes all continue it.
extension SimulatedStore {
    /// Each subscription group's auto-renewable products, found once when the store opens.
    struct GroupMembers: Sendable {
        var products: [Product] = []
        /// Their ids as a JSON array, for `SQLDialect.textsOfJSONArray`.
        var idsJSON = "[]"
    }

    static func groupMembers(of catalog: Catalog) -> [String: GroupMembers] {
        var members: [String: GroupMembers] = [:]
        for product in catalog.products where product.type == .autoRenewable {
            guard let group = product.subscription?.group else { continue }
            members[group, default: GroupMembers()].products.append(product)
        }
        return members.mapValues { group in
            let ids = (try? JSONEncoder().encode(group.products.map(\.id))).map { String(decoding: $0, as: UTF8.self) }
            return GroupMembers(products: group.products, idsJSON: ids ?? "[]")
        }
    }

    /// The original transaction id of `account`'s subscription in `product`'s group, when the
    /// account has one (its own, not a family member's copy); `excluding` the transaction being
    /// completed.
    nonisolated func subscriptionIdentity(
        account: String, product: Product, excluding id: String, _ db: any SQLDatabase
    )
        throws -> String?
    {
        guard product.type == .autoRenewable, let group = product.subscription?.group,
            let members = groupMembers[group]?.idsJSON
        else { return nil }
        return try String.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT original_id FROM transactions WHERE account = ? AND state = \(StateSQL.purchased)
                        AND ownership = '\(OwnershipType.purchased.rawValue)' AND id != ?
                        AND product_id IN (\(db.dialect.textsOfJSONArray("?"))) ORDER BY seq DESC LIMIT 1
                    """), arguments: [account, id, members])
    }

    /// A new period of a subscription (a first purchase, a resubscription, an upgrade) continues
    /// the account's subscription in its group, when it has one.
    nonisolated func continueSubscription(_ stored: inout StoredTransaction, product: Product, _ db: any SQLDatabase)
        throws
    {
        if let originalId = try subscriptionIdentity(
            account: stored.transaction.payment.account, product: product, excluding: stored.id, db)
        {
            stored.transaction.originalId = originalId
        }
    }

    /// A non-consumable the account owns, bought again: free, and no new purchase. The payment
    /// completes as a restore does, with a copy that names the original purchase.
    nonisolated func redownloadOwned(_ stored: inout StoredTransaction, _ db: any SQLDatabase) throws {
        guard
            let original = try StoredTransaction.fetchAll(
                db,
                where: "account = ? AND product_id = ? AND state = \(StateSQL.purchased) AND revocation_date IS NULL",
                [stored.transaction.payment.account, stored.transaction.productId]
            ).first
        else { return }
        stored.becomesCopy(of: original, reason: .redownload)
    }

    /// The plan in force bought again: delivered again as a restore is, its period unchanged. It
    /// also calls off a downgrade or crossgrade waiting for the renewal: servers hear
    /// DID_CHANGE_RENEWAL_PREF with no subtype.
    nonisolated func redownloadPlanInForce(_ stored: inout StoredTransaction, at now: Date, _ db: any SQLDatabase)
        throws
    {
        guard var active = try planInForce(stored.transaction.productId, of: stored, at: now, db) else { return }
        stored.becomesCopy(of: active, reason: .redownload)
        guard active.renewalProductId != nil || active.renewalPlan != nil else { return }
        active.renewalProductId = nil
        active.renewalPlan = nil
        try active.update(db)
        stored.notification = NotificationEvent(.didChangeRenewalPref)
        stored.notificationSubject = NotificationSubject(id: active.id, originalId: active.transaction.originalId)
    }
}

extension StoredTransaction {
    /// This payment completes without a purchase of its own: the app gets a copy in `original`'s
    /// subscription or purchase (as a restore gives), charging nothing. The copy carries the
    /// period in force, its expiry and offer, as StoreKit answers a downgrade with the transaction
    /// of that period: every auto-renewable transaction a client reads has Apple's
    /// `expiresDate`. A plan change (the payment's product, another plan of the group) still
    /// grants nothing until the renewal that starts it (`reason`).
    mutating func becomesCopy(of original: StoredTransaction, reason: TransactionReason) {
        transaction.originalId = original.transaction.originalId
        transaction.state = .restored
        price = 0
        autoRenew = false
        self.reason = reason
        expiresDate = original.expiresDate
        offer = original.offer
    }
}
