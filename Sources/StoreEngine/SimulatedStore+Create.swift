import Foundation
import ServerRecords
import StoreCore
import StoreKitModel
import StoreSQL

/// Xcode 26's "create a transaction" in the transaction manager, "to test in-app purchases made
/// outside of the device": a purchase dated in the past, completed on the App Store's terms at
/// that date (`complete`), then caught up by the renewal sweep's own step (`renewChain`) to now,
/// all in one write. The app hears the purchase and each renewal as updates it has not finished,
/// as of a purchase on another device; servers hear what the App Store sent for them.
extension SimulatedStore {
    /// Creates the transaction in the caller's write; returns its update and its renewals'.
    nonisolated func create(_ creation: TransactionCreation, at now: Date, _ db: any SQLDatabase) throws
        -> [TransactionUpdate]
    {
        let (account, product) = try creationSubjects(creation, at: now)
        let controls = try TestControls.load(db, defaults: defaults)
        let storefront = storefrontOverride ?? controls.storefront ?? account.storefront
        guard product.isSold(in: storefront) else {
            throw StoreFailure(
                "\(product.id) is not sold in storefront \(storefront), \(account.name)'s; see storefront products --storefront \(storefront)",
                kind: .invalid)
        }
        let date = creation.purchaseDate
        try refuseWhatIsHeld(product, by: account.name, from: date, at: now, db)
        var stored = try createdPurchase(creation, product: product, storefront: storefront, db)
        stored.offer = try createdOffer(creation, product: product, at: date, db)
        try complete(&stored, at: date, controls: controls, db)
        let subscription = stored.expiresDate != nil
        if subscription, !creation.autoRenew { stored.autoRenew = false }
        try stored.insert(db)
        var updates = [try journaledUpdate(stored, controls: controls, db)]
        guard subscription else { return updates }
        if !creation.autoRenew {
            try endWithoutRenewal(stored, at: now, db)
            return updates
        }
        updates += try catchUp(stored, controls: controls, at: now, db)
        return updates
    }

    /// The account and the product, once the date is known to be past.
    nonisolated func creationSubjects(_ creation: TransactionCreation, at now: Date) throws -> (Account, Product) {
        guard creation.purchaseDate <= now else {
            throw StoreFailure(
                "the purchase date \(TransactionCreation.text(of: creation.purchaseDate)) is in the future (the store's clock reads \(TransactionCreation.text(of: now))); a transaction made outside the device was bought before now: choose a past date",
                kind: .invalid)
        }
        guard let account = catalog.account(named: creation.account) else {
            throw StoreFailure(
                "unknown account \(creation.account) (this catalog has \(catalog.accounts.map(\.name).joined(separator: ", ")))",
                kind: .invalid)
        }
        guard let product = catalog.product(id: creation.productId), !product.removed else {
            throw StoreFailure(
                "no product \(creation.productId) is sold in this catalog; see storefront products", kind: .invalid)
        }
        return (account, product)
    }

    /// The purchase as a payment of one, dated as asked, before the App Store's terms apply.
    nonisolated func createdPurchase(
        _ creation: TransactionCreation, product: Product, storefront: String, _ db: any SQLDatabase
    ) throws -> StoredTransaction {
        let id = try StoreDatabase.nextTransactionId(db)
        let autoRenewable = product.type == .autoRenewable
        let payment = Payment(productId: product.id, account: creation.account)
        var stored = StoredTransaction(
            transaction: Transaction(
                id: id, originalId: id, payment: payment, state: .purchasing, purchaseDate: creation.purchaseDate),
            storefront: storefront,
            price: (autoRenewable ? product.billingPrice(.upFront, in: storefront) : product.prices[storefront]) ?? 0,
            currency: catalog.storefront(id: storefront)?.currency ?? "USD",
            expiresDate: nil, revocationDate: nil, autoRenew: true, pendingOutcome: nil, reason: .purchase)
        stored.billingPlan = autoRenewable ? .upFront : nil
        stored.appAccountToken = creation.appAccountToken
        return stored
    }

