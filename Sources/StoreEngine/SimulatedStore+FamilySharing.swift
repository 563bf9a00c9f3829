import Foundation
import ServerRecords
import StoreCore
import StoreKitModel
import StoreSQL

/// Family Sharing: a purchase (or renewal) of a family-shareable product is shared with every
/// other member of the purchaser's family. Each member gets a transaction of its own, owned
/// `FAMILY_SHARED`, in its own chain; a refund of the purchase, or the purchaser stopping sharing,
/// revokes the members' copies, and servers hear REVOKE for each.
extension SimulatedStore {
    /// Keeps the family's copies in step with `stored`, in the caller's write (as `record` runs).
    nonisolated func syncFamily(
        _ stored: StoredTransaction, controls: TestControls, at now: Date, _ db: any SQLDatabase
    )
        throws
    {
        guard stored.ownership == .purchased else { return }
        if let revoked = stored.revocationDate {
            // Refunded: every copy of it goes, a family member's and an assigned member's alike.
            try revokeCopies(
                of: [stored.id], reason: stored.revocationReason ?? .other, at: revoked, controls: controls, db)
            return
        }
        let account = stored.transaction.payment.account
        guard stored.transaction.state == .purchased, stored.reason == .purchase || stored.reason == .renewal,
            let product = catalog.product(id: stored.transaction.productId)
        else { return }
        try syncAssignments(stored, product: product, controls: controls, db)
        guard product.familyShareable, let family = try family(of: account, db),
            try !Self.sharingStopped(stored.transaction.originalId, db)
        else { return }
        for member in try members(of: family, db) where member.name != account {
            try share(stored, product: product, with: member, controls: controls, db)
        }
    }

    /// The member's copy of `stored`: its own id, in the chain of its earlier copies of the same
    /// purchase (a renewal continues it), once; `again`, once more if the copies it had were
    /// revoked (a member who left the family and joined again).
    /// `ownership` is the copy's: `familyShared`, or `assigned` for a member an organization or
    /// group gave the purchase to. Returns the copy's update; nil when it had one already.
    @discardableResult
    nonisolated func share(
        _ stored: StoredTransaction, product: Product, with member: Account, again: Bool = false,
        ownership: OwnershipType = .familyShared, controls: TestControls, _ db: any SQLDatabase
    ) throws -> TransactionUpdate? {
        let standing = again ? " AND revocation_date IS NULL" : ""
        guard
            try Int.fetchOne(
                db,
                sql:
                    "SELECT COUNT(*) FROM transactions WHERE shared_from = ? AND account = ? AND ownership = ?\(standing)",
                arguments: [stored.id, member.name, ownership.rawValue]) == 0
        else { return nil }
        let chain = try String.fetchOne(
            db,
            sql: """
                SELECT m.original_id FROM transactions m JOIN transactions p ON p.id = m.shared_from
                WHERE m.account = ? AND p.original_id = ? AND m.ownership = ? ORDER BY m.seq LIMIT 1
                """, arguments: [member.name, stored.transaction.originalId, ownership.rawValue])
        let id = try StoreDatabase.nextTransactionId(db)
        let transaction = Transaction(
            id: id, originalId: chain ?? id, payment: Payment(productId: product.id, account: member.name),
            state: .purchased, purchaseDate: stored.transaction.purchaseDate)
        var copy = StoredTransaction(
            transaction: transaction, storefront: member.storefront, price: stored.price, currency: stored.currency,
            expiresDate: stored.expiresDate, revocationDate: nil, autoRenew: stored.autoRenew, pendingOutcome: nil,
            reason: chain == nil ? .purchase : .renewal)
        copy.ownership = ownership
        copy.sharedFrom = stored.id
        copy.billingPlan = stored.billingPlan
        copy.commitment = stored.commitment
        copy.notification =
            product.type != .autoRenewable
            ? NotificationEvent(.oneTimeCharge)
            : chain == nil ? NotificationEvent(.subscribed, .initialBuy) : NotificationEvent(.didRenew)
        try copy.insert(db)
        db.memo.forget(Self.assignedMemoKey)
        return try journaledUpdate(copy, controls: controls, db)
    }

    /// Revokes the members' copies of the purchaser's transactions `ids` that still stand: those
    /// owned `only` (a family leaving revokes the family's copies, not what an organization
    /// assigned), or every copy when nil.
    nonisolated func revokeCopies(
        of ids: [String], only: OwnershipType? = nil, reason: RevocationReason, at date: Date,
        controls: TestControls, _ db: any SQLDatabase
    ) throws {
        let owned = only.map { " AND ownership = '\($0.rawValue)'" } ?? ""
        for id in ids {
            try revoke(
                try StoredTransaction.fetchAll(db, where: "shared_from = ? AND revocation_date IS NULL\(owned)", [id]),
                reason: reason, at: date, controls: controls, db)
        }
    }

    /// Revokes each of the members' `copies`: the app hears of it, and servers hear REVOKE.
    nonisolated func revoke(
        _ copies: [StoredTransaction], reason: RevocationReason, at date: Date, controls: TestControls,
        _ db: any SQLDatabase
    ) throws {
        for var copy in copies {
            copy.revocationDate = date
            copy.revocationReason = reason
            copy.autoRenew = false
            copy.notification = NotificationEvent(.revoke)
            try copy.update(db)
            _ = try journaledUpdate(copy, controls: controls, db)
        }
    }

    /// The purchaser stops sharing: every member's copy of the purchase (each period of a
    /// subscription) is revoked with reason 0, as Apple reports a family revocation, and later
    /// renewals are not shared.
    nonisolated func stopSharing(
        _ stored: StoredTransaction, at now: Date, controls: TestControls, _ db: any SQLDatabase
    )
        throws
    {
        guard stored.ownership == .purchased,
            catalog.product(id: stored.transaction.productId)?.familyShareable == true,
            try family(of: stored.transaction.payment.account, db) != nil
        else {
            throw StoreFailure(
                "transaction \(stored.id) is not a purchase shared with a family (a familyShareable product bought by an account with a family)",
                kind: .conflict)
        }
        try db.execute(
            sql:
                "INSERT INTO sharing_stopped (original_id, stopped_at) VALUES (?, ?) ON CONFLICT(original_id) DO NOTHING",
            arguments: [stored.transaction.originalId, now.timeIntervalSince1970])
        let chain = try String.fetchAll(
            db, sql: "SELECT id FROM transactions WHERE original_id = ?", arguments: [stored.transaction.originalId])
        try revokeCopies(of: chain, only: .familyShared, reason: .other, at: now, controls: controls, db)
    }

    static func sharingStopped(_ originalId: String, _ db: any SQLDatabase) throws -> Bool {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sharing_stopped WHERE original_id = ?", arguments: [originalId])
            ?? 0 > 0
    }
}
