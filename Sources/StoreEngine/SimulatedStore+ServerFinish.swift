import Foundation
import LocalState
import StoreCore
import StoreKitModel
import StoreSQL

/// Finish Transaction (App Store Server API 1.20): a developer's server that delivered the content
/// finishes the transaction itself, so the app's queue stops offering it at its next read, as
/// StoreKit's would after `Transaction.finish()`.
extension SimulatedStore {
    /// Who finished each of `transactions` that is finished: the server where Finish Transaction
    /// did, the app otherwise. `account`: the account they all belong to, nil for every account.
    nonisolated static func markFinishers(_ transactions: inout [Transaction], account: String?, _ db: any SQLDatabase)
        throws
    {
        guard transactions.contains(where: \.finished) else { return }
        let byServer = Set(
            try String.fetchAll(
                db,
                sql: account == nil
                    ? "SELECT transaction_id FROM server_finishes"
                    : "SELECT s.transaction_id FROM server_finishes s JOIN transactions t ON t.id = s.transaction_id WHERE t.account = ?",
                arguments: SQLArguments(account.map { [$0] } ?? [])))
        for index in transactions.indices where transactions[index].finished {
            transactions[index].finishedBy = byServer.contains(transactions[index].id) ? .server : .app
        }
    }

    /// Marks `stored` finished by the app's server, once; one finished already stays as it was.
    nonisolated static func finishForTheApp(_ stored: StoredTransaction, at now: Date, _ db: any SQLDatabase) throws {
        guard !stored.transaction.finished else { return }
        var finished = stored
        finished.transaction.finished = true
        try finished.update(db)
        try db.execute(
            sql: "INSERT INTO server_finishes (transaction_id, finished_at) VALUES (?, ?) ON CONFLICT DO NOTHING",
            arguments: [stored.id, now.timeIntervalSince1970])
    }
}
