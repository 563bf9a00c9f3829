import CellGrid
import Foundation
import StoreCore
import StoreKitModel

/// The pure update function: an action in, the new state and the effects to run out.
public enum Reducer {
    /// How long a status message stays; how often the store is re-read for changes made by
    /// other processes (an Ask to Buy approved from another terminal).
    static let statusSeconds: TimeInterval = 4
    static let refreshSeconds: TimeInterval = 2

    /// What to do at launch: the observer first (re-deliver the unfinished), then the catalog.
    public static func start(_ state: AppState) -> [Effect] {
        [
            .replayUnfinished(account: state.account.name), .loadProducts(storefront: state.storefront.id),
            .refresh(account: state.account.name), .loadAppTransaction(account: state.account.name),
        ]
    }

    public static func reduce(_ state: inout AppState, _ action: Action) -> [Effect] {
        if state.keyEcho != nil { echo(&state, action) }
        let effects = dispatch(&state, action)
        // Whichever action changed the products, the storefront, the locale or the language, the
        // list's display prices follow, here once rather than in each of those actions.
        if state.list.pricing != state.pricing { state.list.reprice(for: state.pricing) }
        // Likewise the list's page: a resize, or a line above the list (the controls' line, a
        // filter, a message) coming or going with any action, and the selection stays on screen.
        state.list.keepVisible(page: state.layout.listRows)
        return effects
    }

    /// Keys are echoed before they act, so the one that opens a sheet shows over it.
    private static func echo(_ state: inout AppState, _ action: Action) {
        switch action {
        case .key(let key): state.keyEcho?.press(key, at: state.now, ascii: state.asciiOnly)
        case .tick(let now): state.keyEcho?.expire(at: now)
        default: break
        }
    }

    static func dispatch(_ state: inout AppState, _ action: Action) -> [Effect] {
        switch action {
        case .key(let key):
            return reduceKey(&state, key)
        case .resized(let size):
            state.size = size
            return []
        case .tick(let now):
            return tick(&state, now)
        case .productsLoaded(let response):
            state.list = ProductList(products: response.products, language: state.language)
            state.catalogLoad = .loaded(invalidIds: response.invalidProductIdentifiers)
            return []
        case .productsFailed(let message):
            state.catalogLoad = .failed(message)
            return []
        case .transactionUpdate(let update):
            return transactionUpdate(&state, update)
        case .appSteps(let steps):
            return appSteps(&state, steps)
        case .snapshot(let snapshot):
            return applySnapshot(&state, snapshot)
        case .everyAccountLoaded(let transactions, let families):
            return everyAccountLoaded(&state, transactions, families: families)
        case .managed(let action, let outcome):
            return managed(&state, action, outcome)
        case .appTransactionLoaded(let account, let info):
            // A read asked for before a switch may land after it: only the account's own is kept.
            if account == state.account.name { state.appTransaction = info }
            return []
        case .paymentAdded(let transaction):
            state.inFlight.insert(transaction.id)
            upsert(&state, transaction)
            if state.progress[transaction.id] == nil { state.progress[transaction.id] = .purchasing }
            return []
        case .paymentUnconfirmed(let productId, let quantity, let orderId, let reason):
            state.storeProblem = reason
            state.unconfirmed.append(
                UnconfirmedPayment(
                    productId: productId, quantity: quantity, orderId: orderId, transactionId: nil,
                    since: state.now))
            say(
                &state, UIStrings(state.language).paymentUnconfirmed(Presentation.title(state, product: productId)),
                .warning)
            return []
        case .refreshFailed(let message):
            state.storeProblem = message
            holdPurchasing(&state)
            return []
        case .restoreFinished(let result):
            state.sheet = .restoreResult(result)
            return [.refresh(account: state.account.name)]
        case .cancellationMessage(let productId, let message):
            guard case .cancelSubscription(var sheet) = state.sheet, sheet.productId == productId else { return [] }
            sheet.message = message.map { .shown($0) } ?? CancelSubscription.Message.none
            state.sheet = .cancelSubscription(sheet)
            return []
        case .effectFailed(let message):
            state.sheet = .error(ErrorSheet(kind: .failure(message), productId: nil))
            return []
        case .screenSaved(let path):
            say(&state, UIStrings(state.language).screenSaved(path))
            return []
        case .screenNotSaved(let reason):
            say(&state, UIStrings(state.language).screenNotSaved(reason), .error)
            return []
        case .appCrashed(let crash):
            state.sheet = .appCrashed(crash)
            state.progress[crash.transactionId] = .crashed
            return [.refresh(account: state.account.name)]
        case .appFixed:
            say(&state, UIStrings(state.language).appFixed)
            return []
        }
    }

    static func tick(_ state: inout AppState, _ now: Date) -> [Effect] {
        let previous = state.now
        state.now = now
        state.spinner &+= 1
        if let status = state.status, status.expires <= now { state.status = nil }
        var effects: [Effect] = []
        if Int(now.timeIntervalSince1970 / refreshSeconds) != Int(previous.timeIntervalSince1970 / refreshSeconds) {
            effects.append(.refresh(account: state.account.name))
            effects += managerRefresh(state)
        }
        let due = state.pending.contains {
            if case .awaitingVerification(_, _, let next?) = $0.reason { return next <= now && next > previous }
            return false
        }
        if due { effects.append(.retryVerification(account: state.account.name)) }
        return effects
    }

    /// The terminal shows ASCII only (a non-UTF-8 locale, TERM=dumb): Chinese cannot be shown,
    /// so the screen is in English and says why.
    public static func useASCII(_ state: inout AppState) {
        state.asciiOnly = true
        guard state.language == .simplifiedChinese else { return }
        state.language = .english
        state.list.relabel(language: .english)
        say(&state, UIStrings(.english).chineseNeedsUTF8, .warning)
    }

    static func say(_ state: inout AppState, _ text: String, _ level: StatusMessage.Level = .info) {
        state.status = StatusMessage(text: text, level: level, expires: state.now.addingTimeInterval(statusSeconds))
    }

    static func upsert(_ state: inout AppState, _ transaction: Transaction) {
        if let index = state.history.firstIndex(where: { $0.id == transaction.id }) {
            state.history[index] = transaction
        } else {
            state.history.insert(transaction, at: 0)
        }
    }
}
