import Foundation
import LocalState
import StoreCore
import StoreKitModel
import StoreSQL

/// Ask to Buy requests expire: a parent has 24 hours of store time (`TimeRate.askToBuyWindow`,
/// under the rate in force when the store looks) to answer one. The App Store sends no approval
/// then; the store fails the deferred transaction with `SKError.paymentCancelled`, as it shows a
/// decline, so the app's queue does not keep it forever and the child can ask again.
extension SimulatedStore {
    /// Whether an Ask to Buy request has outlived its window: the renewal sweep's quick read.
    nonisolated func hasExpiredAskToBuyRequest(at now: Date, _ db: any SQLDatabase) throws -> Bool {
        let rate = try TestControls.load(db, defaults: defaults).timeRate
        return try Bool.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT EXISTS (SELECT 1 FROM transactions WHERE state = \(StateSQL.deferred) AND purchase_date <= ?)
                    """), arguments: [now.addingTimeInterval(-rate.askToBuyWindow).timeIntervalSince1970]) ?? false
    }

    /// In the sweep's write: every Ask to Buy request that has outlived its window fails, and
    /// each is journaled and published as any other update.
    nonisolated func expireAskToBuyRequests(at now: Date, controls: TestControls, _ db: any SQLDatabase) throws
        -> [TransactionUpdate]
    {
        let cutoff = now.addingTimeInterval(-controls.timeRate.askToBuyWindow)
        let overdue = try StoredTransaction.fetchAll(
            db, where: "state = \(StateSQL.deferred) AND purchase_date <= ?", [cutoff.timeIntervalSince1970])
        return try overdue.map { request in
            var expired = request
            expired.fail(.storeKit(.paymentCancelled))
            expired.pendingOutcome = .deferred  // what `failureContext` reads: deferred, never answered
            try expired.update(db)
            // Nothing was bought: an offer code it held may be redeemed again.
            try db.execute(sql: "DELETE FROM redeemed_codes WHERE transaction_id = ?", arguments: [expired.id])
            return try journaledUpdate(expired, controls: controls, db)
        }
    }

    /// Refuses to approve or decline a request that expired, saying when and what to do instead.
    nonisolated func refuseIfExpired(_ request: StoredTransaction, controls: TestControls) throws {
        guard request.failureContext == .askToBuyExpired else { return }
        let expiry = request.transaction.purchaseDate.addingTimeInterval(controls.timeRate.askToBuyWindow)
        throw StoreFailure(
            "the Ask to Buy request for transaction \(request.id) expired at \(expiry.formatted(.iso8601)); "
                + "the child must ask again (buy the product again)",
            kind: .conflict)
    }
}

extension StoredTransaction {
    /// Why a failed transaction failed, where its error says less than the store knows.
    var failureContext: FailureContext? {
        if pendingOutcome == .interrupted { return .interrupted }
        if declined { return .declined }
        return transaction.state == .failed && pendingOutcome == .deferred ? .askToBuyExpired : nil
    }
}

extension StateSQL {
    static let deferred = String(TransactionState.deferred.rawValue)
}
