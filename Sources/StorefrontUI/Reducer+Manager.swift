import CellGrid
import StoreCore
import StoreKitModel

extension Reducer {
    /// The transaction manager: move, inspect, then act on the selected transaction; refunding,
    /// deleting and clearing all ask twice. Every action says what it did or why it could not.
    static func managerKey(_ state: inout AppState, _ key: Key, _ selection: Int) -> [Effect] {
        let rows = Presentation.managerRows(state)
        let count = rows.count
        let command = KeyBindings.command(for: key, in: .manager)
        if command != state.armed {
            state.armed = nil
            state.armedTransaction = nil
        }
        let selected = rows.indices.contains(selection) ? rows[selection] : nil
        // A refund waiting for the App Store's decision is what approve and decline decide first.
        if command == .approve || command == .decline, let selected, let waiting = state.waitingRefund(selected) {
            return decideRefund(&state, selected.id, waiting, approve: command == .approve)
        }
        switch command {
        case .up: state.sheet = .transactionManager(selection: max(0, selection - 1))
        case .down: state.sheet = .transactionManager(selection: max(0, min(count - 1, selection + 1)))
        case .top: state.sheet = .transactionManager(selection: 0)
        case .bottom: state.sheet = .transactionManager(selection: max(0, count - 1))
        case .close: state.sheet = nil
        case .quit: return quit(&state)
        case .help: state.sheet = .help(scroll: 0)
        case .inspect:
            guard let selected else { return refuse(&state, UIStrings(state.language).nothingToManage) }
            state.sheet = .transactionInspector(TransactionInspector(transactionId: selected.id, selection: selection))
        case .allAccounts: return toggleAllAccounts(&state)
        case .createTransaction: openCreateForm(&state, managerSelection: selection)
        case .clearAll: return clearAll(&state)
        case .clearHistory: return clearHistory(&state, of: selected?.payment.account ?? state.account.name)
        case .moveFamily:
            openFamilyPicker(&state, for: selected?.payment.account ?? state.account.name, managerSelection: selection)
        case .assign:
            guard let selected else { return refuse(&state, UIStrings(state.language).nothingToManage) }
            openAssignPicker(&state, for: selected, managerSelection: selection)
        case let command?:
            guard let selected else {
                return isManagerAction(command) ? refuse(&state, UIStrings(state.language).nothingToManage) : []
            }
            return act(&state, command, on: selected)
        case nil: break
        }
        return []
    }

    static func isManagerAction(_ command: Command) -> Bool {
        KeyBindings.table.contains { $0.scope == .manager && $0.command == command }
    }

    /// The action a command asks of the store for `selected`; a refusal the store would give
    /// less clearly is said here instead.
    static func act(_ state: inout AppState, _ command: Command, on selected: Transaction) -> [Effect] {
        let strings = UIStrings(state.language)
        let action: ManageAction
        switch command {
        case .approve,
            .decline where selected.state == .deferred || renewal(state, selected)?.priceIncreaseStatus != .pending:
            if let refusal = parentRefusal(state, selected) { return refuse(&state, refusal) }
            action = command == .approve ? .approveAskToBuy(selected.id) : .declineAskToBuy(selected.id)
        case .decline: action = .priceIncrease(selected.id, .decline)
        case .autoRenew:
            guard let renewal = renewal(state, selected) else {
                return refuse(&state, strings.notASubscription(selected.id))
            }
            action = .setAutoRenew(
                selected.id, !Presentation.autoRenewOn(renewal, willAutoRenew: renewal.willAutoRenew))
        case .priceIncrease:
            guard let renewal = renewal(state, selected) else {
                return refuse(&state, strings.notASubscription(selected.id))
            }
            action = .priceIncrease(selected.id, renewal.priceIncreaseStatus == .pending ? .consent : .request)
        case .resolve: action = .resolveIssue(selected.id)
        case .refund, .delete:
            // Neither can be undone: the first press says what the second will do. Armed for this
            // transaction only: a refresh between the presses can move another one under the selection.
            guard state.armed == command, state.armedTransaction == selected.id else {
                state.armed = command
                state.armedTransaction = selected.id
                let reversing = command == .refund && selected.terms?.revocation != nil
                say(&state, strings.pressAgain(command, transactionId: selected.id, reversing: reversing), .warning)
                return []
            }
            state.armed = nil
            state.armedTransaction = nil
            action = command == .delete ? .delete(selected.id) : refundOrReversal(selected)
        case .expire: action = .expireSubscription(selected.id)
        case .renew: action = .forceRenewal(selected.id)
        case .stopSharing: action = .stopSharing(selected.id)
        default: return []
        }
        return manage(state, action)
    }

    /// `refund` on a refunded transaction reverses the refund, as the App Store may after a dispute.
    static func refundOrReversal(_ selected: Transaction) -> ManageAction {
        selected.terms?.revocation == nil ? .refund(selected.id) : .reverseRefund(selected.id)
    }

    static func clearAll(_ state: inout AppState) -> [Effect] {
        guard state.armed == .clearAll else {
            state.armed = .clearAll
            say(&state, UIStrings(state.language).pressAgainToClear, .warning)
            return []
        }
        state.armed = nil
        // Nothing of this session is in flight any more: the quit question and the purchase
        // messages must not wait for transactions that are gone.
        state.progress = [:]
        state.inFlight = []
        return manage(state, .clearAll)
    }

