import Foundation
import LocalState
import ServerRecords
import StoreCore
import StoreKitModel
import StoreSQL

extension SimulatedStore {
    /// Transaction-manager actions. Returns the updates they cause (approval, resolution, renewal).
    public func perform(_ action: ManageAction) async throws -> [TransactionUpdate] {
        // Renewals due first: an action meets the subscription as it is now.
        try await renewDue()
        let now = clock.now()
        let updates: [TransactionUpdate] = try await database.write { db in
            switch action {
            case .clearAll:
                try db.execute(
                    sql:
                        "DELETE FROM transactions; DELETE FROM consumed; DELETE FROM journal; DELETE FROM refund_requests; DELETE FROM sharing_stopped; DELETE FROM server_finishes"
                )
                try self.clearMessagesAndIntents(of: nil, db)
                return []
            case .clearAccount(let account):
                try self.clearHistory(of: account, db)
                try self.clearMessagesAndIntents(of: account, db)
                return []
            case .sendMessage(let account, let reason):
                try self.sendMessage(reason, to: account, at: now, db)
                return []
            case .purchaseIntent(let account, let productId, let offerId):
                try self.recordPurchaseIntent(account: account, productId: productId, offerId: offerId, at: now, db)
                return []
            case .setFamily(let account, let family):
                return try self.setFamily(of: account, to: family, at: now, db)
            case .createTransaction(let creation):
                return try self.create(creation, at: now, db)
            case .resetToDefaults:
                try db.execute(
                    sql:
                        "DELETE FROM transactions; DELETE FROM consumed; DELETE FROM journal; DELETE FROM refund_requests; DELETE FROM sharing_stopped; DELETE FROM server_finishes; DELETE FROM settings WHERE key LIKE 'controls.%'; DELETE FROM family_edits"
                )
                db.memo.forget(TestControls.memoKey)
                try self.clearMessagesAndIntents(of: nil, db)
                return []
            case .approveAskToBuy(let id), .declineAskToBuy(let id), .resolveIssue(let id), .refund(let id, _, _),
                .requestRefund(let id, _), .declineRefund(let id), .reverseRefund(let id),
                .expireSubscription(let id), .forceRenewal(let id), .delete(let id), .setAutoRenew(let id, _),
                .priceIncrease(let id, _, _),
                .stopSharing(let id), .serverFinish(let id), .assign(let id, _):
                guard let stored = try StoredTransaction.fetch(db, id: id) else {
                    throw StoreFailure("no transaction \(id); see `storefront transactions`", kind: .notFound)
                }
                return try self.apply(action, to: stored, at: now, db)
            }
        }
        let receipted = await withReceipts(updates)
        publish(receipted)
        return receipted
    }

