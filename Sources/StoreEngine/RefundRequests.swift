import Foundation
import LocalState
import StoreCore
import StoreSQL

/// Refunds customers asked for and the App Store has not decided yet.
enum RefundRequests {
    /// Opens a request; refused for what cannot be refunded or is already asked about.
    static func open(_ stored: StoredTransaction, at now: Date, _ db: any SQLDatabase) throws {
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
            sql: "INSERT INTO refund_requests (transaction_id, requested_at) VALUES (?, ?) ON CONFLICT DO NOTHING",
            arguments: [stored.id, now.timeIntervalSince1970])
        guard db.changesCount > 0 else {
            throw StoreFailure(
                "a refund of transaction \(stored.id) was already requested; refund it or decline it (manage refund, decline-refund)",
                kind: .conflict)
        }
    }

    /// Closes the request, granted or declined; false when none was open.
    @discardableResult
    static func close(_ id: String, _ db: any SQLDatabase) throws -> Bool {
        try db.execute(sql: "DELETE FROM refund_requests WHERE transaction_id = ?", arguments: [id])
        return db.changesCount > 0
    }
}
