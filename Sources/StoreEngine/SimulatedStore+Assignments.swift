import Foundation
import ServerRecords
import StoreCore
import StoreKitModel
import StoreSQL

/// Purchases an organization or group makes for its members (App Store Server API 1.22's
/// `inAppOwnershipType` `ASSIGNED`: "The transaction belongs to a customer who has access through
/// an organization or group"). Apple documents what an assigned transaction is and which
/// endpoints refuse it, not how a seat is handed out, so the store takes the smallest step that
/// makes one: the purchaser's transaction is assigned to another account, which gets a copy of
/// its own owned `ASSIGNED`. The copy follows the purchase as a family member's does: a renewal
/// continues it ("An assigned subscription renews on the same schedule as the subscription the
/// organization or group purchaser bought"), the purchase's end and billing state are mirrored,
/// and a refund of the purchase revokes it.
extension SimulatedStore {
    /// Assigns `stored`'s purchase (of a subscription, the period in force) to `name`, in the
    /// caller's write; the member's new transaction.
    nonisolated func assign(
        _ stored: StoredTransaction, to name: String, at now: Date, controls: TestControls, _ db: any SQLDatabase
    ) throws -> [TransactionUpdate] {
        guard let member = catalog.account(named: name) else {
            let known = catalog.accounts.map(\.name).joined(separator: ", ")
            throw StoreFailure("no account \(name) in the catalog (it has \(known))", kind: .notFound)
        }
        let purchaser = stored.transaction.payment.account
        guard member.name != purchaser else {
            throw StoreFailure(
                "transaction \(stored.id) is \(purchaser)'s own purchase; assign it to another account", kind: .conflict
            )
        }
        guard stored.ownership == .purchased else {
            throw StoreFailure(
                "transaction \(stored.id) is \(stored.ownership == .assigned ? "assigned to" : "shared with") \(purchaser), not bought by it; assign the purchase it copies (\(stored.sharedFrom ?? "the purchaser's transaction"))",
                kind: .conflict)
        }
        guard let product = catalog.product(id: stored.transaction.productId) else {
            throw StoreFailure("transaction \(stored.id) is of a product the catalog no longer has", kind: .conflict)
        }
        guard product.type != .consumable else {
            throw StoreFailure(
                "transaction \(stored.id) is a consumable, used up by whoever bought it; assign a non-consumable or a subscription",
                kind: .conflict)
        }
        var purchase = stored
        if stored.transaction.state == .purchased, product.type == .autoRenewable {
            purchase = try chainLatest(of: stored, db)
        }
        guard purchase.transaction.state == .purchased, !purchase.reason.isCopy else {
            throw StoreFailure(
                "transaction \(stored.id) is \(stored.reason.isCopy ? "a \(stored.reason.rawValue) copy" : stored.transaction.state.name); only a purchase can be assigned",
                kind: .conflict)
        }
        guard purchase.revocationDate == nil else {
            throw StoreFailure("transaction \(purchase.id) was refunded; there is nothing to assign", kind: .conflict)
        }
        if product.type == .autoRenewable, !inForce(purchase, at: now) {
            throw StoreFailure(
                "the subscription of transaction \(stored.id) has ended; assign one that is in force", kind: .conflict)
        }
        guard try !holdsAssignment(of: purchase.transaction.originalId, member: member.name, db) else {
            throw StoreFailure(
                "\(member.name) already has transaction \(stored.id)'s purchase assigned (see `storefront transactions --account \(member.name)`)",
                kind: .conflict)
        }
        guard
            let update = try share(
                purchase, product: product, with: member, ownership: .assigned, controls: controls, db)
        else { return [] }
        return [update]
    }

    /// A renewal of an assigned subscription continues each member's copy.
    nonisolated func syncAssignments(
        _ stored: StoredTransaction, product: Product, controls: TestControls, _ db: any SQLDatabase
    ) throws {
        guard stored.reason == .renewal, try Self.anythingAssigned(db) else { return }
        let members = try String.fetchAll(
            db,
            sql: """
                SELECT DISTINCT m.account FROM transactions m JOIN transactions p ON p.id = m.shared_from
                WHERE m.ownership = ? AND p.original_id = ? AND m.revocation_date IS NULL
                """, arguments: [OwnershipType.assigned.rawValue, stored.transaction.originalId])
        for name in members {
            guard let member = catalog.account(named: name) else { continue }
            try share(stored, product: product, with: member, ownership: .assigned, controls: controls, db)
        }
    }

    /// Whether the store holds any assigned copy at all: read once a transaction (a sweep renews
    /// hundreds of chains in one), so a store without assignments makes no join per renewal.
    nonisolated static func anythingAssigned(_ db: any SQLDatabase) throws -> Bool {
        if let known = db.memo.value(assignedMemoKey, as: Bool.self) { return known }
        let assigned =
            try Int.fetchOne(
                db,
                sql:
                    "SELECT COUNT(*) FROM (SELECT 1 FROM transactions WHERE shared_from IS NOT NULL AND ownership = ? LIMIT 1) AS one",
                arguments: [OwnershipType.assigned.rawValue]) ?? 0 > 0
        db.memo.keep(assigned, as: assignedMemoKey)
        return assigned
    }

    /// `anythingAssigned` as the transaction read it; forgotten when a copy is written.
    static let assignedMemoKey = "assigned"

    /// Whether `member` holds a standing assigned copy of the purchase `originalId` names.
    private nonisolated func holdsAssignment(of originalId: String, member: String, _ db: any SQLDatabase) throws
        -> Bool
    {
        try Int.fetchOne(
            db,
            sql: """
                SELECT COUNT(*) FROM transactions m JOIN transactions p ON p.id = m.shared_from
                WHERE m.account = ? AND m.ownership = ? AND p.original_id = ? AND m.revocation_date IS NULL
                """, arguments: [member, OwnershipType.assigned.rawValue, originalId]) ?? 0 > 0
    }
}
