import Foundation
import StoreCore
import StoreKitModel
import StoreSQL

/// The sandbox's Clear Purchase History, for one tester account. Apple resets "the In-App
/// Purchase and subscription history" of the accounts named, and the app is told nothing: an
/// App Store engineer's advice is to call `AppStore.sync()` afterwards for a fresh state. So the
/// account's transactions and what hangs on them go, without an update on the queue or a server
/// notification, and the account is eligible for introductory offers again. Every other account
/// keeps its history, except the family's copies of the account's own purchases, which go with
/// the purchases they copy.
extension SimulatedStore {
    /// Deletes `account`'s purchase history in the caller's write.
    nonisolated func clearHistory(of account: String, _ db: any SQLDatabase) throws {
        guard catalog.account(named: account) != nil else {
            let known = catalog.accounts.map(\.name).joined(separator: ", ")
            throw StoreFailure(
                "no account \(account) in the catalog (it has \(known)); name one of them with --account",
                kind: .notFound)
        }
        // The account's own transactions, and the members' copies of them.
        let owned = "SELECT id FROM transactions WHERE account = ?"
        let cleared = "(\(owned) UNION SELECT id FROM transactions WHERE shared_from IN (\(owned)))"
        let chains = "SELECT original_id FROM transactions WHERE account = ?"
        try db.execute(
            sql: "DELETE FROM refund_requests WHERE transaction_id IN \(cleared)", arguments: [account, account])
        try db.execute(
            sql: "DELETE FROM server_finishes WHERE transaction_id IN \(cleared)", arguments: [account, account])
        try db.execute(sql: "DELETE FROM sharing_stopped WHERE original_id IN (\(chains))", arguments: [account])
        try db.execute(
            sql: "DELETE FROM journal WHERE transaction_id IN \(cleared)", arguments: [account, account])
        try db.execute(sql: "DELETE FROM consumed WHERE account = ?", arguments: [account])
        try db.execute(
            sql: "DELETE FROM transactions WHERE shared_from IN (\(owned))", arguments: [account])
        try db.execute(sql: "DELETE FROM transactions WHERE account = ?", arguments: [account])
    }
}
