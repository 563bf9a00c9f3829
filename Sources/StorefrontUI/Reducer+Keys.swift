import CellGrid
import Foundation
import StoreCore
import StoreKitModel

extension Reducer {
    static func reduceKey(_ state: inout AppState, _ key: Key) -> [Effect] {
        if key == .resize { return [] }
        // Whatever is open, even a screen too small for anything else: the screen as it is now.
        if KeyBindings.binding(of: .screenshot, in: .everywhere)?.keys.contains(key) == true {
            return [.saveScreen]
        }
        if !state.layout.fits {
            // Too small to show anything else: only quitting works.
            return KeyBindings.command(for: key, in: .main) == .quit ? quit(&state) : []
        }
        if let sheet = state.sheet { return sheetKey(&state, sheet, key) }
        if state.list.filtering { return filterKey(&state, key) }
        guard let command = KeyBindings.command(for: key, in: .main) else { return [] }
        if command != state.armed { state.armed = nil }
        return mainCommand(&state, command)
    }

    static func mainCommand(_ state: inout AppState, _ command: Command) -> [Effect] {
        let page = state.layout.listRows
        let account = state.account.name
        switch command {
        case .up: state.list.move(by: -1, page: page)
        case .down: state.list.move(by: 1, page: page)
        case .top: state.list.moveTo(0, page: page)
        case .bottom: state.list.moveTo(state.list.visible.count - 1, page: page)
        case .pageUp: state.list.move(by: -page, page: page)
        case .pageDown: state.list.move(by: page, page: page)
        case .buy: return beginPurchase(&state)
        case .details where state.selectedProduct != nil: state.sheet = .productDetails
        case .filter: state.list.filtering = true
        case .restore:
            say(&state, UIStrings(state.language).restoring)
            return [.restore(account: account)]
        case .pending: state.sheet = .pendingPayments
        case .storefront:
            state.sheet = .storefrontPicker(
                selection: state.catalog.storefronts.firstIndex { $0.id == state.storefront.id } ?? 0)
        case .account:
            state.sheet = .accountPicker(selection: state.catalog.accounts.firstIndex { $0.name == account } ?? 0)
        case .language:
            guard !state.asciiOnly || state.language == .simplifiedChinese else {
                say(&state, UIStrings(state.language).chineseNeedsUTF8, .warning)
                return []
            }
            state.language = state.language == .english ? .simplifiedChinese : .english
            state.list.relabel(language: state.language)
        case .controls: state.sheet = .testControls(selection: 0)
        case .manager: return openManager(&state)
        case .subscriptions: openSubscriptions(&state)
        case .requestRefund: openRefundRequest(&state)
        case .redeemCode: openRedeemCode(&state)
        case .help: state.sheet = .help(scroll: 0)
        case .transactionFilter:
            state.transactionPane.filter = state.transactionPane.filter.next
            state.transactionPane.scroll = 0
        case .transactionsUp, .transactionsDown:
            let shown = state.transactionPane.shown(state.history).count
            let last = max(0, shown - state.layout.transactionRows)
            let moved = state.transactionPane.scroll + (command == .transactionsUp ? -1 : 1)
            state.transactionPane.scroll = min(max(0, moved), last)
        case .close:
            if !state.list.query.isEmpty { state.list.setQuery("") }
        case .quit: return quit(&state)
        case .retry:
            state.catalogLoad = .loading
            return [.loadProducts(storefront: state.storefront.id), .retryVerification(account: account)]
        default: break
        }
        return []
    }

    /// Typing after `/`: letters extend the query; arrows still move; Enter keeps it, Esc drops it.
    static func filterKey(_ state: inout AppState, _ key: Key) -> [Effect] {
        let page = state.layout.listRows
        switch key {
        case .character(let character):
            state.list.setQuery(state.list.query + String(character))
        case .backspace, .control("h"):
            state.list.setQuery(String(state.list.query.dropLast()))
        case .enter:
            state.list.filtering = false
        case .escape:
            state.list.filtering = false
            state.list.setQuery("")
        case .up: state.list.move(by: -1, page: page)
        case .down: state.list.move(by: 1, page: page)
        case .pageUp: state.list.move(by: -page, page: page)
        case .pageDown: state.list.move(by: page, page: page)
        case .control("c"): return quit(&state)
        default: break
        }
        return []
    }

    static func quit(_ state: inout AppState) -> [Effect] {
        if !state.inFlight.isEmpty, state.sheet != .quitConfirm {
            state.sheet = .quitConfirm
            return []
        }
        state.quitting = true
        return [.quit]
    }

