import Foundation
import LocalState
import StoreCore
import StoreKitModel

/// What a careful iOS app does with each transaction update: deliver once per
/// transaction id, keep a durable record until the server verifies, finish only after
/// verification; show failures (not cancellations) and finish them; leave deferred ones alone.
public struct PurchaseObserver: Sendable {
    public let store: any StoreBackend
    public let ledger: AppLedger
    public let catalog: Catalog
    let clock: any StoreClock

    public init(store: any StoreBackend, ledger: AppLedger, catalog: Catalog, clock: any StoreClock = SystemClock()) {
        self.store = store
        self.ledger = ledger
        self.catalog = catalog
        self.clock = clock
    }

    /// Places the app's order, then adds the payment. The order is durable first, so a
    /// transaction that comes back without `applicationUsername` still finds it.
    public func buy(_ payment: Payment, forcing outcome: PaymentOutcome? = nil) async throws -> Transaction {
        let orderId = try ledger.placeOrder(payment, at: clock.now())
        return try await store.add(
            Payment(
                productId: payment.productId, quantity: payment.quantity,
                applicationUsername: orderId, account: payment.account, offer: payment.offer,
                billingPlan: payment.billingPlan, introductoryOfferEligibility: payment.introductoryOfferEligibility),
            forcing: outcome)
    }

    /// `stopAfterDelivery` plays an app that crashed after delivering and before verifying.
    public func handle(_ update: TransactionUpdate, stopAfterDelivery: Bool = false) async throws -> [AppStep] {
        let transaction = update.transaction
        switch transaction.state {
        case .purchasing:
            return []
        case .deferred:
            return [.waitingForApproval(transactionId: transaction.id)]
        case .failed:
            try ledger.settleOrder(transaction)
            try await store.finish(transactionId: transaction.id, account: transaction.payment.account)
            let error = transaction.error ?? .storeKit(.unknown)
            let shown: [AppStep] =
                error == .storeKit(.paymentCancelled) ? [] : [.showError(transactionId: transaction.id, error: error)]
            return shown + [.finished(transactionId: transaction.id)]
        case .purchased, .restored:
            // Refunded: take back what was granted. A purchase update that arrives after its refund
            // was acted on (published late) is refused by the ledger and grants nothing again.
            if transaction.terms?.revocation != nil { return try await revoke(transaction) }
            if transaction.terms?.refundReversalDate != nil, let steps = try await reinstate(transaction) {
                return steps
            }
            let (record, steps) = try deliver(update)
            if record.revoked { return try await revoke(transaction) }
            if stopAfterDelivery { return steps }
            return steps + (try await verifyAndFinish(update, claim: record.claim))
        }
    }

    /// A refund (StoreKit 2 sends the revoked transaction): the app withdraws what it granted,
    /// once, and finishes the transaction if the queue still held it.
    private func revoke(_ transaction: Transaction) async throws -> [AppStep] {
        let record = try ledger.revoke(
            transaction, product: catalog.product(id: transaction.productId), at: clock.now())
        let steps: [AppStep] =
            record.firstTime
            ? [.revoked(transactionId: transaction.id, balance: record.balance, amount: record.amount)] : []
        // Finished whether or not this is the first time: a finish that failed before is tried again.
        return steps + (try await finishIfHeld(transaction))
    }

    /// A refund the App Store reversed: the app gives back what the refund took, once, and
    /// finishes the transaction if the queue still held it.
    private func reinstate(_ transaction: Transaction) async throws -> [AppStep]? {
        guard
            let record = try ledger.reinstate(
                transaction, product: catalog.product(id: transaction.productId), at: clock.now())
        else { return nil }
        let step = AppStep.reinstated(transactionId: transaction.id, balance: record.balance, amount: record.amount)
        return [step] + (try await finishIfHeld(transaction))
    }

