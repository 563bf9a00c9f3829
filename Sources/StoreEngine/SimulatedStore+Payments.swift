import Foundation
import LocalState
import ServerRecords
import StoreCore
import StoreKitModel
import StoreSQL

extension SimulatedStore {
    /// `SKPaymentQueue.add`: records a `purchasing` transaction with the outcome the test controls
    /// chose (durably, so a crash cannot change it), then completes it after the latency; without
    /// one, in the same commit.
    public func add(_ payment: Payment, forcing forced: PaymentOutcome?) async throws -> Transaction {
        let account = try validatedAccount(payment)
        let now = clock.now()
        let added = try await database.write { db in
            try self.insertPayment(payment, account: account, forced: forced, requestKey: nil, at: now, db)
        }
        started(added, completed: added.completed)
        return added.transaction
    }

    /// The payment's account, once its quantity and account are known to be valid.
    nonisolated func validatedAccount(_ payment: Payment) throws -> Account {
        guard Payment.quantityRange.contains(payment.quantity) else {
            throw StoreFailure("quantity \(payment.quantity) is out of range; StoreKit allows 1 to 10", kind: .invalid)
        }
        if case .code = payment.offer, payment.quantity != 1 {
            throw StoreFailure(
                "an offer code redeems one purchase; quantity \(payment.quantity) cannot go with it (send quantity 1)",
                kind: .invalid)
        }
        if let product = catalog.product(id: payment.productId),
            let problem = PurchaseRules.quantityProblem(payment.quantity, for: product)
        {
            throw StoreFailure(problem, kind: .invalid)
        }
        guard let account = catalog.account(named: payment.account) else {
            throw StoreFailure(
                "unknown account \(payment.account) (this catalog has \(catalog.accounts.map(\.name).joined(separator: ", ")))",
                kind: .invalid)
        }
        return account
    }

    struct AddResult: Sendable {
        /// The transaction as added: `purchasing`.
        let transaction: Transaction
        /// What this add inserted; nil when an earlier add of the same request had.
        let inserted: Inserted?
        /// Its outcome, reached in the add's own commit when there is no latency.
        var completed: TransactionUpdate? = nil

        /// The transaction as inserted, and the test controls (as this add left them) that chose its outcome.
        struct Inserted: Sendable {
            let stored: StoredTransaction
            let controls: TestControls
        }

        var isNew: Bool { inserted != nil }
        var latency: Int { inserted?.controls.latencyMilliseconds ?? 0 }
    }

    /// After the add's commit: reports the new transaction, then its outcome, completed in that
    /// commit (`completed`) or after the latency.
    func started(_ added: AddResult, completed: TransactionUpdate?) {
        guard added.isNew else { return }
        publish([TransactionUpdate(transaction: added.transaction, receipt: nil)])
        if let completed {
            // Nobody in this process listens (a server): the journal has the outcome, and a task
            // per payment would only compete with the answer for the cores.
            guard !subscribers.isEmpty else { return }
            Task { self.publish(await self.receipted([completed])) }
            return
        }
        let latency = added.latency
        let id = added.transaction.id
        Task {
            if latency > 0 { try? await Task.sleep(for: .milliseconds(latency)) }
            await self.processRetrying(id)
        }
    }

    /// `process`, tried again while the store cannot write (a full disk: the failure is what
    /// `storageHealth` reports meanwhile), so a payment whose outcome the add recorded reaches it
    /// once the disk has room, instead of staying `purchasing` until the store opens again.
    func processRetrying(_ id: String) async {
        var delay = Self.firstRetryDelay
        while true {
            do {
                return try await process(id)
            } catch {
                try? await Task.sleep(for: delay)
                delay = min(delay * 2, Self.longestRetryDelay)
            }
        }
    }

    static let firstRetryDelay: Duration = .milliseconds(50)
    static let longestRetryDelay: Duration = .seconds(5)

