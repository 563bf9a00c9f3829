import Foundation
import ServerRecords
import StoreCore
import StoreKitModel
import StoreSQL

/// Sandbox Test Families edited while the store runs. The catalog's `family` is where each
/// account starts; an edit is kept in `family_edits` so it outlives the process, and sharing
/// follows at once: an account that joins gets the family's shareable purchases in force as
/// copies of its own (`FAMILY_SHARED`), and shares its own with them; one that leaves loses the
/// copies it held and its purchases are taken back from the others, each revoked with reason 0
/// and a REVOKE, as when the purchaser stops sharing.
extension SimulatedStore {
    /// The family `account` is in now: its edit if it has one, else the catalog's.
    nonisolated func family(of account: String, _ db: any SQLDatabase) throws -> String? {
        guard
            let row = try SQLRow.fetchOne(
                db, sql: "SELECT family FROM family_edits WHERE account = ?", arguments: [account])
        else { return catalog.account(named: account)?.family }
        return try row[0] as String?
    }

    public func families() async throws -> [String: String] {
        try await database.read { db in
            var families: [String: String] = [:]
            for account in self.catalog.accounts {
                families[account.name] = try self.family(of: account.name, db)
            }
            return families
        }
    }

    /// The accounts in `family` now, in the catalog's order.
    nonisolated func members(of family: String, _ db: any SQLDatabase) throws -> [Account] {
        try catalog.accounts.filter { try self.family(of: $0.name, db) == family }
    }

    /// Moves `account` into `family` (nil: out of its family) and shares or takes back what the
    /// move changes, in the caller's write. Moving an account where it already is changes nothing.
    nonisolated func setFamily(
        of account: String, to family: String?, at now: Date, _ db: any SQLDatabase
    ) throws -> [TransactionUpdate] {
        guard catalog.account(named: account) != nil else {
            let known = catalog.accounts.map(\.name).joined(separator: ", ")
            throw StoreFailure("no account \(account) in the catalog (it has \(known))", kind: .notFound)
        }
        if let family {
            guard !family.isEmpty, family.count <= Account.maxNameLength,
                family.allSatisfy({ !$0.isWhitespace && !$0.isNewline && $0.isASCII })
            else {
                throw StoreFailure(
                    "family name \(family.debugDescription) is not 1 to \(Account.maxNameLength) printable ASCII characters without spaces",
                    kind: .invalid)
            }
        }
        let before = try self.family(of: account, db)
        guard before != family else { return [] }
        let controls = try TestControls.load(db, defaults: defaults)
        if before != nil { try leaveFamily(account, at: now, controls: controls, db) }
        try db.execute(
            sql:
                "INSERT INTO family_edits (account, family) VALUES (?, ?) ON CONFLICT(account) DO UPDATE SET family = excluded.family",
            arguments: [account, family])
        if let family { try joinFamily(account, family, at: now, controls: controls, db) }
        return []
    }

    /// Revokes the copies `account` holds and the members' copies of its purchases.
    private nonisolated func leaveFamily(
        _ account: String, at now: Date, controls: TestControls, _ db: any SQLDatabase
    ) throws {
        let held = try StoredTransaction.fetchAll(
            db,
            where:
                "account = ? AND shared_from IS NOT NULL AND revocation_date IS NULL AND ownership = '\(OwnershipType.familyShared.rawValue)'",
            [account])
        try revoke(held, reason: .other, at: now, controls: controls, db)
        let own = try String.fetchAll(
            db, sql: "SELECT id FROM transactions WHERE account = ? AND shared_from IS NULL", arguments: [account])
        try revokeCopies(of: own, only: .familyShared, reason: .other, at: now, controls: controls, db)
    }

    /// Shares each member's purchases in force with `account`, and `account`'s with each member.
    private nonisolated func joinFamily(
        _ account: String, _ family: String, at now: Date, controls: TestControls, _ db: any SQLDatabase
    ) throws {
        let members = try members(of: family, db)
        for purchaser in members {
            for purchase in try sharedPurchasesInForce(of: purchaser.name, at: now, db) {
                guard let product = catalog.product(id: purchase.transaction.productId) else { continue }
                let receivers =
                    purchaser.name == account
                    ? members.filter { $0.name != account } : members.filter { $0.name == account }
                for receiver in receivers {
                    try share(purchase, product: product, with: receiver, again: true, controls: controls, db)
                }
            }
        }
    }

    /// The purchases of `account` a family shares now: family-shareable, neither refunded nor
    /// withdrawn from sharing, and of a subscription only its latest period, while it runs.
    private nonisolated func sharedPurchasesInForce(
        of account: String, at now: Date, _ db: any SQLDatabase
    ) throws -> [StoredTransaction] {
        let purchases = try StoredTransaction.fetchAll(
            db,
            where:
                "account = ? AND shared_from IS NULL AND state = \(StateSQL.purchased) AND revocation_date IS NULL",
            [account])
        var latest: [String: StoredTransaction] = [:]
        var chains: [String] = []
        for purchase in purchases
        where purchase.ownership == .purchased
            && (purchase.reason == .purchase || purchase.reason == .renewal)
            && catalog.product(id: purchase.transaction.productId)?.familyShareable == true
        {
            if latest.updateValue(purchase, forKey: purchase.transaction.originalId) == nil {
                chains.append(purchase.transaction.originalId)
            }  // in seq order: the last of a chain is its latest period
        }
        return try chains.compactMap { latest[$0] }.filter { purchase in
            try !Self.sharingStopped(purchase.transaction.originalId, db)
                && (purchase.expiresDate.map { $0 > now } ?? true)
        }
    }
}