    /// Finishes a transaction the queue still holds, once the app has acted on it.
    private func finishIfHeld(_ transaction: Transaction) async throws -> [AppStep] {
        guard !transaction.finished else { return [] }
        try await store.finish(transactionId: transaction.id, account: transaction.payment.account)
        try ledger.mark(transaction.id, status: .finished, at: clock.now())
        return [.finished(transactionId: transaction.id)]
    }

    /// At launch: refunds made while the app was not running (the transaction manager, another
    /// process, the server's admin), which no update brought, are acted on like the updates;
    /// so are refunds reversed meanwhile.
    public func reconcileRevocations(account: String) async throws -> [AppStep] {
        let acted = try ledger.revokedIds(account: account)
        var steps: [AppStep] = []
        for transaction in try await store.transactions(account: account) {
            let revoked = transaction.terms?.revocation != nil
            if revoked, !acted.contains(transaction.id) {
                steps += try await revoke(transaction)
            } else if !revoked, acted.contains(transaction.id), transaction.terms?.refundReversalDate != nil {
                steps += try await reinstate(transaction) ?? []
            }
        }
        return steps
    }

    private func deliver(_ update: TransactionUpdate) throws -> (DeliveryRecord, [AppStep]) {
        let transaction = update.transaction
        let record = try ledger.recordAndDeliver(
            update, product: catalog.product(id: transaction.productId), at: clock.now())
        if let crash = record.crash { throw crash }
        var steps: [AppStep] = [.delivered(transactionId: transaction.id, firstTime: record.delivered)]
        if record.delivered, record.matchedBy == .accountAndProduct, let orderId = record.orderId {
            steps.append(.orderMatched(transactionId: transaction.id, orderId: orderId))
        }
        return (record, steps)
    }

    private func verifyAndFinish(_ update: TransactionUpdate, claim: String) async throws -> [AppStep] {
        let transaction = update.transaction
        guard let receipt = update.receipt else {
            return [
                .verificationDeferred(
                    transactionId: transaction.id, reason: "no receipt was delivered with the transaction",
                    nextAttempt: nil)
            ]
        }
        guard
            let step = try await verify(
                transactionId: transaction.id, productId: transaction.productId, receipt: receipt, claim: claim)
        else {
            let next = try ledger.entry(transactionId: transaction.id)?.nextAttempt
            return [
                .verificationDeferred(
                    transactionId: transaction.id,
                    reason: try ledger.entry(transactionId: transaction.id)?.lastError ?? "retry later",
                    nextAttempt: next)
            ]
        }
        try await store.finish(transactionId: transaction.id, account: transaction.payment.account)
        try ledger.mark(transaction.id, status: .finished, at: clock.now())
        return [step, .finished(transactionId: transaction.id)]
    }

    /// Asks the app's server and records the answer in the ledger; nil when it said "later".
    private func verify(transactionId: String, productId: String, receipt: String, claim: String) async throws
        -> AppStep?
    {
        switch try await store.verify(
            receipt: receipt, transactionId: transactionId, productId: productId, claim: claim)
        {
        case .verified:
            try ledger.mark(transactionId, status: .verified, at: clock.now())
            return .verified(transactionId: transactionId)
        case .rejected(let status, let reason):
            // The status code is what a developer searches for; the sentence is what it means.
            let text = status.map { "verifyReceipt status \($0.rawValue): \(reason)" } ?? reason
            try ledger.mark(transactionId, status: .rejected, error: text, at: clock.now())
            return .verificationRejected(transactionId: transactionId, reason: text)
        case .replayed(let reason):
            // Both devices of the account delivered it; the server kept the other's claim.
            try ledger.takeBack(transactionId, product: catalog.product(id: productId), reason: reason, at: clock.now())
            return .deliveredElsewhere(transactionId: transactionId)
        case .retryLater(let reason):
            try ledger.mark(transactionId, status: .unverified, error: reason, at: clock.now())
            return nil
        }
    }