    /// The add's write: a new `purchasing` transaction with the outcome the controls choose, its
    /// owner and its journal entry. `requestKey` (a server's idempotency key and its generation)
    /// is stored on the transaction in the same commit, so a retry with it charges nothing (see
    /// `earlierPayment`).
    nonisolated func insertPayment(
        _ payment: Payment, account: Account, forced: PaymentOutcome?, requestKey: String?,
        at now: Date, _ db: any SQLDatabase
    ) throws -> AddResult {
        let loaded = try TestControls.load(db, defaults: defaults)
        var controls = loaded
        let storefront = storefrontOverride ?? controls.storefront ?? account.storefront
        var outcome = Self.outcome(
            for: payment, account: account, storefront: storefront, forced: forced, controls: &controls,
            catalog: catalog)
        if controls != loaded { try controls.save(db) }  // a one-shot outcome was consumed
        if outcome == .deferred, let waiting = try waitingRequest(for: payment, db) {
            return try askAgain(waiting, controls: controls, at: now, db)
        }
        // The offers asked for are checked as the App Store checks them; a wrong one fails the payment.
        var offers = CheckedOffers(plan: payment.billingPlan ?? .upFront)
        if !outcome.isFailure {
            offers = try checkedOffers(payment, account: account.name, storefront: storefront, at: now, db)
            if let refusal = offers.refusal { outcome = .fail(refusal) }
        }
        let (offer, plan) = (offers.offer, offers.plan)
        let id = try StoreDatabase.nextTransactionId(db)
        let product = catalog.product(id: payment.productId)
        let autoRenewable = product?.type == .autoRenewable
        let price =
            product?.oneTimePrice(of: offer, in: storefront)
            ?? (autoRenewable ? product?.billingPrice(plan, in: storefront) : product?.prices[storefront]) ?? 0
        var stored = StoredTransaction(
            transaction: Transaction(id: id, originalId: id, payment: payment, state: .purchasing, purchaseDate: now),
            storefront: storefront, price: price * Decimal(payment.quantity),
            currency: catalog.storefront(id: storefront)?.currency ?? "USD",
            expiresDate: nil, revocationDate: nil, autoRenew: true, pendingOutcome: outcome, reason: .purchase)
        stored.offer = offer
        stored.billingPlan = autoRenewable ? plan : nil
        stored.introOfferAllowed = offers.introOfferAllowed
        if offer != nil, case .code(let code)? = payment.offer {
            // Redeemed once taken: one-time codes for everyone, custom codes for the account.
            try db.execute(
                sql: "INSERT INTO redeemed_codes (code, account, transaction_id, redeemed_at) VALUES (?, ?, ?, ?)",
                arguments: [code, account.name, id, now.timeIntervalSince1970])
        }
        try Self.journal(TransactionUpdate(transaction: stored.transaction, receipt: nil), at: now, db)
        var added = AddResult(
            transaction: stored.transaction, inserted: AddResult.Inserted(stored: stored, controls: controls))
        // Without latency the payment reaches its outcome in this commit, after its `purchasing`
        // entry: one commit and one fsync, and its row is written once, as it ends up.
        if controls.latencyMilliseconds == 0, let settled = try settled(stored, at: now, controls: controls, db) {
            try settled.insert(owner: ProcessIdentity.current.token, requestKey: requestKey, db)
            added.completed = try journaledUpdate(settled, controls: controls, db)
        } else {
            try stored.insert(owner: ProcessIdentity.current.token, requestKey: requestKey, db)
        }
        return added
    }

    /// What the offers a payment asks for come to: the offer taken and the plan it bills on, the
    /// introductory offer's eligibility the app's server decided, or the SKError refusing them.
    struct CheckedOffers {
        var offer: TransactionOffer?
        var plan: BillingPlanType
        var introOfferAllowed: Bool?
        var refusal: SKErrorCode?
    }

    /// The payment's offer and introductory offer eligibility, each checked as the App Store
    /// checks it; their nonces are spent only when both are accepted.
    nonisolated func checkedOffers(
        _ payment: Payment, account: String, storefront: String, at now: Date, _ db: any SQLDatabase
    ) throws -> CheckedOffers {
        var checked = CheckedOffers(plan: payment.billingPlan ?? .upFront)
        var introNonce: String?
        switch try checkIntroEligibility(payment, at: now, db) {
        case .none: break
        case .refused(let code): return CheckedOffers(plan: checked.plan, refusal: code)
        case .decided(let allowed, let nonce): (checked.introOfferAllowed, introNonce) = (allowed, nonce)
        }
        if payment.offer != nil {
            switch try checkOffer(payment, account: account, storefront: storefront, at: now, db) {
            case .accepted(let offer, let plan): (checked.offer, checked.plan) = (offer, plan)
            case .refused(let code): return CheckedOffers(plan: checked.plan, refusal: code)
            }
        }
        if let introNonce {
            // A promotional offer's JWS spent its nonce above: one signature is not good twice.
            guard try !nonceUsed(introNonce, db) else {
                return CheckedOffers(plan: checked.plan, refusal: .invalidSignature)
            }
            try spendNonce(introNonce, at: now, db)
        }
        return checked
    }

