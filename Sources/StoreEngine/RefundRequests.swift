import Foundation
import LocalState
import StoreCore
import StoreKitModel
import StoreSQL

/// Refunds customers asked for and the App Store has not decided yet.
enum RefundRequests {
    /// Opens a request; refused for what cannot be refunded or is already asked about.
    static func open(
        _ stored: StoredTransaction, reason: RefundRequestReason, at now: Date, _ db: any SQLDatabase
    ) throws {
        let state = stored.transaction.state
        guard state == .purchased || state == .restored else {
            throw StoreFailure(
                "transaction \(stored.id) is \(state.name); only a purchased transaction's refund can be requested",
                kind: .conflict)
        }
        guard stored.revocationDate == nil else {
            throw StoreFailure("transaction \(stored.id) was already refunded", kind: .conflict)
        }
        try db.execute(
            sql:
                "INSERT INTO refund_requests (transaction_id, requested_at, reason) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
            arguments: [stored.id, now.timeIntervalSince1970, reason.rawValue])
        guard try db.changesCount > 0 else {
            throw StoreFailure(
                "a refund of transaction \(stored.id) was already requested; refund it or decline it (manage refund, decline-refund)",
                kind: .conflict)
        }
    }

    /// Puts on each of `transactions` the request waiting on it, whoever made it (the TUI, the
    /// CLI, the admin API): what the manager shows. `account`: the account they all belong to,
    /// nil for every account.
    static func mark(_ transactions: inout [Transaction], account: String?, _ db: any SQLDatabase) throws {
        let rows = try SQLRow.fetchAll(
            db,
            sql: account == nil
                ? "SELECT transaction_id, requested_at, reason FROM refund_requests"
                : "SELECT r.transaction_id, r.requested_at, r.reason FROM refund_requests r JOIN transactions t ON t.id = r.transaction_id WHERE t.account = ?",
            arguments: SQLArguments(account.map { [$0] } ?? []))
        guard !rows.isEmpty else { return }
        var waiting: [String: WaitingRefund] = [:]
        for row in rows {
            let id: String = try row[0]
            let requestedAt: Double = try row[1]
            let reason = try row.parsed(2, as: "a refund request reason", RefundRequestReason.init(rawValue:))
            waiting[id] = WaitingRefund(reason: reason, requestedAt: Date(timeIntervalSince1970: requestedAt))
        }
        for index in transactions.indices {
            transactions[index].refundRequest = waiting[transactions[index].id]
        }
    }

    /// Closes the request, granted or declined; false when none was open.
    @discardableResult
    static func close(_ id: String, _ db: any SQLDatabase) throws -> Bool {
        try db.execute(sql: "DELETE FROM refund_requests WHERE transaction_id = ?", arguments: [id])
        return try db.changesCount > 0
    }
}
