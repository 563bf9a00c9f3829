import Foundation
import GRDB
import LocalState
import ServerRecords
import StoreCore
import StoreKitModel

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

    /// In force: not refunded, and its period has not ended, or a billing issue's grace period has
    /// not. A refund ends access without touching the period's expiry, which never changes.
    nonisolated func inForce(_ latest: StoredTransaction, at now: Date) -> Bool {
        latest.revocationDate == nil
            && ((latest.expiresDate.map { $0 > now } ?? false) || (latest.graceExpires.map { $0 > now } ?? false))
    }

    nonisolated func setAutoRenew(_ on: Bool, chainOf stored: StoredTransaction, at now: Date, _ db: Database) throws {
        var latest = try chainLatest(of: stored, db)
        guard latest.revocationDate == nil else {
            throw StoreFailure("transaction \(latest.id) was refunded; it does not renew", kind: .conflict)
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

    nonisolated func priceIncrease(
        _ step: PriceIncreaseStep, chainOf stored: StoredTransaction, at now: Date, _ db: Database
    ) throws {
        var latest = try chainLatest(of: stored, db)
        guard inForce(latest, at: now), latest.autoRenew else {
            throw StoreFailure(
                "the subscription of transaction \(stored.id) does not renew; a price increase applies only to one that does",
                kind: .conflict)
        }
        switch step {
        case .request:
            guard latest.priceIncrease != .pending else {
                throw StoreFailure("a price increase already waits for consent on \(latest.id)", kind: .conflict)
            }
            latest.priceIncrease = .pending
        case .consent, .decline:
            guard latest.priceIncrease == .pending else {
                throw StoreFailure(
                    "no price increase waits for consent on \(latest.id); request one first", kind: .conflict)
            }
            if step == .consent {
                latest.priceIncrease = .agreed
            } else {
                // It runs to the end of the period it is in, then expires with the reason.
                latest.autoRenew = false
                latest.expirationReason = .didNotConsentToPriceIncrease
            }
        }
        try latest.update(db)
        let event: NotificationEvent =
            switch step {
            case .request: NotificationEvent(.priceIncrease, .pending)
            case .consent: NotificationEvent(.priceIncrease, .accepted)
            case .decline: NotificationEvent(.didChangeRenewalStatus, .autoRenewDisabled)
            }
        try notify(event, about: latest.id, originalId: latest.transaction.originalId, at: now, db)
    }

    /// Resolving a billing issue: the App Store bills at once, and the next period starts now.
    nonisolated func recoverFromBillingRetry(
        _ stored: StoredTransaction, at now: Date, controls: TestControls, _ db: Database
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
        latest.billingRetryUntil = nil
        latest.graceExpires = nil
        var recovered = try renewal(after: latest, to: product, start: now, period: period, controls: controls, db)
        recovered.notification = NotificationEvent(.didRenew, .billingRecovery)
        return recovered
    }

    /// StoreKit 2's renewal info of a chain's latest transaction.
    nonisolated func renewalInfo(_ latest: StoredTransaction, at now: Date) -> RenewalInfo {
        let expired = !inForce(latest, at: now) && latest.billingRetryUntil == nil
        return RenewalInfo(
            willAutoRenew: latest.autoRenew,
            autoRenewProductId: latest.renewalProductId ?? latest.transaction.productId,
            expirationReason: latest.expirationReason ?? (expired && !latest.autoRenew ? .autoRenewDisabled : nil),
            isInBillingRetry: latest.billingRetryUntil != nil, gracePeriodExpirationDate: latest.graceExpires,
            priceIncreaseStatus: latest.priceIncrease)
    }
}
