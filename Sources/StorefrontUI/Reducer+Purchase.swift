import Foundation
import StoreCore
import StoreKitModel

extension Reducer {
    /// The queue's updates: show the state, and hand every completed one to the app's observer.
    static func transactionUpdate(_ state: inout AppState, _ update: TransactionUpdate) -> [Effect] {
        let transaction = update.transaction
        // Another account's update waits for that account: its queue replays it when selected.
        guard transaction.payment.account == state.account.name else { return [] }
        upsert(&state, transaction)
        let strings = UIStrings(state.language)
        let title = Presentation.title(state, product: transaction.productId)
        switch transaction.state {
        case .purchasing:
            state.progress[transaction.id] = .purchasing
            return []
        case .deferred:
            state.progress[transaction.id] = .deferred
            say(&state, strings.waitingForApproval(title), .warning)
            return [.handle(update), .refresh(account: state.account.name)]
        case .failed:
            let error = transaction.error ?? .storeKit(.unknown)
            state.progress[transaction.id] = .failed(error)
            if transaction.failureContext == .interrupted, state.inFlight.contains(transaction.id) {
                state.sheet = .error(ErrorSheet(kind: .interrupted(error), productId: transaction.productId))
                state.status = nil  // "Purchasing …" is over: the sheet says how it ended
            } else if error == .storeKit(.paymentCancelled) {
                say(&state, strings.cancelled(title))
            } else if state.inFlight.contains(transaction.id) {
                state.sheet = .error(ErrorSheet(kind: .store(error), productId: transaction.productId))
                state.status = nil
            } else {
                say(&state, strings.failedEarlier(title, error), .error)
            }
            return [.handle(update)]
        case .purchased, .restored:
            state.progress[transaction.id] = transaction.terms?.revocation != nil ? .revoked : .verifying
            return [.handle(update)]
        }
    }

    /// The app's steps for a transaction: progress, messages, and a refresh of the wallet.
    static func appSteps(_ state: inout AppState, _ steps: [AppStep]) -> [Effect] {
        let strings = UIStrings(state.language)
        for step in steps {
            switch step {
            case .delivered(let id, let firstTime):
                state.progress[id] = .delivered
                if !firstTime { say(&state, strings.deliveredAgain(Presentation.title(state, transaction: id))) }
            case .orderMatched(_, let orderId):
                say(&state, strings.orderMatched(orderId), .warning)
            case .verified(let id):
                state.progress[id] = .verified
            case .verificationRejected(let id, let reason):
                state.progress[id] = .rejected(reason)
                state.inFlight.remove(id)
                state.sheet = .error(
                    ErrorSheet(
                        kind: .verification(reason: reason), productId: Presentation.productId(state, transaction: id)))
            case .deliveredElsewhere(let id):
                state.progress[id] = .verified
                state.inFlight.remove(id)
                say(&state, strings.deliveredElsewhere(Presentation.title(state, transaction: id)), .warning)
            case .verificationDeferred(let id, let reason, _):
                state.progress[id] = .unverified(reason)
                state.inFlight.remove(id)
                say(&state, strings.notVerifiedYet(reason), .warning)
            case .revoked(let id, let balance, let amount):
                state.progress[id] = .revoked
                // A family member's copy is revoked when the purchaser is refunded or stops sharing,
                // and an assigned member's when the purchase is refunded.
                let ownership = state.history.first { $0.id == id }?.terms?.ownership
                let title = Presentation.title(state, transaction: id)
                say(
                    &state,
                    ownership == .familyShared
                        ? strings.unshared(title)
                        : ownership == .assigned
                            ? strings.unassigned(title)
                            : strings.refunded(title, balance: balance, amount: amount), .warning)
            case .reinstated(let id, let balance, let amount):
                state.progress[id] = .finished
                say(
                    &state,
                    strings.reinstated(Presentation.title(state, transaction: id), balance: balance, amount: amount))
            case .finished(let id):
                switch state.progress[id] {
                case .failed?, .revoked?: break
                default: state.progress[id] = .finished
                }
                if let index = state.history.firstIndex(where: { $0.id == id }) { state.history[index].finished = true }
                if state.inFlight.remove(id) != nil, state.progress[id] == .finished {
                    say(&state, completion(state, transaction: id, strings))
                }
            case .waitingForApproval(let id):
                state.progress[id] = .deferred
                state.inFlight.remove(id)
            case .showError:
                break  // shown when the failed update arrived, as a sheet or a status line
            }
        }
        return [.refresh(account: state.account.name)]
    }

    /// What a finished purchase of this session did: delivered now, or, for a plan change the
    /// store completed as a copy of the period in force, when the new plan starts.
    static func completion(_ state: AppState, transaction id: String, _ strings: UIStrings) -> String {
        let title = Presentation.title(state, transaction: id)
        guard let transaction = state.history.first(where: { $0.id == id }), transaction.state == .restored,
            let starts = transaction.terms?.expirationDate
        else { return strings.purchaseComplete(title) }
        let inForce = state.entitlements.contains {
            $0.productId == transaction.productId && $0.isActive(at: state.now)
        }
        // The plan in force bought again, with no offer: delivered again as it is.
        guard !inForce || transaction.payment.offer != nil else { return strings.purchaseComplete(title) }
        return strings.startsAtRenewal(
            title, offer: inForce, in: Int(starts.timeIntervalSince(state.now).rounded(.up)))
    }