    /// The transaction that an earlier request with `requestKey` added, as it was when added (the
    /// answer to a retried add is the answer to the first one); nil when there is none. The same
    /// key for a different payment is refused as a conflict.
    nonisolated func earlierPayment(_ payment: Payment, requestKey: String, _ db: any SQLDatabase) throws -> AddResult?
    {
        guard let earlier = try StoredTransaction.fetchAll(db, where: "request_key = ?", [requestKey]).first else {
            return nil
        }
        let old = earlier.transaction
        guard old.productId == payment.productId, old.quantity == payment.quantity,
            old.payment.account == payment.account
        else {
            throw StoreFailure(
                "request key \(requestKey) was used for another payment (\(old.productId) ×\(old.quantity) for \(old.payment.account))",
                kind: .conflict)
        }
        return AddResult(
            transaction: Transaction(
                id: old.id, originalId: old.originalId, payment: old.payment, state: .purchasing,
                purchaseDate: old.purchaseDate),
            inserted: nil)
    }

    /// The store's rules first (unknown product, not sold here, payments not allowed), then the
    /// outcome forced for this payment, else the test controls (the one-shot next outcome, which
    /// this payment consumes, else the per-product override, else a simulated purchase error,
    /// else interrupted purchases), then Ask to Buy.
    static func outcome(
        for payment: Payment, account: Account, storefront: String, forced: PaymentOutcome?,
        controls: inout TestControls, catalog: Catalog
    ) -> PaymentOutcome {
        guard let product = catalog.product(id: payment.productId), !product.removed else {
            return .fail(.paymentInvalid)
        }
        guard product.isSold(in: storefront) else { return .fail(.storeProductNotAvailable) }
        if let plan = payment.billingPlan, product.billingPlanProblem(plan, in: storefront) != nil {
            return .fail(.storeProductNotAvailable)  // a plan the product does not offer there
        }
        guard controls.paymentsAllowed && account.paymentsAllowed else { return .fail(.paymentNotAllowed) }
        // The next outcome is set for one payment, so it comes before the standing ones; it is also
        // how a forced outcome reaches a server (`RemoteStore.add`), which must act as in process.
        let oneShot = controls.nextOutcome == .success ? nil : controls.nextOutcome
        let chosen =
            forced ?? oneShot ?? controls.productOutcomes[payment.productId]
            ?? controls.apiErrors[.purchase].map(PaymentOutcome.init(failure:))
            ?? (controls.interruptedPurchases ? .interrupted : .success)
        if forced == nil, oneShot != nil, !controls.everyPurchase { controls.nextOutcome = .success }
        let forced = chosen
        if forced == .success && (controls.askToBuy || account.askToBuy) { return .deferred }
        return forced
    }

    /// Moves a `purchasing` transaction to its recorded outcome and reports it.
    func process(_ id: String) async throws {
        let now = clock.now()
        let updates: [TransactionUpdate] = try await database.write { db in
            try self.resolve(id, at: now, db).map { [$0] } ?? []
        }
        publish(await receipted(updates))
    }

    /// In the caller's write: moves a `purchasing` transaction to its recorded outcome and
    /// journals it; nil when it is no longer purchasing.
    nonisolated func resolve(_ id: String, at now: Date, _ db: any SQLDatabase) throws -> TransactionUpdate? {
        guard let stored = try StoredTransaction.fetch(db, id: id) else { return nil }
        return try resolve(stored, at: now, controls: TestControls.load(db, defaults: defaults), db)
    }

    /// `resolve` for a transaction as it is stored (one this write has just inserted, say), under
    /// the test controls as this write has them.
    nonisolated func resolve(_ stored: StoredTransaction, at now: Date, controls: TestControls, _ db: any SQLDatabase)
        throws
        -> TransactionUpdate?
    {
        guard let settled = try settled(stored, at: now, controls: controls, db) else { return nil }
        try settled.update(db)
        return try journaledUpdate(settled, controls: controls, db)
    }

