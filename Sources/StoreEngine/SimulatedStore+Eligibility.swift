import Foundation
import LocalState
import StoreCore
import StoreKitModel
import StoreSQL

/// The account's offer history as the store keeps it, for the one eligibility rule
/// (`OfferEligibility`) that the payment check, the sheet and `products --json` share.
extension SimulatedStore {
    /// What `account`'s past says about the offers it may take now, with the codes redeemed.
    public func offerHistory(account: String) async throws -> OfferHistory {
        return try await database.read { db in
            try self.offerHistory(account: account, at: self.clock.now(), db)
        }
    }

    /// The same, in the caller's read or write.
    nonisolated func offerHistory(account: String, at now: Date, _ db: any SQLDatabase) throws -> OfferHistory {
        let paid = try StoredTransaction.fetchAll(db, where: "account = ? AND state IN \(StateSQL.paid)", [account])
        let redeemed = try String.fetchSet(
            db, sql: "SELECT code FROM redeemed_codes WHERE account = ?", arguments: [account])
        var counts: [String: Int] = [:]
        for row in try SQLRow.fetchAll(db, sql: "SELECT code, COUNT(*) FROM redeemed_codes GROUP BY code") {
            counts[try row[0]] = try row[1]
        }
        return OfferHistory(
            entitlements: entitlements(of: paid, at: now), history: paid.map(\.published), catalog: catalog, at: now,
            redeemedCodes: redeemed, codeRedemptions: counts)
    }

    /// The time rate the store runs subscriptions at now (the test controls'), in the caller's read.
    nonisolated func timeRate(_ db: any SQLDatabase) throws -> TimeRate {
        try TestControls.load(db, defaults: defaults).timeRate
    }
}
