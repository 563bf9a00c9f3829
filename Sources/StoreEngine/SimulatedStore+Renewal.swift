import Foundation
import LocalState
import ServerRecords
import StoreCore
import StoreKitModel
import StoreSQL

extension SimulatedStore {
    /// What becomes of a chain whose period ended with auto-renew on.
    enum RenewalStep {
        case renew(Product, SubscriptionPeriod)
        /// The renewal fails to bill: billing retry (and grace, when on) starts.
        case billingRetry(SubscriptionPeriod)
        case stop(ExpirationReason)
    }

    /// Renews every auto-renewable subscription whose period ended while auto-renew is on: one new
    /// `purchased` transaction per elapsed period, under the current time rate, each starting at
    /// the previous one's expiry. A renewal that cannot bill starts billing retry instead; one
    /// that may not happen (a price increase not agreed, the product gone, billing retry over)
    /// ends the subscription with its reason. Ask to Buy requests nobody answered in time expire
    /// in the same sweep.
    func renewDue() async throws {
        let now = clock.now()
        // Nearly always nothing is due: a read says so without taking the write lock (this runs at
        // every start, every second in a server, and before every unfinished-transactions read).
        guard
            try await database.read({ db in
                try self.hasDueRenewals(at: now, db) || self.hasExpiredAskToBuyRequest(at: now, db)
            })
        else { return }
        // In writes of `renewalBatch` chains, in the order they were stored: each write holds the
        // store's one writer (on PostgreSQL, every server's) for a moment, so payments and the other
        // servers' writes go on between them, however many subscriptions are due.
        var after: Int64 = 0
        var first = true
        while true {
            let from = after
            let expireRequests = first
            let (updates, last): ([TransactionUpdate], Int64?) = try await database.write { db in
                let controls = try TestControls.load(db, defaults: self.defaults)
                if expireRequests { try self.expireAskToBuyRequests(at: now, controls: controls, db) }
                var updates: [TransactionUpdate] = []
                let (due, last) = try self.dueForRenewal(at: now, after: from, limit: Self.renewalBatch, db)
                for latest in due {
                    updates += try self.renewChain(latest, controls: controls, at: now, db)
                }
                return (updates, last)
            }
            publish(await receipted(updates))
            guard let last else { return }
            after = last
            first = false
        }
    }

    /// Chains a sweep renews in one write.
    static let renewalBatch = 256

    /// Periods one chain renews in one sweep.
    static let renewalsPerSweep = 400

    /// One due chain in a sweep: its renewals up to now, or the billing retry or the end its
    /// latest period comes to. Returns the renewals' updates.
    nonisolated func renewChain(
        _ latest: StoredTransaction, controls: TestControls, at now: Date, _ db: any SQLDatabase
    ) throws -> [TransactionUpdate] {
        var updates: [TransactionUpdate] = []
        var previous = latest
        // At most a year of renewals per sweep, so a huge gap under a fast rate cannot stall the store.
        periods: for _ in 0..<Self.renewalsPerSweep {
            // The last month of a cancelled commitment is billed with auto-renew off: nothing
            // follows it, however many periods this sweep catches up on.
            guard previous.autoRenew, let start = previous.expiresDate, start <= now else { break }
            switch self.renewalStep(previous, controls: controls) {
            case .renew(let product, let period):
                previous = try self.renewal(
                    after: previous, to: product, start: start, period: period, controls: controls, db)
                updates.append(try self.journaledUpdate(previous, controls: controls, db))
                continue periods
            case .billingRetry(let period):
                try self.startBillingRetry(
                    &previous, from: start, period: period, controls: controls, at: now, db)
            case .stop(let reason):
                previous.autoRenew = false
                previous.expirationReason = reason
                previous.billingRetryUntil = nil
                previous.graceExpires = nil
                try self.notify(
                    .expired(reason), about: previous.id, originalId: previous.transaction.originalId,
                    dedupe: Self.expiryKey(previous), at: now, db)
            }
            try previous.update(db)
            break periods
        }
        return updates
    }

    /// The renewal at `start` failed to bill: billing retry starts (and the grace period, when on),
    /// and servers hear DID_FAIL_TO_RENEW.
    nonisolated func startBillingRetry(
        _ latest: inout StoredTransaction, from start: Date, period: SubscriptionPeriod, controls: TestControls,
        at now: Date, _ db: any SQLDatabase
    ) throws {
        // The monthly plan has no grace period and a longer billing retry (90 days, not 60).
        let monthly = Self.nextBillingPlan(after: latest) == .monthly
        let grace = controls.gracePeriod && !monthly
        let rate = controls.timeRate
        latest.billingRetryUntil = start.addingTimeInterval(
            monthly ? rate.commitmentBillingRetryPeriod : rate.billingRetryPeriod)
        latest.graceExpires = grace ? start.addingTimeInterval(rate.gracePeriod(for: period)) : nil
        try notify(
            NotificationEvent(.didFailToRenew, grace ? .gracePeriod : nil), about: latest.id,
            originalId: latest.transaction.originalId, at: now, db)
    }

