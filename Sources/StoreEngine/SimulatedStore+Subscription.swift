import Foundation
import LocalState
import ServerRecords
import StoreCore
import StoreKitModel
import StoreSQL

/// The transaction manager's actions on a subscription's renewal, as Xcode's test session
/// offers them. Each acts on the chain's latest transaction, which carries its renewal state.
extension SimulatedStore {
    /// Refuses an action that only an auto-renewable subscription can take (`what` it would be).
    nonisolated func requireSubscription(_ stored: StoredTransaction, _ what: String) throws {
        let product = catalog.product(id: stored.transaction.productId)
        guard product?.type != .autoRenewable else { return }
        let kind = product.map { $0.type.label(in: .english).lowercased() } ?? "no longer in the catalog"
        throw StoreFailure(
            "transaction \(stored.id) is \(stored.transaction.productId) (\(kind)); only an auto-renewable subscription can be \(what)",
            kind: .conflict)
    }

    /// In force: not refunded, not replaced by an upgrade, and its period has not ended, or a
    /// billing issue's grace period has not. A refund or an upgrade ends access without touching
    /// the period's expiry, which never changes.
    nonisolated func inForce(_ latest: StoredTransaction, at now: Date) -> Bool {
        guard latest.revocationDate == nil, latest.upgrade == nil else { return false }
        return (latest.expiresDate.map { $0 > now } ?? false) || (latest.graceExpires.map { $0 > now } ?? false)
    }

    nonisolated func setAutoRenew(_ on: Bool, chainOf stored: StoredTransaction, at now: Date, _ db: any SQLDatabase)
        throws
    {
        var latest = try chainLatest(of: stored, db)
        guard latest.revocationDate == nil else {
            throw StoreFailure("transaction \(latest.id) was refunded; it does not renew", kind: .conflict)
        }
        if Self.inCommitment(latest) {
            // Mid-commitment only the next commitment is stopped or restored: the months left
            // are billed either way.
            let changed = (latest.commitmentAutoRenew ?? true) != on
            latest.commitmentAutoRenew = on
            try latest.update(db)
            if changed {
                try notify(
                    NotificationEvent(.didChangeRenewalStatus, on ? .autoRenewEnabled : .autoRenewDisabled),
                    about: latest.id, originalId: latest.transaction.originalId, at: now, db)
            }
            return
        }
        var endsNow = false
        if on {
            guard inForce(latest, at: now) || latest.billingRetryUntil != nil else {
                throw StoreFailure(
                    "the subscription of transaction \(stored.id) has expired; buy it again to subscribe",
                    kind: .conflict)
            }
            latest.expirationReason = nil
        } else if latest.billingRetryUntil != nil {
            // Turned off while the App Store retries billing: it stops retrying, and access ends.
            latest.billingRetryUntil = nil
            latest.graceExpires = nil
            latest.expirationReason = .autoRenewDisabled
            endsNow = !inForce(latest, at: now)
        }
        let changed = latest.autoRenew != on
        latest.autoRenew = on
        if latest.commitment != nil { latest.commitmentAutoRenew = on }  // a commitment's last month
        try latest.update(db)
        if changed {
            try notify(
                NotificationEvent(.didChangeRenewalStatus, on ? .autoRenewEnabled : .autoRenewDisabled),
                about: latest.id,
                originalId: latest.transaction.originalId, at: now, db)
        }
        if endsNow {
            // Turned off during billing retry: access has ended, and its expiry is in the past,
            // where the sweep does not look.
            try notify(
                .expired(.autoRenewDisabled), about: latest.id, originalId: latest.transaction.originalId,
                dedupe: Self.expiryKey(latest), at: now, db)
        }
    }

    /// A price increase asked for (with its new renewal price, and whether the customer must
    /// consent), consented to or declined. A declined one runs to the period's end and expires;
    /// consent given later, before the end, renews again at the new price.
    nonisolated func priceIncrease(
        _ step: PriceIncreaseStep, terms: PriceIncreaseTerms?, chainOf stored: StoredTransaction, at now: Date,
        _ db: any SQLDatabase
    ) throws {
        var latest = try chainLatest(of: stored, db)
        let declined = latest.expirationReason == .didNotConsentToPriceIncrease
        guard inForce(latest, at: now), latest.autoRenew || (declined && step == .consent) else {
            throw StoreFailure(
                "the subscription of transaction \(stored.id) does not renew; a price increase applies only to one that does",
                kind: .conflict)
        }
        let event: NotificationEvent
        switch step {
        case .request:
            event = try requestPriceIncrease(terms ?? PriceIncreaseTerms(price: nil), on: &latest)
        case .consent, .decline:
            guard latest.priceIncrease == .pending else {
                throw StoreFailure(
                    "no price increase waits for consent on \(latest.id); request one first", kind: .conflict)
            }
            if step == .consent {
                latest.priceIncrease = .agreed
                latest.autoRenew = true
                latest.expirationReason = nil
                event = NotificationEvent(.priceIncrease, .accepted)
            } else {
                guard !declined else {
                    throw StoreFailure("the price increase on \(latest.id) was already declined", kind: .conflict)
                }
                // It runs to the end of the period it is in, then expires with the reason.
                latest.autoRenew = false
                latest.expirationReason = .didNotConsentToPriceIncrease
                event = NotificationEvent(.didChangeRenewalStatus, .autoRenewDisabled)
            }
        }
        try latest.update(db)
        try notify(event, about: latest.id, originalId: latest.transaction.originalId, at: now, db)
    }