    /// The app's own record, re-sent at launch: every delivered-but-unverified entry the queue no
    /// longer offers (another device of the account, or the transaction manager, finished it) is
    /// verified again with the claim and receipt it was recorded with. Verified: it stays delivered;
    /// another device's claim won: its delivery here is taken back; later: kept for the next launch.
    /// `queue`: the ids the queue offers, which `handle` takes care of.
    public func recoverLedger(account: String, queue: Set<String>) async throws -> [AppStep] {
        var steps: [AppStep] = []
        for entry in try ledger.entries(account: account, openOnly: true)
        where entry.status == .unverified && !queue.contains(entry.transactionId) {
            steps += try await confirmOutsideTheQueue(entry)
        }
        return steps
    }

    private func confirmOutsideTheQueue(_ entry: LedgerEntry) async throws -> [AppStep] {
        let now = clock.now()
        guard let (claim, receipt) = try ledger.claimAndReceipt(transactionId: entry.transactionId), let receipt else {
            // Nothing to show the server: finished elsewhere, as before.
            try ledger.mark(entry.transactionId, status: .finished, at: now)
            return []
        }
        guard
            let step = try await verify(
                transactionId: entry.transactionId, productId: entry.productId, receipt: receipt, claim: claim)
        else {
            let next = try ledger.entry(transactionId: entry.transactionId)?.nextAttempt
            return [
                .verificationDeferred(
                    transactionId: entry.transactionId,
                    reason: try ledger.entry(transactionId: entry.transactionId)?.lastError ?? "retry later",
                    nextAttempt: next)
            ]
        }
        // Already finished in the store (or deleted from it): only the ledger is left to close.
        try ledger.mark(entry.transactionId, status: .finished, at: clock.now())
        return [step, .finished(transactionId: entry.transactionId)]
    }

    /// Verifies again every delivered-but-unverified transaction whose backoff has elapsed.
    public func retryDue(account: String) async throws -> [AppStep] {
        let now = clock.now()
        let due = try ledger.entries(account: account, openOnly: true)
            .filter { $0.status == .unverified && ($0.nextAttempt ?? now) <= now }
        guard !due.isEmpty else { return [] }
        let queue = Dictionary(
            try await store.unfinished(account: account).map { ($0.transaction.id, $0) },
            uniquingKeysWith: { first, _ in first })
        var steps: [AppStep] = []
        for entry in due {
            guard let update = queue[entry.transactionId] else {
                // Finished elsewhere (another device, or the transaction manager): confirmed from the ledger.
                steps += try await confirmOutsideTheQueue(entry)
                continue
            }
            steps += try await handle(update)
        }
        return steps
    }

    /// What the app does at launch: handles each transaction the queue re-delivers, verifies
    /// again what it delivered that the queue no longer offers, and acts on refunds made while it
    /// was closed. `each` hears every update (nil for the ledger's and refunds' steps) with the
    /// steps it caused, in order.
    public func launch(account: String, each: (TransactionUpdate?, [AppStep]) -> Void = { _, _ in }) async throws {
        let queue = try await store.unfinished(account: account)
        for update in queue { each(update, try await handle(update)) }
        let steps = try await launchBeyond(queue, account: account)
        if !steps.isEmpty { each(nil, steps) }
    }

    /// The part of a launch the queue does not bring: what this device delivered and the queue
    /// no longer offers, shown to the app's server again, and refunds made while it was closed.
    public func launchBeyond(_ queue: [TransactionUpdate], account: String) async throws -> [AppStep] {
        let recovered = try await recoverLedger(account: account, queue: Set(queue.map(\.transaction.id)))
        return recovered + (try await reconcileRevocations(account: account))
    }

    /// The payments still in flight for the account (banner, pending view, buy warnings).
    public func pending(account: String) async throws -> [PendingPayment] {
        PendingPayment.list(
            unfinished: try await store.unfinished(account: account).map(\.transaction),
            ledger: try ledger.entries(account: account, openOnly: true))
    }
}