    static func sheetKey(_ state: inout AppState, _ sheet: Sheet, _ key: Key) -> [Effect] {
        switch sheet {
        case .confirmPurchase(var confirm):
            switch KeyBindings.command(for: key, in: .confirm) {
            // Another quantity is another payment: a warning acknowledged for the first is asked again.
            case .increase:
                // Only consumables come more than one at a time (the store refuses the rest).
                let consumable = state.catalog.product(id: confirm.productId)?.type == .consumable
                confirm.quantity = min(consumable ? Payment.quantityRange.upperBound : 1, confirm.quantity + 1)
                confirm.acknowledged = false
            case .decrease:
                confirm.quantity = max(Payment.quantityRange.lowerBound, confirm.quantity - 1)
                confirm.acknowledged = false
            case .chooseOffer:
                // None, then each promotional and win-back offer the account may take (codes: `c`):
                // the store would refuse the others with SKError 18.
                let offers =
                    state.catalog.product(id: confirm.productId).map {
                        state.eligibleOfferIds($0, plan: confirm.billingPlan)
                    } ?? []
                guard !offers.isEmpty else { return [] }
                let choices: [String?] = [nil] + offers
                let index = choices.firstIndex(of: confirm.offerId) ?? 0
                confirm.offerId = choices[(index + 1) % choices.count]
                confirm.acknowledged = false
            case .billingPlan:
                // Only where the monthly plan is offered (never in the United States or Singapore).
                let plans = state.catalog.product(id: confirm.productId).map { state.billingPlans($0) } ?? []
                guard plans.count > 1 else { return [] }
                let index = plans.firstIndex(of: confirm.billingPlan) ?? 0
                confirm.billingPlan = plans[(index + 1) % plans.count]
                // Offers belong to one plan, and the other plan is another payment.
                confirm.offerId = nil
                confirm.acknowledged = false
            case .buy where !confirm.pendingIds.isEmpty && !confirm.acknowledged: confirm.acknowledged = true
            case .buy: return confirmPurchase(&state, confirm)
            case .close:
                state.sheet = nil
                return []
            case .quit: return quit(&state)
            default: return []
            }
            state.sheet = .confirmPurchase(confirm)
            return []
        case .quitConfirm:
            switch KeyBindings.command(for: key, in: .question) {
            case .yes?, .quit?:
                state.quitting = true
                return [.quit]
            case .no?, .close?:
                state.sheet = nil
            default:
                break
            }
            return []
        case .storefrontPicker(let selection):
            return picker(&state, key, selection, count: state.catalog.storefronts.count, wrap: Sheet.storefrontPicker)
            { state, index in
                switchStorefront(&state, state.catalog.storefronts[index])
            }
        case .accountPicker(let selection):
            return picker(&state, key, selection, count: state.catalog.accounts.count, wrap: Sheet.accountPicker) {
                state, index in
                switchAccount(&state, state.catalog.accounts[index])
            }
        case .productDetails:
            return detailsKey(&state, key)
        case .testControls(let selection):
            return controlsKey(&state, key, selection)
        case .transactionManager(let selection):
            return managerKey(&state, key, selection)
        case .transactionInspector(let inspector):
            return inspectorKey(&state, key, inspector)
        case .manageSubscriptions(let selection):
            return subscriptionsKey(&state, key, selection)
        case .refundRequest(let request):
            return refundRequestKey(&state, key, request)
        case .cancelSubscription(let sheet):
            return cancelSubscriptionKey(&state, key, sheet)
        case .redeemCode(let code):
            return redeemCodeKey(&state, key, code)
        case .redeemOffer(let code):
            return redeemOfferKey(&state, key, code)
        case .help(let scroll):
            return helpKey(&state, key, scroll)
        case .error, .pendingPayments, .restoreResult:
            return messageCommand(&state, KeyBindings.command(for: key, in: .message))
        case .appCrashed:
            return crashCommand(&state, KeyBindings.command(for: key, in: .crash))
        case .storeMessage(let message):
            return storeMessageKey(&state, key, message)
        case .askPermission(let confirm):
            return askPermissionKey(&state, key, confirm)
        case .managerPicker(let picker):
            return managerPickerKey(&state, key, picker)
        case .createTransaction(let form):
            return createFormKey(&state, key, form)
        case .sentMessage(let message):
            return sentMessageKey(&state, key, message)
        case .promotedPurchase(let intent):
            return promotedPurchaseKey(&state, key, intent)
        }
    }

    /// The crash screen: the app is not running until it is launched again, as it was or fixed.
    static func crashCommand(_ state: inout AppState, _ command: Command?) -> [Effect] {
        let account = state.account.name
        switch command {
        case .relaunch?:
            state.sheet = nil
            return [.replayUnfinished(account: account), .refresh(account: account)]
        case .fixApp?:
            state.sheet = nil
            return [.fixApp, .replayUnfinished(account: account), .refresh(account: account)]
        case .manager?:
            state.sheet = .transactionManager(selection: 0)
            return []
        case .quit?:
            return quit(&state)
        case .close?:
            state.sheet = nil
            return []
        default:
            return []
        }
    }

