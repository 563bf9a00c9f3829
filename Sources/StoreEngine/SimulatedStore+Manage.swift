import Foundation
import GRDB
import LocalState
import StoreCore
import StoreKitModel

extension SimulatedStore {
    /// Renews every auto-renewable subscription whose period ended while auto-renew is on: one new
    /// `purchased` transaction per elapsed period, under the current time rate.
    public func renewDue() async throws {
        let now = clock.now()
        // Nearly always nothing is due: a read says so without taking the write lock (this runs at
        // every start, every second in a server, and before every unfinished-transactions read).
        guard try await database.pool.guardedRead({ db in try !self.dueForRenewal(at: now, db).isEmpty }) else { return }
        let updates: [TransactionUpdate] = try await database.writer.write { db in
            let controls = try TestControls.load(db, defaults: self.defaults)
            var updates: [TransactionUpdate] = []
            for (latest, period) in try self.dueForRenewal(at: now, db) {
                var previous = latest
                // At most a year of renewals per sweep, so a huge gap under a fast rate cannot stall the store.
                for _ in 0..<400 {
                    guard let start = previous.expiresDate, start <= now else { break }
                    previous = try self.renewal(after: previous, start: start, period: period, controls: controls, db)
                    updates.append(try self.record(previous, controls: controls, db))
                }
            }
            return updates
        }
        publish(await receipted(updates))
    }

    /// The latest transaction of each auto-renewable chain whose period has ended with auto-renew
    /// on, with its product's period. Expired non-renewing subscriptions (auto-renew is never
    /// turned off on them) and products gone from the catalog match the query but not this.
    private nonisolated func dueForRenewal(at now: Date, _ db: Database) throws -> [(StoredTransaction, SubscriptionPeriod)] {
        try StoredTransaction.fetchAll(db, where: "state = \(StateSQL.purchased) AND expires_date IS NOT NULL AND revocation_date IS NULL AND auto_renew = 1 AND expires_date <= ?",
                                       [now.timeIntervalSince1970])
            .compactMap { stored in
                guard let product = catalog.product(id: stored.transaction.productId), product.type == .autoRenewable,
                      let period = product.subscription?.period, try Self.isLatest(stored, db) else { return nil }
                return (stored, period)
            }
    }