    /// The action, then fresh reads: the store's answer comes back as `.managed`.
    static func manage(_ state: AppState, _ action: ManageAction) -> [Effect] {
        [.manageAndReport(action), .refresh(account: state.account.name)]
            + (state.managerView.allAccounts ? [.loadEveryAccount] : [])
    }

    static func refuse(_ state: inout AppState, _ reason: String) -> [Effect] {
        say(&state, reason, .error)
        return []
    }

    /// On a device only a parent answers a child's request: from another account, the signed-in
    /// one must be an adult of the child's family. The child's own manager answers as Xcode's does.
    static func parentRefusal(_ state: AppState, _ transaction: Transaction) -> String? {
        let child = transaction.payment.account
        guard child != state.account.name, transaction.state == .deferred else { return nil }
        let family = state.family(of: child)
        let parents = state.catalog.accounts.filter {
            family != nil && state.family(of: $0.name) == family && !$0.askToBuy
        }
        guard !parents.contains(where: { $0.name == state.account.name }) else { return nil }
        return UIStrings(state.language).askAParent(child, parents: parents.map(\.name))
    }

    /// The manager opens on the store as it is now. Every account's rows, when shown, are read
    /// again: while the manager was closed the store may have been erased, or an account this
    /// terminal never signed in to may have bought; the rows of the last read are not shown
    /// meanwhile.
    static func openManager(_ state: inout AppState) -> [Effect] {
        state.sheet = .transactionManager(selection: 0)
        guard state.managerView.allAccounts else { return [] }
        state.managerView.everyAccount = []
        return [.loadEveryAccount]
    }

    /// `A`: every account's transactions, read now and kept fresh while shown, or the signed-in
    /// account's alone. The selection goes back to the top: the rows under it change.
    static func toggleAllAccounts(_ state: inout AppState) -> [Effect] {
        state.managerView.allAccounts.toggle()
        state.sheet = .transactionManager(selection: 0)
        let strings = UIStrings(state.language)
        guard state.managerView.allAccounts else {
            state.managerView = ManagerView()
            say(&state, strings.onlyAccountShown(state.account.name))
            return []
        }
        say(&state, strings.everyAccountShown)
        return [.loadEveryAccount]
    }

    /// What the store did with a manager action, or why it refused it, in the status line.
    static func managed(_ state: inout AppState, _ action: ManageAction, _ outcome: ManageOutcome) -> [Effect] {
        let strings = UIStrings(state.language)
        switch outcome {
        case .done(let changed):
            let id = transactionId(of: action)
            let product =
                id.flatMap { id in Presentation.managerRows(state).first { $0.id == id }?.productId }
                ?? changed.first?.productId ?? ""
            let made = changed.first { $0.id != id }
            say(&state, strings.managed(action, title: Presentation.title(state, product: product), made: made))
        case .refused(let reason):
            say(&state, strings.manageRefused(action, reason: reason), .error)
        }
        return []
    }

    static func transactionId(of action: ManageAction) -> String? {
        switch action {
        case .approveAskToBuy(let id), .declineAskToBuy(let id), .resolveIssue(let id), .refund(let id, _, _),
            .requestRefund(let id, _), .declineRefund(let id), .reverseRefund(let id), .expireSubscription(let id),
            .forceRenewal(let id),
            .delete(let id), .setAutoRenew(let id, _), .priceIncrease(let id, _, _), .stopSharing(let id),
            .serverFinish(let id), .assign(let id, _):
            id
        case .clearAll, .clearAccount, .resetToDefaults, .setFamily, .createTransaction, .sendMessage, .purchaseIntent:
            nil
        }
    }

    static func everyAccountLoaded(_ state: inout AppState, _ transactions: [Transaction], families: [String: String])
        -> [Effect]
    {
        guard state.managerView.allAccounts else { return [] }
        state.managerView.everyAccount = transactions
        state.managerView.families = families
        keepManagerSelection(&state)
        return []
    }

    /// A read that shortened the manager's list keeps its selection on a row.
    static func keepManagerSelection(_ state: inout AppState) {
        let count = Presentation.managerRows(state).count
        if case .transactionManager(let selection)? = state.sheet, selection >= count {
            state.sheet = .transactionManager(selection: max(0, count - 1))
        }
    }

    /// Every account's transactions are read with the signed-in account's while the manager
    /// shows them.
    static func managerRefresh(_ state: AppState) -> [Effect] {
        guard state.managerView.allAccounts else { return [] }
        switch state.sheet {
        case .transactionManager?, .transactionInspector?: return [.loadEveryAccount]
        default: return []
        }
    }

    /// The App Store's decision on a refund waiting for it, asked for here or elsewhere: granted
    /// for the reason the customer gave, or declined (servers hear REFUND or REFUND_DECLINED).
    static func decideRefund(_ state: inout AppState, _ id: String, _ waiting: WaitingRefund, approve: Bool)
        -> [Effect]
    {
        state.refundRequests[id] = nil
        let strings = UIStrings(state.language)
        let title = Presentation.title(state, transaction: id)
        say(&state, approve ? strings.refundApproved(title) : strings.refundDeclined(title))
        let action: ManageAction = approve ? .refund(id, reason: waiting.reason.revocationReason) : .declineRefund(id)
        return [.manage(action), .refresh(account: state.account.name)]
    }

    /// The renewal info of the subscription `transaction` belongs to, while the account has it.
    static func renewal(_ state: AppState, _ transaction: Transaction) -> RenewalInfo? {
        guard transaction.payment.account == state.account.name else { return nil }
        return state.entitlements.first { $0.productId == transaction.productId && $0.type == .autoRenewable }?.renewal
    }
}