    nonisolated private func apply(
        _ action: ManageAction, to original: StoredTransaction, at now: Date, _ db: any SQLDatabase
    )
        throws -> [TransactionUpdate]
    {
        var stored = original
        let state = stored.transaction.state
        let controls = try TestControls.load(db, defaults: defaults)
        switch action {
        case .approveAskToBuy:
            try refuseIfClosed(stored, controls: controls)
            guard state == .deferred else {
                throw StoreFailure(
                    "transaction \(stored.id) is \(state.name), not deferred; only Ask to Buy requests can be approved",
                    kind: .conflict)
            }
            try complete(&stored, at: now, controls: controls, db)
        case .declineAskToBuy:
            try refuseIfClosed(stored, controls: controls)
            guard state == .deferred else {
                throw StoreFailure(
                    "transaction \(stored.id) is \(state.name), not deferred; only Ask to Buy requests can be declined",
                    kind: .conflict)
            }
            // The store's side alone: the app is sent nothing, and its transaction stays deferred.
            stored.close(.declined)
            try stored.update(db)
            // Nothing was bought: an offer code it held may be redeemed again.
            try db.execute(sql: "DELETE FROM redeemed_codes WHERE transaction_id = ?", arguments: [stored.id])
            return []
        case .resolveIssue where stored.pendingOutcome != .interrupted:
            return [
                try journaledUpdate(
                    try recoverFromBillingRetry(stored, at: now, controls: controls, db), controls: controls, db)
            ]
        case .resolveIssue:
            stored.pendingOutcome = nil
            try stored.update(db)
            let id = try StoreDatabase.nextTransactionId(db)
            var resolved = StoredTransaction(
                transaction: Transaction(
                    id: id, originalId: id, payment: stored.transaction.payment, state: .purchasing, purchaseDate: now),
                storefront: stored.storefront, price: stored.price, currency: stored.currency, expiresDate: nil,
                revocationDate: nil, autoRenew: true, pendingOutcome: nil, reason: .purchase)
            resolved.offer = stored.offer  // the offer it was checked for at its add
            try complete(&resolved, at: now, controls: controls, db)
            try resolved.insert(db)
            return [try journaledUpdate(resolved, controls: controls, db)]
        case .refund where stored.reason.isCopy:
            // A copy (a restore, a re-download, a plan change) was not paid for: the refund is
            // of the purchase it copies.
            guard let paid = try paidPurchase(copied: stored, db) else {
                throw StoreFailure(
                    "transaction \(stored.id) is a copy of a purchase that no longer exists; nothing was paid to refund",
                    kind: .conflict)
            }
            return try apply(action, to: paid, at: now, db)
        case .refund(_, let reason, let percentage):
            guard state == .purchased || state == .restored else {
                throw StoreFailure(
                    "transaction \(stored.id) is \(state.name); only purchased transactions can be refunded",
                    kind: .conflict)
            }
            guard stored.revocationDate == nil else {
                throw StoreFailure("transaction \(stored.id) was already refunded", kind: .conflict)
            }
            stored.revocationDate = now
            stored.revocationReason = reason
            stored.revocationPercentage = percentage
            stored.autoRenew = false
            stored.notification = NotificationEvent(.refund)
            try RefundRequests.close(stored.id, db)
        case .reverseRefund where stored.reason.isCopy:
            // A copy's refund was its purchase's: so is the reversal.
            guard let paid = try paidPurchase(copied: stored, db) else {
                throw StoreFailure(
                    "transaction \(stored.id) is a copy of a purchase that no longer exists; there is no refund to reverse",
                    kind: .conflict)
            }
            return try apply(action, to: paid, at: now, db)
        case .reverseRefund:
            try Self.reverseRefund(of: &stored, at: now)
        case .serverFinish:
            guard state.hasReceipt else {
                throw StoreFailure(
                    "transaction \(stored.id) is \(state.name); the app's server can finish only a purchased or restored transaction",
                    kind: .conflict)
            }
            try Self.finishForTheApp(stored, at: now, db)
            return []
        case .requestRefund(_, let reason):
            try RefundRequests.open(stored, reason: reason, at: now, db)
            // Apple asks for consumption data of consumables and auto-renewable subscriptions only.
            let type = catalog.product(id: stored.transaction.productId)?.type
            if type == .consumable || type == .autoRenewable {
                try notify(
                    NotificationEvent(.consumptionRequest), about: stored.id,
                    originalId: stored.transaction.originalId, consumptionRequestReason: reason, at: now, db)
            }
            guard controls.autoApproveRefunds else { return [] }
            // The test control stands for an App Store that grants every request at once. A copy's
            // refund is its purchase's, so the request on the copy is closed here.
            try RefundRequests.close(stored.id, db)
            return try apply(.refund(stored.id, reason: reason.revocationReason), to: stored, at: now, db)
        case .declineRefund:
            guard try RefundRequests.close(stored.id, db) else {
                throw StoreFailure(
                    "no refund of transaction \(stored.id) was requested; request one first (manage request-refund)",
                    kind: .conflict)
            }
            try notify(
                NotificationEvent(.refundDeclined), about: stored.id, originalId: stored.transaction.originalId,
                at: now, db)
            return []
        // StoreKit 2 tells the app (Transaction.updates, with the revocation date): the app
        // takes back what it granted. StoreKit 1's queue says nothing.
        case .expireSubscription:
            guard stored.expiresDate != nil else {
                throw StoreFailure("transaction \(stored.id) is not a subscription", kind: .conflict)
            }
            // The subscription, not the one period: its latest transaction carries its state.
            var latest = stored.transaction.state == .purchased ? try chainLatest(of: stored, db) : stored
            if let expiry = latest.expiresDate, expiry > now { latest.expiresDate = now }
            latest.autoRenew = false
            latest.billingRetryUntil = nil
            latest.graceExpires = nil
            try latest.update(db)
            return []
        case .forceRenewal:
            try requireSubscription(stored, "renewed")
            guard let renewal = try forcedRenewal(of: stored, at: now, controls: controls, db) else { return [] }
            return [try journaledUpdate(renewal, controls: controls, db)]
        case .setAutoRenew(_, let on):
            try requireSubscription(stored, "renewed")
            try setAutoRenew(on, chainOf: stored, at: now, db)
            return []
        case .priceIncrease(_, let step, let terms):
            try requireSubscription(stored, "given a price increase")
            try priceIncrease(step, terms: terms, chainOf: stored, at: now, db)
            return []
        case .delete:
            try db.execute(sql: "DELETE FROM transactions WHERE id = ?", arguments: [stored.id])
            try db.execute(sql: "DELETE FROM journal WHERE transaction_id = ?", arguments: [stored.id])
            return []
        case .stopSharing:
            try stopSharing(stored, at: now, controls: controls, db)
            return []
        case .assign(_, let account):
            return try assign(stored, to: account, at: now, controls: controls, db)
        case .clearAll, .clearAccount, .resetToDefaults, .setFamily, .createTransaction, .sendMessage, .purchaseIntent:
            return []
        }
        try stored.update(db)
        return [try journaledUpdate(stored, controls: controls, db)]
    }