    private static func isLatest(_ stored: StoredTransaction, _ db: Database) throws -> Bool {
        let newer = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM transactions WHERE original_id = ? AND seq > (SELECT seq FROM transactions WHERE id = ?) AND state = \(StateSQL.purchased)",
                                     arguments: [stored.transaction.originalId, stored.id]) ?? 0
        return newer == 0
    }

    /// The next period of `previous`'s chain from `start`: at the introductory price while a
    /// pay-as-you-go offer has periods left, else at the product's price in the chain's storefront.
    nonisolated func renewal(after previous: StoredTransaction, start: Date, period: SubscriptionPeriod, controls: TestControls,
                             _ db: Database) throws -> StoredTransaction {
        var ended = previous
        ended.autoRenew = false  // the chain continues in the new transaction
        try ended.update(db)
        let id = try StoreDatabase.nextTransactionId(db)
        let old = previous.transaction
        let product = catalog.product(id: old.productId)
        var price = product?.prices[previous.storefront] ?? previous.price
        var seconds = controls.timeRate.seconds(for: period)
        var offer: TransactionOffer?
        if let intro = product?.subscription?.introOffer, previous.offer?.type == .introductory, intro.paymentMode == .payAsYouGo,
           let offerPrice = intro.prices[previous.storefront], try Self.offerPeriods(chain: old.originalId, db) < intro.periods {
            price = offerPrice
            seconds = controls.timeRate.seconds(for: intro.period)
            offer = previous.offer
        }
        var renewal = StoredTransaction(
            transaction: Transaction(id: id, originalId: old.originalId,
                                     payment: Payment(productId: old.productId, quantity: 1, applicationUsername: old.payment.applicationUsername, account: old.payment.account),
                                     state: .purchased, purchaseDate: start),
            storefront: previous.storefront, price: price, currency: previous.currency,
            expiresDate: start.addingTimeInterval(seconds), revocationDate: nil, autoRenew: true, pendingOutcome: nil, reason: .renewal)
        renewal.offer = offer
        try renewal.insert(db)
        return renewal
    }

    /// Xcode's forced renewal: the period in force ends now and the next one starts, so periods
    /// never overlap; a chain that has expired renews from now.
    nonisolated func forcedRenewal(of stored: StoredTransaction, period: SubscriptionPeriod, at now: Date, controls: TestControls,
                                   _ db: Database) throws -> StoredTransaction {
        guard var latest = try StoredTransaction.fetchAll(db, where: "original_id = ? AND state = \(StateSQL.purchased)", [stored.transaction.originalId]).last else {
            throw StoreFailure("transaction \(stored.id) is \(stored.transaction.state.name); only a purchased subscription can be renewed", kind: .conflict)
        }
        guard latest.revocationDate == nil else {
            throw StoreFailure("transaction \(latest.id) was refunded; a refunded subscription does not renew", kind: .conflict)
        }
        if let expiry = latest.expiresDate, expiry > now { latest.expiresDate = now }
        return try renewal(after: latest, start: now, period: period, controls: controls, db)
    }

    /// How many periods of a chain were paid at its introductory offer.
    private static func offerPeriods(chain originalId: String, _ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM transactions WHERE original_id = ? AND offer_type = ? AND state = \(StateSQL.purchased)",
                         arguments: [originalId, OfferType.introductory.rawValue]) ?? 0
    }

    /// `restoreCompletedTransactions`: a new `restored` transaction for each non-consumable and
    /// auto-renewable subscription the account owns. A forced failure (network, SKError) fails the restore.
    public func restore(account: String) async throws -> [TransactionUpdate] {
        try await renewDue()
        let now = clock.now()
        // A forced failure is consumed in its own commit: thrown inside the write it would roll back.
        let failure: StoreError? = try await database.writer.write { db in
            var controls = try TestControls.load(db, defaults: self.defaults)
            let failure: StoreError? = switch controls.nextOutcome {
            case .fail(let code): .storeKit(code)
            case .network(let code): .network(code)
            // The user dismissed the App Store sign-in that restore asks for.
            case .cancel: .storeKit(.paymentCancelled)
            default: nil
            }
            guard failure != nil else { return nil }
            controls.nextOutcome = .success
            try controls.save(db)
            return failure
        }
        if let failure { throw failure }
        let updates: [TransactionUpdate] = try await database.writer.write { db in
            let controls = try TestControls.load(db, defaults: self.defaults)
            var latest: [String: StoredTransaction] = [:]
            for row in try StoredTransaction.fetchAll(db, where: "account = ? AND state = \(StateSQL.purchased) AND revocation_date IS NULL", [account]) {
                guard let product = self.catalog.product(id: row.transaction.productId), product.type.isRestorable else { continue }
                latest[product.id] = row
            }
            var updates: [TransactionUpdate] = []
            for original in latest.values.sorted(by: { $0.id < $1.id }) {
                let id = try StoreDatabase.nextTransactionId(db)
                let old = original.transaction
                let restored = StoredTransaction(
                    transaction: Transaction(id: id, originalId: old.originalId, payment: old.payment, state: .restored, purchaseDate: now),
                    storefront: original.storefront, price: 0, currency: original.currency,
                    expiresDate: original.expiresDate, revocationDate: nil, autoRenew: false, pendingOutcome: nil, reason: .restore)
                try restored.insert(db)
                updates.append(try self.record(restored, controls: controls, db))
            }
            return updates
        }
        let receipted = await withReceipts(updates)
        publish(receipted)
        return receipted
    }
}