    /// A `purchasing` transaction with its outcome applied, not yet written; nil for any other.
    nonisolated func settled(_ stored: StoredTransaction, at now: Date, controls: TestControls, _ db: any SQLDatabase)
        throws
        -> StoredTransaction?
    {
        guard stored.transaction.state == .purchasing else { return nil }
        var stored = stored
        switch stored.pendingOutcome ?? .success {
        case .success:
            try complete(&stored, at: now, controls: controls, db)
        case .cancel:
            stored.fail(.storeKit(.paymentCancelled))
        case .fail(let code):
            stored.fail(.storeKit(code))
        case .network(let code):
            stored.fail(.network(code))
        case .deferred:
            stored.transaction.state = .deferred
            stored.pendingOutcome = nil
        case .interrupted:
            stored.fail(.storeKit(.unknown))
            stored.pendingOutcome = .interrupted  // marks it resolvable in the transaction manager
        }
        return stored
    }

    /// `withReceipts` for updates about to be published: nobody needs their receipts when nobody
    /// in this process listens (a server's clients read updates, receipts included, from the journal).
    func receipted(_ updates: [TransactionUpdate]) async -> [TransactionUpdate] {
        subscribers.isEmpty ? updates : await withReceipts(updates)
    }

    /// The updates with the account's receipt on each purchased or restored one, read after the
    /// commit, each account's once: a restore or a sweep of renewals gives many updates, and a
    /// receipt per update would grow with the square of the account's purchases. The write has
    /// committed, so its updates are reported whatever happens to this read: an update left
    /// without its receipt has the app defer verification, rather than hear nothing of a purchase,
    /// an approval or a restore that happened.
    func withReceipts(_ updates: [TransactionUpdate]) async -> [TransactionUpdate] {
        var receipts: [String: String] = [:]
        var result: [TransactionUpdate] = []
        for update in updates {
            guard update.receipt == nil, update.transaction.state.hasReceipt else {
                result.append(update)
                continue
            }
            let account = update.transaction.payment.account
            if receipts[account] == nil { receipts[account] = try? await currentReceipt(account: account) }
            result.append(TransactionUpdate(transaction: update.transaction, receipt: receipts[account]))
        }
        return result
    }

    /// `purchased`, on the App Store's terms (`PurchaseRules`): what the account already has is
    /// delivered again without a charge, an eligible subscriber gets the introductory offer, a new
    /// subscription period continues the account's subscription in its group, and a plan change
    /// that waits for the renewal charges nothing now.
    nonisolated func complete(
        _ stored: inout StoredTransaction, at now: Date, controls: TestControls, _ db: any SQLDatabase
    )
        throws
    {
        stored.transaction.state = .purchased
        stored.pendingOutcome = nil
        stored.transaction.error = nil
        guard let product = catalog.product(id: stored.transaction.productId) else { return }
        guard product.type != .consumable else {
            stored.notification = NotificationEvent(.oneTimeCharge)
            return
        }
        let account = stored.transaction.payment.account
        let holdings = try holdings(account: account, excluding: stored.id, at: now, db)
        let plan = stored.billingPlan ?? .upFront
        let quote = PurchaseRules.quote(
            product, quantity: stored.transaction.quantity, storefront: stored.storefront,
            holdings: Self.introDecided(holdings, by: stored.introOfferAllowed, for: product), catalog: catalog,
            plan: plan)
        if let price = quote.price { stored.price = price }
        if let offer = stored.offer, offer.paymentMode == .oneTime {
            if case .alreadyOwned = quote.basis {
                // Owned already: delivered again for nothing, and the code is not spent on it.
                stored.offer = nil
                try db.execute(sql: "DELETE FROM redeemed_codes WHERE transaction_id = ?", arguments: [stored.id])
            } else if let special = product.oneTimePrice(of: offer, in: stored.storefront) {
                stored.price = special * Decimal(stored.transaction.quantity)
            }
        }
        stored.notification = Self.purchaseEvent(
            product, basis: quote.basis, offer: stored.offer,
            subscribedBefore: product.subscription?.group.map(holdings.groupsSubscribed.contains) ?? false)
        // A non-renewing subscription's term is the app's to keep and extend: Apple's
        // transactions and receipts carry an expiry for auto-renewable subscriptions only.
        guard product.type == .autoRenewable, let subscription = product.subscription else {
            if case .alreadyOwned = quote.basis { try redownloadOwned(&stored, db) }
            return
        }
        if try completeAtRenewal(&stored, product: product, basis: quote.basis, at: now, db) { return }
        try continueSubscription(&stored, product: product, db)
        var offerTerms: IntroOffer?
        if let requested = stored.offer, requested.type != .introductory,
            let terms = terms(of: requested, product: product)
        {
            // A promotional, code or win-back offer the store accepted, starting now.
            stored.price = terms.firstPayment(in: stored.storefront) ?? stored.price
            stored.expiresDate = terms.firstTermEnd(at: controls.timeRate, from: now)
            offerTerms = terms
        } else if case .introductory(let offer) = quote.basis {
            stored.offer = TransactionOffer(
                type: .introductory, id: nil, paymentMode: offer.paymentMode, period: offer.period)
            stored.expiresDate = offer.firstTermEnd(at: controls.timeRate, from: now)
            offerTerms = offer
        } else {
            stored.expiresDate = controls.timeRate.end(of: subscription.period, from: now)
        }
        if plan == .monthly {
            // Each payment is a month, an offer's months included.
            let total =
                subscription.commitment?.commitmentPrice(in: stored.storefront, offer: offerTerms) ?? stored.price
            startCommitment(&stored, total: total, start: now, controls: controls)
        }
        try endPlans(inGroupOf: stored, product: product, basis: quote.basis, at: now, db)
    }