    /// Sets the new renewal price: waiting for consent, or agreed at once when none is needed
    /// (Apple then tells the customer, and servers hear PRICE_INCREASE with ACCEPTED).
    nonisolated func requestPriceIncrease(_ terms: PriceIncreaseTerms, on latest: inout StoredTransaction) throws
        -> NotificationEvent
    {
        guard latest.priceIncrease != .pending else {
            throw StoreFailure("a price increase already waits for consent on \(latest.id)", kind: .conflict)
        }
        let product = try nextPlan(of: latest).0
        // On the monthly plan the price is a month's, and it applies from the next commitment.
        let plan = latest.renewalPlan ?? latest.billingPlan ?? .upFront
        let current = latest.renewalPrice ?? product.billingPrice(plan, in: latest.storefront) ?? latest.price
        let price =
            terms.price ?? PriceIncreaseTerms.defaultRaise(of: current, currency: latest.currency)
        guard price > current else {
            throw StoreFailure(
                "a price increase must raise the renewal price: \(price.exactString) \(latest.currency) is not above "
                    + "\(current.exactString) \(latest.currency)", kind: .invalid)
        }
        latest.renewalPrice = price
        latest.priceIncrease = terms.needsConsent ? .pending : .agreed
        return NotificationEvent(.priceIncrease, terms.needsConsent ? .pending : .accepted)
    }

    /// Resolving a billing issue: the App Store bills at once. Inside the grace period the paid
    /// service was never interrupted, so the new period starts at the renewal date that failed;
    /// after it, in billing retry alone, the new period starts now.
    nonisolated func recoverFromBillingRetry(
        _ stored: StoredTransaction, at now: Date, controls: TestControls, _ db: any SQLDatabase
    ) throws -> StoredTransaction {
        guard catalog.product(id: stored.transaction.productId)?.type == .autoRenewable else {
            throw StoreFailure(
                "transaction \(stored.id) is not an interrupted purchase or a subscription with a billing issue",
                kind: .conflict)
        }
        var latest = try chainLatest(of: stored, db)
        guard let until = latest.billingRetryUntil else {
            throw StoreFailure(
                "the subscription of transaction \(stored.id) has no billing issue to resolve", kind: .conflict)
        }
        guard until > now else {
            throw StoreFailure(
                "billing retry for transaction \(latest.id) ended; the subscription expired and must be bought again",
                kind: .conflict)
        }
        let (product, period) = try nextPlan(of: latest)
        let inGrace = latest.graceExpires.map { $0 > now } ?? false
        let start = inGrace ? (latest.expiresDate ?? now) : now
        latest.billingRetryUntil = nil
        latest.graceExpires = nil
        try latest.update(db)
        var recovered = try renewal(
            after: latest, to: product, start: start, period: period, controls: controls, chargedAt: now, db)
        recovered.notification = NotificationEvent(.didRenew, .billingRecovery)
        return recovered
    }

    /// StoreKit 2's renewal info of a chain's latest transaction; `rows` holds the chain's
    /// periods (and may hold others), to tell whether an offer's periods go on.
    nonisolated func renewalInfo(_ latest: StoredTransaction, chain rows: [StoredTransaction], at now: Date)
        -> RenewalInfo
    {
        let expired = !inForce(latest, at: now) && latest.billingRetryUntil == nil
        // While billing is retried Apple already reports why the subscription may expire.
        let retrying: ExpirationReason? = latest.billingRetryUntil != nil ? .billingError : nil
        // Mid-commitment the next payment is of the plan in force; a change waits for the end.
        let continuing = Self.inCommitment(latest)
        // A commitment is reported only while it runs: a refund or an expiry (billing retry
        // given up included) ends it, whatever the customer chose for the next one.
        let committed = latest.revocationDate == nil && !expired
        return RenewalInfo(
            willAutoRenew: latest.autoRenew,
            autoRenewProductId: continuing
                ? latest.transaction.productId : latest.renewalProductId ?? latest.transaction.productId,
            expirationReason: latest.expirationReason ?? retrying
                ?? (expired && !latest.autoRenew ? .autoRenewDisabled : nil),
            isInBillingRetry: latest.billingRetryUntil != nil, gracePeriodExpirationDate: latest.graceExpires,
            priceIncreaseStatus: latest.priceIncrease, renewalPrice: continuing ? nil : latest.renewalPrice,
            renewalBillingPlan: Self.nextBillingPlan(after: latest),
            commitment: committed ? renewalCommitment(latest) : nil,
            renewalOffer: latest.renewalOffer ?? continuingOffer(latest, chain: rows))
    }

    /// The offer of the period in force when the next renewal is another of its periods, as
    /// Apple's renewal info names it: the offer the next renewal takes.
    nonisolated func continuingOffer(_ latest: StoredTransaction, chain rows: [StoredTransaction]) -> TransactionOffer?
    {
        offerGoesOn(latest, periodsTaken: { Self.offerPeriods(of: latest, in: rows) }) == nil ? nil : latest.offer
    }
}
