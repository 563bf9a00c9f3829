import CellGrid
import StoreCore
import StoreKitModel

/// The sandbox's account tools in the transaction manager: one account's purchase history
/// cleared (App Store Connect's Clear Purchase History), and the family it is in edited while
/// the store runs, as `storefront manage clear --account` and `manage family` do.
extension Reducer {
    /// Clears `account`'s history on the second press; armed for that account only, since a
    /// refresh between the presses can move another account's row under the selection.
    static func clearHistory(_ state: inout AppState, of account: String) -> [Effect] {
        let strings = UIStrings(state.language)
        guard state.armed == .clearHistory, state.armedTransaction == account else {
            state.armed = .clearHistory
            state.armedTransaction = account
            say(&state, strings.pressAgainToClearHistory(account), .warning)
            return []
        }
        state.armed = nil
        state.armedTransaction = nil
        if account == state.account.name {
            // What was in flight for this account is gone with its history.
            state.progress = [:]
            state.inFlight = []
        }
        return manage(state, .clearAccount(account))
    }

    /// Up/down to choose, Enter to act on the choice (move the account, assign the purchase),
    /// Esc back to the manager.
    static func managerPickerKey(_ state: inout AppState, _ key: Key, _ picker: ManagerPicker) -> [Effect] {
        let choices = Presentation.pickerChoices(state, picker.purpose)
        var picker = picker
        switch KeyBindings.command(for: key, in: .main) {
        case .up: picker.selection = max(0, picker.selection - 1)
        case .down: picker.selection = min(choices.count - 1, picker.selection + 1)
        case .top: picker.selection = 0
        case .bottom: picker.selection = choices.count - 1
        case .buy:
            state.sheet = .transactionManager(selection: picker.managerSelection)
            guard !choices.isEmpty else { return [] }
            let choice = choices[max(0, min(choices.count - 1, picker.selection))]
            switch picker.purpose {
            case .family(let account):
                guard choice != state.family(of: account) else { return [] }
                return manage(state, .setFamily(account: account, family: choice))
            case .assign(let transactionId, _):
                guard let account = choice else { return [] }
                return manage(state, .assign(transactionId, account: account))
            }
        case .close:
            state.sheet = .transactionManager(selection: picker.managerSelection)
            return []
        case .quit: return quit(&state)
        default: return []
        }
        state.sheet = .managerPicker(picker)
        return []
    }

    /// `M`: the families the selected row's account can move to, opened on its own.
    static func openFamilyPicker(_ state: inout AppState, for account: String, managerSelection: Int) {
        let purpose = ManagerPicker.Purpose.family(account: account)
        let current = Presentation.pickerChoices(state, purpose).firstIndex { $0 == state.family(of: account) } ?? 0
        state.sheet = .managerPicker(ManagerPicker(purpose, selection: current, managerSelection: managerSelection))
    }

    /// `G`: the accounts an organization can assign the selected purchase to (inAppOwnershipType
    /// ASSIGNED); the store refuses what cannot be assigned (a consumable, a copy) with its reason.
    static func openAssignPicker(_ state: inout AppState, for selected: Transaction, managerSelection: Int) {
        let purpose = ManagerPicker.Purpose.assign(transactionId: selected.id, purchaser: selected.payment.account)
        state.sheet = .managerPicker(ManagerPicker(purpose, selection: 0, managerSelection: managerSelection))
    }
}

extension Presentation {
    /// What a manager picker offers: for a family move, every family the catalog names or the
    /// store has now, by name, then none (out of its family); for an assignment, every other
    /// account of the catalog.
    static func pickerChoices(_ state: AppState, _ purpose: ManagerPicker.Purpose) -> [String?] {
        switch purpose {
        case .family:
            var names = Set(state.catalog.accounts.compactMap(\.family))
            names.formUnion(state.managerView.families?.values ?? [:].values)
            return names.sorted().map { $0 } + [nil]
        case .assign(_, let purchaser):
            return state.catalog.accounts.map(\.name).filter { $0 != purchaser }
        }
    }
}