    /// `holdings` as the introductory offer's rule reads them once the app's server has decided
    /// eligibility (`.introductoryOfferEligibility(compactJWS:)`): its decision replaces the
    /// App Store's own, whether the account subscribed in the group before.
    static func introDecided(_ holdings: Holdings, by allowed: Bool?, for product: Product) -> Holdings {
        guard let allowed, let group = product.subscription?.group else { return holdings }
        var decided = holdings
        if allowed { decided.groupsSubscribed.remove(group) } else { decided.groupsSubscribed.insert(group) }
        return decided
    }

    /// The purchases of a subscription that start nothing now: the plan in force bought again
    /// (delivered again), and a downgrade, a crossgrade to another duration or an offer taken on
    /// the plan in force, which wait for its renewal. False when `basis` starts a period now.
    nonisolated func completeAtRenewal(
        _ stored: inout StoredTransaction, product: Product, basis: PurchaseQuote.Basis, at now: Date,
        _ db: any SQLDatabase
    ) throws -> Bool {
        let offer = stored.offer.flatMap { $0.type == .introductory ? nil : $0 }
        switch basis {
        case .alreadySubscribed where offer != nil:
            try offerAtNextRenewal(&stored, from: product.id, at: now, db)
        case .alreadySubscribed:
            try redownloadPlanInForce(&stored, at: now, db)
        case .atNextRenewal(let from, _):
            if offer != nil { try offerAtNextRenewal(&stored, from: from, at: now, db) }
            try changePlanAtRenewal(&stored, from: from, at: now, db)
        default:
            return false
        }
        return true
    }

    /// One plan per group: the plans in force that `stored` replaces end now. The plan an
    /// upgrade replaces (`basis`) is marked upgraded, with the refund the quote promised; its
    /// period keeps the expiry it was sold with, and an upgraded period grants nothing.
    nonisolated func endPlans(
        inGroupOf stored: StoredTransaction, product: Product, basis: PurchaseQuote.Basis, at now: Date,
        _ db: any SQLDatabase
    ) throws {
        guard product.type == .autoRenewable, let group = product.subscription?.group else { return }
        for var active in try activeSubscriptions(account: stored.transaction.payment.account, at: now, db)
        where active.id != stored.id {
            guard catalog.product(id: active.transaction.productId)?.subscription?.group == group else { continue }
            if case .replacesNow(let from, let refund) = basis, from == active.transaction.productId {
                active.upgrade = Upgrade(date: now, refund: refund)
            } else if let expiry = active.expiresDate, expiry > now {
                active.expiresDate = now  // a plan in billing retry, or one a previous version left in force
            }
            active.autoRenew = false
            active.renewalProductId = nil
            active.billingRetryUntil = nil
            active.graceExpires = nil
            try active.update(db)
        }
    }

    /// The latest transaction of the account's chain of `productId` in force, other than `stored`.
    nonisolated func planInForce(_ productId: String, of stored: StoredTransaction, at now: Date, _ db: any SQLDatabase)
        throws
        -> StoredTransaction?
    {
        try activeSubscriptions(account: stored.transaction.payment.account, at: now, db)
            .first { $0.transaction.productId == productId && $0.id != stored.id }
    }