    /// The store went away while payments of this session were `purchasing`: their outcome waits
    /// for it, and the screen says so instead of spinning on.
    static func holdPurchasing(_ state: inout AppState) {
        for id in state.inFlight.sorted()
        where state.progress[id] == .purchasing && !state.unconfirmed.contains(where: { $0.transactionId == id }) {
            guard let transaction = state.history.first(where: { $0.id == id }) else { continue }
            state.unconfirmed.append(
                UnconfirmedPayment(
                    productId: transaction.productId, quantity: transaction.quantity,
                    orderId: transaction.payment.applicationUsername, transactionId: id, since: state.now))
        }
    }

    /// The store answers again: a held purchase goes on as its transaction says; a payment that
    /// never got an answer either reached the store (its transaction carries the order) or did not,
    /// and then nothing was charged.
    static func settleUnconfirmed(_ state: inout AppState, _ history: [Transaction]) {
        let strings = UIStrings(state.language)
        for payment in state.unconfirmed where payment.transactionId == nil {
            let arrived = history.contains { transaction in
                transaction.productId == payment.productId
                    && (transaction.payment.applicationUsername == payment.orderId
                        // An order id dropped on the way (a test control does that): by product and time.
                        || (transaction.payment.applicationUsername == nil
                            && transaction.purchaseDate >= payment.since.addingTimeInterval(-120)))
            }
            if !arrived {
                say(&state, strings.paymentDidNotArrive(Presentation.title(state, product: payment.productId)))
            }
        }
        state.unconfirmed = []
    }

    static func applySnapshot(_ state: inout AppState, _ snapshot: StoreSnapshot) -> [Effect] {
        state.storeProblem = nil
        if !state.unconfirmed.isEmpty { settleUnconfirmed(&state, snapshot.history) }
        state.history = snapshot.history
        // A request the store reports is the store's to show from now on: decided elsewhere (the
        // CLI, the admin API), it leaves the next snapshot, and "refund asked" with it.
        for transaction in snapshot.history where transaction.refundRequest != nil {
            state.refundRequests[transaction.id] = nil
        }
        keepManagerSelection(&state)
        state.pending = snapshot.pending
        state.balances = snapshot.balances
        state.entitlements = snapshot.entitlements
        let controlsBefore = state.controls
        state.controls = snapshot.controls
        keepTaken(&state, snapshot)
        let followed = followControlsSetElsewhere(&state, from: controlsBefore)
        if !followed.isEmpty { return followed }
        closeEndedStoreMessage(&state)
        showStoreMessage(&state)
        // Changed by another process (approved from another terminal): not handled here yet. One
        // that crashed the app waits for the app to be launched again (the crash screen's keys).
        let unhandled = snapshot.pending.filter { payment in
            guard payment.reason == .unfinished else { return false }
            switch state.progress[payment.transactionId] {
            case .verifying?, .delivered?, .crashed?: return false
            default: return true
            }
        }
        let replay: [Effect] = unhandled.isEmpty ? [] : [.replayUnfinished(account: state.account.name)]
        return replay + verifyFinishedElsewhere(state)
    }

    /// A delivery whose verification was put off, finished meanwhile outside the app (its
    /// server's Finish Transaction, another device): the queue no longer offers it, so no
    /// pending payment brings its retry. The app verifies it from its ledger (once its backoff
    /// allows), which ends "not verified yet" with what the app's server says.
    static func verifyFinishedElsewhere(_ state: AppState) -> [Effect] {
        let waiting = state.history.contains { transaction in
            guard transaction.finished, case .unverified? = state.progress[transaction.id] else { return false }
            return true
        }
        return waiting ? [.retryVerification(account: state.account.name)] : []
    }

    /// Opens the confirmation sheet, naming any payment of the same product still pending.
    static func beginPurchase(_ state: inout AppState) -> [Effect] {
        guard let product = state.selectedProduct else {
            say(&state, UIStrings(state.language).nothingSelected, .warning)
            return []
        }
        return beginPurchase(&state, productId: product.id, offerId: nil)
    }

    /// Opens the confirmation sheet for `productId` with `offerId` chosen (a win-back offer the
    /// App Store offered, a purchase intent's), naming any payment of it still pending.
    static func beginPurchase(_ state: inout AppState, productId: String, offerId: String?) -> [Effect] {
        guard state.catalog.product(id: productId) != nil else {
            state.sheet = nil
            say(&state, UIStrings(state.language).unknownProduct(productId), .warning)
            return []
        }
        let pending = PendingPayment.blocking(productId, in: state.pending).map(\.transactionId)
        let purchasing = state.history.filter { $0.productId == productId && $0.state == .purchasing }.map(\.id)
        let unconfirmed = state.unconfirmed.filter { $0.productId == productId && $0.transactionId == nil }.map {
            $0.orderId ?? ""
        }
        state.sheet = .confirmPurchase(
            ConfirmPurchase(
                productId: productId, quantity: 1, pendingIds: purchasing + pending + unconfirmed, offerId: offerId))
        return []
    }

    static func confirmPurchase(_ state: inout AppState, _ confirm: ConfirmPurchase) -> [Effect] {
        // As on a child's device, the request goes to a parent only once the child asks.
        if asksToBuy(state), !confirm.permissionAsked {
            state.sheet = .askPermission(confirm)
            return []
        }
        state.sheet = nil
        say(&state, UIStrings(state.language).purchasing(Presentation.title(state, product: confirm.productId)))
        // Up front is what a payment without a plan pays, as StoreKit's purchase without the option.
        let plan = confirm.billingPlan == .upFront ? nil : confirm.billingPlan
        if let offerId = confirm.offerId {
            return [
                .buyWithOffer(productId: confirm.productId, offerId: offerId, account: state.account.name, plan: plan)
            ]
        }
        return [
            .buy(productId: confirm.productId, quantity: confirm.quantity, account: state.account.name, plan: plan)
        ]
    }
}