    /// A refund the App Store reverses: the revocation is removed and nothing else changes (a
    /// subscription keeps its expiry date, as Apple's REFUND_REVERSED says its renewal date does).
    /// A family member's copy is revoked with its purchase, so the purchase's refund is reversed.
    /// What the transaction says changed now, so its signed form is dated now: a server that keeps
    /// the later of two snapshots keeps the reversal, not the refund.
    nonisolated static func reverseRefund(of stored: inout StoredTransaction, at now: Date) throws {
        guard stored.ownership == .purchased else {
            throw StoreFailure(
                "transaction \(stored.id) is \(stored.ownership == .assigned ? "an assigned member's" : "a family member's") copy; reverse the refund of the purchase it copies (\(stored.sharedFrom ?? "the purchaser's transaction"))",
                kind: .conflict)
        }
        guard stored.revocationDate != nil else {
            throw StoreFailure(
                "transaction \(stored.id) was not refunded; only a refund can be reversed (manage refund)",
                kind: .conflict)
        }
        stored.revocationDate = nil
        stored.revocationReason = nil
        stored.revocationPercentage = nil
        stored.refundReversalDate = now
        stored.notification = NotificationEvent(.refundReversed)
    }

    /// The paid purchase a copy stands for: a non-consumable's original purchase, or the period of
    /// the subscription the copy was made in (its latest period when none matches).
    nonisolated func paidPurchase(copied copy: StoredTransaction, _ db: any SQLDatabase) throws -> StoredTransaction? {
        let paid = try StoredTransaction.fetchAll(
            db, where: "original_id = ? AND state = \(StateSQL.purchased) AND account = ?",
            [copy.transaction.originalId, copy.transaction.payment.account])
        guard copy.expiresDate != nil || copy.reason == .planChange else { return paid.first }
        return paid.last { $0.expiresDate == copy.expiresDate } ?? paid.last
    }
}