    nonisolated func renewalStep(_ latest: StoredTransaction, controls: TestControls) -> RenewalStep {
        // A chain in billing retry is found again only once retrying has ended.
        if latest.billingRetryUntil != nil { return .stop(.billingError) }
        // A price increase waits for the end of a commitment, as a plan change does.
        if latest.priceIncrease == .pending, !Self.inCommitment(latest) { return .stop(.didNotConsentToPriceIncrease) }
        guard let (product, period) = try? nextPlan(of: latest), product.type == .autoRenewable,
            product.isSold(in: latest.storefront)
        else { return .stop(.productUnavailable) }
        return controls.billingIssues ? .billingRetry(period) : .renew(product, period)
    }

    /// The latest transaction of each auto-renewable chain whose period has ended with auto-renew
    /// on and no billing retry under way. Expired non-renewing subscriptions (auto-renew is never
    /// turned off on them) match the query but not this; products gone from the catalog do, and end.
    nonisolated func dueForRenewal(at now: Date, after seq: Int64, limit: Int, _ db: any SQLDatabase) throws -> (
        due: [StoredTransaction], last: Int64?
    ) {
        let rows = try SQLRow.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT \(StoredTransaction.columns), seq FROM transactions
                    WHERE \(Self.dueCondition) AND seq > ? ORDER BY seq LIMIT ?
                    """),
            arguments: [now.timeIntervalSince1970, now.timeIntervalSince1970, seq, limit])
        // A full page may have more after it: the next write goes on from its last row.
        let last: Int64? = rows.count == limit ? try rows.last?[StoredTransaction.fieldCount] : nil
        return (try rows.map(StoredTransaction.init(row:)).filter { renews($0.transaction.productId) }, last)
    }

    /// Whether a sweep has anything to renew: nearly always not. Only the due rows' products are
    /// read, and only until one renews.
    nonisolated func hasDueRenewals(at now: Date, _ db: any SQLDatabase) throws -> Bool {
        try String.first(
            db.cachedStatement(sql: "SELECT product_id FROM transactions WHERE \(Self.dueCondition)"),
            arguments: [now.timeIntervalSince1970, now.timeIntervalSince1970], where: renews) != nil
    }

    /// Auto-renewable in the catalog, or gone from it (such a chain is swept and ends).
    nonisolated func renews(_ productId: String) -> Bool {
        let type = catalog.product(id: productId)?.type
        return type == nil || type == .autoRenewable
    }

    /// A chain's latest period whose end has come with auto-renew on and no billing retry under
    /// way, in one query: the latest is the one with no newer purchased period in its chain
    /// (`transactions_chain`), which a query per due row took most of a sweep to find.
    static let dueCondition = """
        state = \(StateSQL.purchased) AND ownership = '\(OwnershipType.purchased.rawValue)' \
        AND expires_date IS NOT NULL AND revocation_date IS NULL AND auto_renew = 1 \
        AND expires_date <= ? AND (billing_retry_until IS NULL OR billing_retry_until <= ?) \
        AND NOT EXISTS (SELECT 1 FROM transactions newer WHERE newer.original_id = transactions.original_id \
            AND newer.seq > transactions.seq AND newer.state = \(StateSQL.purchased))
        """

    static func isLatest(_ stored: StoredTransaction, _ db: any SQLDatabase) throws -> Bool {
        let newer =
            try Int.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT COUNT(*) FROM transactions WHERE original_id = ? \
                        AND seq > (SELECT seq FROM transactions WHERE id = ?) AND state = \(StateSQL.purchased)
                        """),
                arguments: [stored.transaction.originalId, stored.id]) ?? 0
        return newer == 0
    }

    /// The next period of `previous`'s chain, of `product`, from `start`: at the introductory
    /// price while a pay-as-you-go offer has periods left, else at the product's price in the
    /// chain's storefront.
    /// `chargedAt`: when it was billed, when not at `start` (a billing issue resolved in the grace
    /// period bills now for the period that started at the renewal date). `previous` is as the
    /// database has it: a caller that changed it writes it first.
    nonisolated func renewal(
        after previous: StoredTransaction, to product: Product, start: Date, period: SubscriptionPeriod,
        controls: TestControls, chargedAt: Date? = nil, _ db: any SQLDatabase
    ) throws -> StoredTransaction {
        try previous.stopRenewing(db)  // the chain continues in the new transaction
        let id = try StoreDatabase.nextTransactionId(db)
        let old = previous.transaction
        let continuing = Self.inCommitment(previous)
        let plan = renewalPlan(after: previous, to: product)
        let increased = continuing ? nil : previous.increasedPrice(renewingTo: product.id)
        var price = increased ?? product.billingPrice(plan, in: previous.storefront) ?? previous.price
        var expires = controls.timeRate.end(of: period, from: start)
        var offer: TransactionOffer?
        var offerTerms: IntroOffer?
        if !continuing, let waiting = previous.renewalOffer, let terms = terms(of: waiting, product: product) {
            // An offer taken on the plan in force starts with this renewal.
            price = terms.firstPayment(in: previous.storefront) ?? price
            expires = terms.firstTermEnd(at: controls.timeRate, from: start)
            offer = waiting
            offerTerms = terms
        } else if product.id == old.productId, plan == previous.billingPlan ?? .upFront, let current = previous.offer,
            let terms = try offerGoesOn(
                previous, periodsTaken: { try Self.offerPeriods(chain: old.originalId, offer: current, db) }),
            let offerPrice = terms.firstPayment(in: previous.storefront)
        {
            price = offerPrice
            expires = controls.timeRate.end(of: terms.period, from: start)
            offer = current
        }
        var renewal = StoredTransaction(
            transaction: Transaction(
                id: id, originalId: old.originalId,
                payment: Payment(
                    productId: product.id, quantity: 1, applicationUsername: old.payment.applicationUsername,
                    account: old.payment.account),
                state: .purchased, purchaseDate: chargedAt ?? start),
            storefront: previous.storefront, price: price, currency: previous.currency,
            expiresDate: expires, revocationDate: nil, autoRenew: true, pendingOutcome: nil,
            reason: .renewal)
        renewal.offer = offer
        renewal.priceIncrease = previous.priceIncrease == .agreed ? nil : previous.priceIncrease
        renewal.renewalPrice = increased
        renewal.appAccountToken = previous.appAccountToken
        renewal.notification = NotificationEvent(.didRenew)
        if continuing {
            continueCommitment(&renewal, after: previous, start: start, controls: controls)
        } else if plan == .monthly {
            let monthly = increased ?? product.billingPrice(.monthly, in: previous.storefront) ?? price
            let total =
                increased.map { $0 * Decimal(CommitmentPlan.totalBillingPeriods) }
                ?? product.subscription?.commitment?.commitmentPrice(in: previous.storefront, offer: offerTerms)
                ?? monthly * Decimal(CommitmentPlan.totalBillingPeriods)
            startCommitment(&renewal, total: total, start: start, controls: controls)
        } else {
            renewal.billingPlan = .upFront
        }
        try renewal.insert(db)
        return renewal
    }

    /// The plan the payment after `previous` is billed on when it renews to `product`: the
    /// commitment's months go on; after them, or up front, the plan the customer chose, up front
    /// where the product no longer offers the monthly plan in the storefront.
    nonisolated func renewalPlan(after previous: StoredTransaction, to product: Product) -> BillingPlanType {
        let plan = Self.nextBillingPlan(after: previous)
        guard plan == .monthly, !Self.inCommitment(previous) else { return plan }
        return product.billingPrice(.monthly, in: previous.storefront) == nil ? .upFront : .monthly
    }

    /// Xcode's forced renewal: the period in force ends now and the next one starts, so periods
    /// never overlap; a chain that has expired renews from now.
    /// A renewal now, as Xcode's forced renewal: the period ends and the next begins. With billing
    /// issues on, the renewal fails to bill as one at the period's end would: the period ends and
    /// billing retry starts (nil: no renewal was made). A subscription already in billing retry
    /// renews: the retry succeeded.
    nonisolated func forcedRenewal(
        of stored: StoredTransaction, at now: Date, controls: TestControls, _ db: any SQLDatabase
    )
        throws -> StoredTransaction?
    {
        var latest = try chainLatest(of: stored, db)
        guard latest.revocationDate == nil else {
            throw StoreFailure(
                "transaction \(latest.id) was refunded; a refunded subscription does not renew", kind: .conflict)
        }
        guard latest.expirationReason != .didNotConsentToPriceIncrease else {
            throw StoreFailure(
                "the customer declined the price increase on \(latest.id): the subscription expires at the end of its "
                    + "period and does not renew (consent first: manage price-increase consent \(latest.id))",
                kind: .conflict)
        }
        guard latest.reason != .planChange else {
            throw StoreFailure(
                "transaction \(latest.id) is a plan change waiting for its renewal; renew the plan in force",
                kind: .conflict)
        }
        // One plan per group: a plan another one replaced does not come back by a forced renewal.
        let group = catalog.product(id: latest.transaction.productId)?.subscription?.group
        if let other = try activeSubscriptions(account: latest.transaction.payment.account, at: now, db).first(where: {
            $0.transaction.originalId != latest.transaction.originalId
                && catalog.product(id: $0.transaction.productId)?.subscription?.group == group
        }) {
            throw StoreFailure(
                "another plan of the group is in force (transaction \(other.id)); renew that one", kind: .conflict)
        }
        let (product, period) = try nextPlan(of: latest)
        if let expiry = latest.expiresDate, expiry > now {
            latest.shiftCommitment(by: now.timeIntervalSince(expiry))
            latest.expiresDate = now
        }
        if controls.billingIssues, latest.billingRetryUntil == nil {
            try startBillingRetry(&latest, from: now, period: period, controls: controls, at: now, db)
            try latest.update(db)
            return nil
        }
        latest.billingRetryUntil = nil
        latest.graceExpires = nil
        try latest.update(db)
        return try renewal(after: latest, to: product, start: now, period: period, controls: controls, db)
    }

    /// What the chain of `latest` renews to, and the period its next payment grants (a month on
    /// the monthly plan); refused when the catalog lost it. During a commitment the plan in force
    /// renews: a plan change waits for the commitment's end.
    nonisolated func nextPlan(of latest: StoredTransaction) throws -> (Product, SubscriptionPeriod) {
        let productId =
            Self.inCommitment(latest)
            ? latest.transaction.productId : latest.renewalProductId ?? latest.transaction.productId
        guard let product = catalog.product(id: productId), let period = product.subscription?.period else {
            throw StoreFailure(
                "\(latest.transaction.productId) is no longer in the catalog; it cannot renew", kind: .conflict)
        }
        return (product, renewalPlan(after: latest, to: product) == .monthly ? CommitmentPlan.billingPeriod : period)
    }

    /// The newest purchased transaction of `stored`'s subscription chain, which carries its
    /// renewal state.
    nonisolated func chainLatest(of stored: StoredTransaction, _ db: any SQLDatabase) throws -> StoredTransaction {
        guard
            let latest = try StoredTransaction.fetchAll(
                db, where: "original_id = ? AND state = \(StateSQL.purchased)", [stored.transaction.originalId]
            ).last
        else {
            throw StoreFailure(
                "transaction \(stored.id) is \(stored.transaction.state.name); only a purchased subscription has renewals",
                kind: .conflict)
        }
        return latest
    }

    /// The terms of the offer `latest` was bought with when the next renewal is another of its
    /// periods: each period of a pay-as-you-go offer is paid as it starts, and on the monthly
    /// plan a free trial's months are payments of the commitment too. Nil once `periodsTaken`
    /// (the chain's periods of that offer so far, counted only for such an offer: a renewal
    /// sweep asks for every subscription) reaches the offer's, or when the subscription renews
    /// to another product or plan.
    nonisolated func offerGoesOn(_ latest: StoredTransaction, periodsTaken: () throws -> Int) rethrows -> IntroOffer? {
        // Mid-commitment the plan in force goes on whatever waits for the commitment's end.
        let continuing = Self.inCommitment(latest)
        let next = continuing ? latest.transaction.productId : latest.renewalProductId ?? latest.transaction.productId
        guard let current = latest.offer, continuing || latest.renewalOffer == nil,
            next == latest.transaction.productId, let product = catalog.product(id: next),
            renewalPlan(after: latest, to: product) == latest.billingPlan ?? .upFront,
            let terms = terms(of: current, product: product, plan: latest.billingPlan ?? .upFront),
            terms.paymentMode == .payAsYouGo || (continuing && terms.paymentMode == .freeTrial)
        else { return nil }
        return try periodsTaken() < terms.periods ? terms : nil
    }

    /// The chain's periods of `latest`'s offer among `rows`, counted as `offerPeriods` counts them
    /// in the database.
    nonisolated static func offerPeriods(of latest: StoredTransaction, in rows: [StoredTransaction]) -> Int {
        guard let offer = latest.offer else { return 0 }
        return rows.count {
            $0.transaction.originalId == latest.transaction.originalId && $0.offer == offer
                && ($0.reason == .purchase || $0.reason == .renewal) && $0.transaction.state == .purchased
        }
    }

    /// How many periods of a chain were paid at `offer`: the purchase or renewal that started
    /// it and each renewal at it (a re-download of the plan in force carries the offer but is no period).
    private static func offerPeriods(chain originalId: String, offer: TransactionOffer, _ db: any SQLDatabase) throws
        -> Int
    {
        try Int.fetchOne(
            db,
            sql: """
                SELECT COUNT(*) FROM transactions WHERE original_id = ? AND offer_type = ? AND offer_id IS NOT DISTINCT FROM ? AND reason IN (?, ?)
                    AND state = \(StateSQL.purchased)
                """,
            arguments: [
                originalId, offer.type.rawValue, offer.id, TransactionReason.purchase.rawValue,
                TransactionReason.renewal.rawValue,
            ]) ?? 0
    }
}