    /// The offer `creation` names, which the account must have been able to take at its date.
    nonisolated func createdOffer(
        _ creation: TransactionCreation, product: Product, at date: Date, _ db: any SQLDatabase
    ) throws -> TransactionOffer? {
        guard let offerId = creation.offerId else { return nil }
        guard product.type == .autoRenewable, let subscription = product.subscription else {
            throw StoreFailure(
                "\(product.id) is a \(product.type.label(in: .english).lowercased()); only an auto-renewable subscription takes an offer: leave the offer out",
                kind: .invalid)
        }
        guard let offer = subscription.offer(id: offerId) else {
            let known = subscription.offers.map(\.id)
            throw StoreFailure(
                "\(product.id) has no offer \(offerId) ("
                    + (known.isEmpty ? "it has none" : "its offers: \(known.joined(separator: ", "))")
                    + "); name one of them, or leave the offer out", kind: .invalid)
        }
        let history = try offerHistory(account: creation.account, at: date, db)
        let verdict = OfferEligibility.verdict(
            for: offer, of: product, history: history, rate: try timeRate(db), at: date)
        if let reason = verdict.reason {
            throw StoreFailure(
                "\(creation.account) could not take offer \(offerId) on \(TransactionCreation.text(of: date)): \(reason.message)",
                kind: .conflict)
        }
        return TransactionOffer(
            type: offer.kind.offerType, id: offer.id, paymentMode: offer.terms.paymentMode, period: offer.terms.period)
    }

    /// The renewals that followed from the purchase date, up to now, with the end of a billing
    /// retry that ran out before now (at most two sweeps' steps of the chain).
    nonisolated func catchUp(
        _ created: StoredTransaction, controls: TestControls, at now: Date, _ db: any SQLDatabase
    ) throws -> [TransactionUpdate] {
        var updates: [TransactionUpdate] = []
        for _ in 0..<2 {
            let latest = try chainLatest(of: created, db)
            guard Self.isDue(latest, at: now) else { break }
            let renewed = try renewChain(latest, controls: controls, at: now, db)
            updates += renewed
            if renewed.count >= Self.renewalsPerSweep, Self.isDue(try chainLatest(of: created, db), at: now) {
                throw tooFarBack(created, rate: controls.timeRate, at: now)
            }
        }
        return updates
    }

    /// A period that has ended with auto-renew on and no billing retry still under way.
    nonisolated static func isDue(_ latest: StoredTransaction, at now: Date) -> Bool {
        guard latest.autoRenew, latest.revocationDate == nil, let end = latest.expiresDate, end <= now else {
            return false
        }
        return latest.billingRetryUntil.map { $0 <= now } ?? true
    }

    /// Auto-renew off: the customer turned it off before the first period ended, and servers
    /// hear that, then EXPIRED once the period is over (now, if it already is; the sweep of
    /// timed events otherwise, the same key keeping it from being told twice).
    nonisolated func endWithoutRenewal(_ stored: StoredTransaction, at now: Date, _ db: any SQLDatabase) throws {
        let originalId = stored.transaction.originalId
        try notify(
            NotificationEvent(.didChangeRenewalStatus, .autoRenewDisabled), about: stored.id, originalId: originalId,
            at: now, db)
        guard let end = stored.expiresDate, end <= now else { return }
        try notify(
            .expired(.autoRenewDisabled), about: stored.id, originalId: originalId, dedupe: Self.expiryKey(stored),
            at: now, db)
    }

    /// More periods passed since the date than one sweep renews: refused, so a store at a fast
    /// time rate is not flooded with renewals.
    nonisolated func tooFarBack(_ created: StoredTransaction, rate: TimeRate, at now: Date) -> StoreFailure {
        let product = created.transaction.productId
        let period = catalog.product(id: product)?.subscription?.period ?? SubscriptionPeriod(value: 1, unit: .month)
        let span = rate.end(of: period, periods: Self.renewalsPerSweep, from: now).timeIntervalSince(now)
        let earliest = now.addingTimeInterval(-span)
        return StoreFailure(
            "from \(TransactionCreation.text(of: created.transaction.purchaseDate)), \(product) would have renewed more than \(Self.renewalsPerSweep) times by now at the time rate \(rate.token); choose a date after about \(TransactionCreation.text(of: earliest)), or a slower time rate (storefront manage set time-rate real)",
            kind: .invalid)
    }
}