    /// A downgrade (or a crossgrade to another duration) waits for the next renewal: nothing is
    /// charged, no period starts, and the plan in force renews to the new product.
    nonisolated func changePlanAtRenewal(
        _ stored: inout StoredTransaction, from: String, at now: Date, _ db: any SQLDatabase
    )
        throws
    {
        guard var active = try planInForce(from, of: stored, at: now, db) else { return }
        let product = stored.transaction.productId
        // The same product on its other billing plan changes only the plan.
        active.renewalProductId = product == active.transaction.productId ? nil : product
        active.renewalPlan = stored.billingPlan
        try active.update(db)
        stored.notificationSubject = NotificationSubject(id: active.id, originalId: active.transaction.originalId)
        stored.becomesCopy(of: active, reason: .planChange)
    }

    /// The offer `stored` carries is kept by the plan in force (`from`) for its next renewal;
    /// nothing is charged now and no period starts.
    nonisolated func offerAtNextRenewal(
        _ stored: inout StoredTransaction, from: String, at now: Date, _ db: any SQLDatabase
    )
        throws
    {
        guard var active = try planInForce(from, of: stored, at: now, db) else { return }
        active.renewalOffer = stored.offer
        try active.update(db)
        stored.notificationSubject = NotificationSubject(id: active.id, originalId: active.transaction.originalId)
        stored.becomesCopy(of: active, reason: .planChange)
    }

    /// The latest transaction of each auto-renewable chain that is still in force or in billing retry.
    nonisolated func activeSubscriptions(account: String, at now: Date, _ db: any SQLDatabase) throws
        -> [StoredTransaction]
    {
        let rows = try StoredTransaction.fetchAll(
            db,
            where:
                "account = ? AND state = \(StateSQL.purchased) AND expires_date IS NOT NULL AND revocation_date IS NULL AND reason != ?",
            [account, TransactionReason.planChange.rawValue])
        var latest: [String: StoredTransaction] = [:]
        for row in rows where catalog.product(id: row.transaction.productId)?.type == .autoRenewable {
            latest[row.transaction.originalId] = row
        }
        // A chain in billing retry counts too: a new plan of its group replaces it.
        return latest.values.filter { inForce($0, at: now) || $0.billingRetryUntil != nil }.sorted { $0.id < $1.id }
    }

    public func finish(transactionId: String, account: String) async throws {
        try await database.write { db in
            guard var stored = try StoredTransaction.fetch(db, id: transactionId) else {
                throw StoreFailure("no transaction \(transactionId); see `storefront transactions`", kind: .notFound)
            }
            guard stored.transaction.payment.account == account else {
                throw StoreFailure(
                    "\(account) has no transaction \(transactionId): an app finishes only its account's own "
                        + "(see `storefront transactions --account \(account)`)", kind: .notFound)
            }
            switch stored.transaction.state {
            case .purchasing:
                throw StoreFailure(
                    "transaction \(transactionId) is still purchasing; StoreKit refuses to finish it until it completes",
                    kind: .conflict)
            case .deferred:
                throw StoreFailure(
                    "transaction \(transactionId) is deferred (waiting for Ask to Buy approval); an app must not finish it",
                    kind: .conflict)
            default:
                stored.transaction.finished = true
                try stored.update(db)
            }
        }
    }

    public func unfinished(account: String) async throws -> [TransactionUpdate] {
        return try await database.read { db in
            let controls = try TestControls.load(db, defaults: self.defaults)
            let updates = try StoredTransaction.fetchAll(
                db, where: "account = ? AND finished = 0 AND state != \(StateSQL.purchasing)", [account]
            )
            .map { self.update(for: $0, controls: controls) }
            // One receipt for them all, built in the same read, when any of them carries one.
            guard updates.contains(where: { $0.transaction.state.hasReceipt }) else { return updates }
            let receipt = try self.receipt(account: account, db)
            return updates.map {
                TransactionUpdate(transaction: $0.transaction, receipt: $0.transaction.state.hasReceipt ? receipt : nil)
            }
        }
    }
}

extension StoredTransaction {
    mutating func fail(_ error: StoreError) {
        transaction.state = .failed
        transaction.error = error
        pendingOutcome = nil
    }
}
