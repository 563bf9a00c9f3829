import Foundation
import LocalState
import StoreCore
import StoreKitModel
import StoreSQL

/// Ask to Buy requests as the App Store keeps them. Only an approval reaches the app: Apple sends
/// nothing for a decline ("Your app doesn't receive a transaction because you declined Ask to
/// Buy") nor for a request nobody answered, so for the app the transaction stays deferred. The
/// store closes such a request on its own side (the transaction manager shows why), and a
/// parent has 24 hours of store time (`TimeRate.askToBuyWindow`, under the rate in force when
/// the store looks) to answer one.
extension SimulatedStore {
    /// Whether an Ask to Buy request has outlived its window: the renewal sweep's quick read.
    nonisolated func hasExpiredAskToBuyRequest(at now: Date, _ db: any SQLDatabase) throws -> Bool {
        let rate = try TestControls.load(db, defaults: defaults).timeRate
        return try Bool.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT EXISTS (SELECT 1 FROM transactions WHERE \(StateSQL.waitingAskToBuy) AND purchase_date <= ?)
                    """), arguments: [now.addingTimeInterval(-rate.askToBuyWindow).timeIntervalSince1970]) ?? false
    }

    /// In the sweep's write: every Ask to Buy request that has outlived its window closes as
    /// expired, on the store's side only. Nothing is journaled or published: the app's queue
    /// keeps the transaction deferred, as Apple's does.
    nonisolated func expireAskToBuyRequests(at now: Date, controls: TestControls, _ db: any SQLDatabase) throws {
        let cutoff = now.addingTimeInterval(-controls.timeRate.askToBuyWindow)
        let overdue = try StoredTransaction.fetchAll(
            db, where: "\(StateSQL.waitingAskToBuy) AND purchase_date <= ?", [cutoff.timeIntervalSince1970])
        for request in overdue {
            var expired = request
            expired.close(.expired)
            try expired.update(db)
            // Nothing was bought: an offer code it held may be redeemed again.
            try db.execute(sql: "DELETE FROM redeemed_codes WHERE transaction_id = ?", arguments: [expired.id])
        }
    }

    /// Refuses to approve or decline a request the store already closed, saying why and what to do.
    nonisolated func refuseIfClosed(_ request: StoredTransaction, controls: TestControls) throws {
        switch request.askToBuy {
        case .expired?:
            let expiry = request.transaction.purchaseDate.addingTimeInterval(controls.timeRate.askToBuyWindow)
            throw StoreFailure(
                "the Ask to Buy request for transaction \(request.id) expired at \(expiry.formatted(.iso8601)); "
                    + "the child must ask again (buy the product again)",
                kind: .conflict)
        case .declined?:
            throw StoreFailure(
                "the Ask to Buy request for transaction \(request.id) was already declined; "
                    + "the child must ask again (buy the product again)",
                kind: .conflict)
        case .waiting?, nil:
            return
        }
    }

    /// The account's Ask to Buy request for the product still waiting for a parent, if any.
    nonisolated func waitingRequest(for payment: Payment, _ db: any SQLDatabase) throws -> StoredTransaction? {
        try StoredTransaction.fetchAll(
            db, where: "\(StateSQL.waitingAskToBuy) AND account = ? AND product_id = ?",
            [payment.account, payment.productId]
        ).first
    }

    /// A second request for what the account already asked for: Apple consolidates duplicate
    /// requests ("only resets the 24-hour timer. Once approved, only 1 purchase is completed"), so
    /// no transaction is added. The waiting one is asked for again, from now, and the app's queue
    /// hears it deferred again.
    nonisolated func askAgain(
        _ waiting: StoredTransaction, controls: TestControls, at now: Date, _ db: any SQLDatabase
    ) throws -> AddResult {
        var renewed = waiting
        let old = waiting.transaction
        renewed.transaction = Transaction(
            id: old.id, originalId: old.originalId, payment: old.payment, state: .deferred, error: nil,
            purchaseDate: now)
        // The request's date is when its 24 hours started (`update` keeps a purchase's date).
        try db.execute(
            sql: "UPDATE transactions SET purchase_date = ? WHERE id = ?",
            arguments: [now.timeIntervalSince1970, old.id])
        let asked = Transaction(
            id: old.id, originalId: old.originalId, payment: old.payment, state: .purchasing, purchaseDate: now)
        var added = AddResult(transaction: asked, inserted: AddResult.Inserted(stored: renewed, controls: controls))
        added.completed = try journaledUpdate(renewed, controls: controls, db)
        return added
    }
}

/// An Ask to Buy request on the store's side. The app sees each as deferred.
enum AskToBuyRequest: Sendable, Hashable {
    /// Waiting for a parent within its window.
    case waiting
    /// A parent declined it.
    case declined
    /// Nobody answered within its window.
    case expired
}

extension StoredTransaction {
    /// The request this transaction is on the store's side; nil for a transaction that is not deferred.
    var askToBuy: AskToBuyRequest? {
        guard transaction.state == .deferred else { return nil }
        if declined { return .declined }
        // An expired request keeps `deferred` as its outcome: the row's mark that nobody answered.
        return pendingOutcome == .deferred ? .expired : .waiting
    }

    /// Closes a waiting request on the store's side; the transaction stays deferred.
    mutating func close(_ request: AskToBuyRequest) {
        declined = request == .declined
        pendingOutcome = request == .expired ? .deferred : nil
    }

    /// What the store knows beyond what the app is told: why a failed transaction failed, or why
    /// an Ask to Buy request the app still sees deferred is closed.
    var failureContext: FailureContext? {
        if pendingOutcome == .interrupted { return .interrupted }
        if declined { return .declined }
        // Before requests stayed deferred, an expired one was stored failed with the same mark.
        return transaction.state != .purchasing && pendingOutcome == .deferred ? .askToBuyExpired : nil
    }
}

extension StateSQL {
    static let deferred = String(TransactionState.deferred.rawValue)
    /// An Ask to Buy request still waiting for a parent (see `StoredTransaction.askToBuy`).
    static let waitingAskToBuy = "state = \(deferred) AND declined = 0 AND pending_outcome IS NULL"
}
