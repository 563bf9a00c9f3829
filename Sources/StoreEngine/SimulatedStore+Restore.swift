import Foundation
import LocalState
import StoreCore
import StoreKitModel
import StoreSQL

extension SimulatedStore {
    /// `restoreCompletedTransactions`: a new `restored` transaction for each non-consumable and
    /// each auto-renewable subscription (its latest period) the account owns. A forced failure (network, SKError) fails the restore.
    public func restore(account: String) async throws -> [TransactionUpdate] {
        try await renewDue()
        let now = clock.now()
        // A forced failure is consumed in its own commit: thrown inside the write it would roll back.
        let failure: StoreError? = try await database.write { db in
            var controls = try TestControls.load(db, defaults: self.defaults)
            if let simulated = controls.apiErrors[.appStoreSync] { return simulated }  // stays on; nothing to consume
            let failure: StoreError? =
                switch controls.nextOutcome {
                case .fail(let code): .storeKit(code)
                case .network(let code): .network(code)
                // The user dismissed the App Store sign-in that restore asks for.
                case .cancel: .storeKit(.paymentCancelled)
                default: nil
                }
            guard failure != nil else { return nil }
            if !controls.everyPurchase { controls.nextOutcome = .success }
            try controls.save(db)
            return failure
        }
        if let failure { throw failure }
        let updates: [TransactionUpdate] = try await database.write { db in
            let controls = try TestControls.load(db, defaults: self.defaults)
            var latest: [String: StoredTransaction] = [:]
            for row in try StoredTransaction.fetchAll(
                db, where: "account = ? AND state = \(StateSQL.purchased) AND revocation_date IS NULL AND reason != ?",
                [account, TransactionReason.planChange.rawValue])
            {
                guard let product = self.catalog.product(id: row.transaction.productId), product.type.isRestorable
                else { continue }
                // A subscription restores as its latest period: a plan an upgrade replaced, or one a
                // plan change moved from, is no longer the account's.
                latest[product.type == .autoRenewable ? "chain \(row.transaction.originalId)" : product.id] = row
            }
            var updates: [TransactionUpdate] = []
            for original in latest.values.sorted(by: { $0.id < $1.id }) {
                let id = try StoreDatabase.nextTransactionId(db)
                let old = original.transaction
                var restored = StoredTransaction(
                    transaction: Transaction(
                        id: id, originalId: old.originalId, payment: old.payment, state: .restored, purchaseDate: now),
                    storefront: original.storefront, price: 0, currency: original.currency,
                    expiresDate: original.expiresDate, revocationDate: nil, autoRenew: false, pendingOutcome: nil,
                    reason: .restore)
                restored.appAccountToken = original.appAccountToken
                restored.billingPlan = original.billingPlan
                restored.commitment = original.commitment
                try restored.insert(db)
                updates.append(try self.journaledUpdate(restored, controls: controls, db))
            }
            return updates
        }
        let receipted = await withReceipts(updates)
        publish(receipted)
        return receipted
    }
}