    /// A message sheet's keys: quit, or close it (the help's key closes it too).
    static func messageCommand(_ state: inout AppState, _ command: Command?) -> [Effect] {
        if command == .quit { return quit(&state) }
        if command == .close || command == .dismiss || command == .help { state.sheet = nil }
        return []
    }

    /// The arrows and page keys scroll the key list; the keys that opened or close it close it.
    static func helpKey(_ state: inout AppState, _ key: Key, _ scroll: Int) -> [Effect] {
        let last = Sheets.helpMaxScroll(state)
        let page = max(1, Sheets.room(for: state.size) - 1)
        let command = KeyBindings.command(for: key, in: .message)
        let moved: Int? =
            switch command {
            case .up: scroll - 1
            case .down: scroll + 1
            case .pageUp: scroll - page
            case .pageDown: scroll + page
            case .top: 0
            case .bottom: last
            default: nil
            }
        guard let moved else { return messageCommand(&state, command) }
        state.sheet = .help(scroll: min(max(0, moved), last))
        return []
    }

    /// The details follow the selection as it moves; Enter buys what they show.
    static func detailsKey(_ state: inout AppState, _ key: Key) -> [Effect] {
        guard let command = KeyBindings.command(for: key, in: .main) else { return [] }
        switch command {
        case .up, .down, .top, .bottom, .pageUp, .pageDown: return mainCommand(&state, command)
        case .buy:
            state.sheet = nil
            return beginPurchase(&state)
        case .close, .details, .help: state.sheet = nil
        case .quit: return quit(&state)
        default: break
        }
        return []
    }

    /// Up/down to choose, Enter to pick, Esc to close: the storefront and account pickers.
    static func picker(
        _ state: inout AppState, _ key: Key, _ selection: Int, count: Int, wrap: (Int) -> Sheet,
        pick: (inout AppState, Int) -> [Effect]
    ) -> [Effect] {
        switch KeyBindings.command(for: key, in: .main) {
        case .up: state.sheet = wrap(max(0, selection - 1))
        case .down: state.sheet = wrap(min(count - 1, selection + 1))
        case .top: state.sheet = wrap(0)
        case .bottom: state.sheet = wrap(max(0, count - 1))
        case .buy where count > 0:
            state.sheet = nil
            return pick(&state, min(selection, count - 1))
        case .close: state.sheet = nil
        case .quit: return quit(&state)
        default: break
        }
        return []
    }

    /// Prices re-format at once from the catalog; the products request then confirms availability.
    static func switchStorefront(_ state: inout AppState, _ storefront: StoreKitModel.Storefront) -> [Effect] {
        state.controls.storefront = storefront.id
        return [.setControls(state.controls)] + adoptStorefront(&state, storefront)
    }

    /// The session buys in `storefront` from now on, however it was chosen.
    static func adoptStorefront(_ state: inout AppState, _ storefront: StoreKitModel.Storefront) -> [Effect] {
        state.storefront = storefront
        say(&state, UIStrings(state.language).switchedStorefront(storefront))
        return [.loadProducts(storefront: storefront.id), .refresh(account: state.account.name)]
    }

    static func switchAccount(_ state: inout AppState, _ account: Account) -> [Effect] {
        state.controls.account = account.name
        // Each account buys in its own storefront, as a device signed in to another Apple ID does.
        state.controls.storefront = nil
        return [.setControls(state.controls)] + adoptAccount(&state, account)
    }

    /// The session is signed in to `account` from now on, however it was chosen: what it showed
    /// of the last account goes, and the account's own is read.
    static func adoptAccount(_ state: inout AppState, _ account: Account) -> [Effect] {
        state.account = account
        let storefrontId = state.controls.storefront ?? account.storefront
        if let storefront = state.catalog.storefront(id: storefrontId) { state.storefront = storefront }
        state.history = []
        state.pending = []
        state.balances = [:]
        state.entitlements = []
        // What the store gave the other account's app is that app's: signed out, it is not shown.
        state.messagesWaiting = []
        state.intentsWaiting = []
        state.appTransaction = nil
        state.inFlight = []
        state.progress = [:]
        state.armed = nil
        say(&state, UIStrings(state.language).switchedAccount(account.name))
        return [
            .replayUnfinished(account: account.name), .loadProducts(storefront: state.storefront.id),
            .refresh(account: account.name), .loadAppTransaction(account: account.name),
        ]
    }
}
