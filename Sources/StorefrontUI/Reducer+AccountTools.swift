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

    /// Up/down to choose, Enter to move the account there, Esc back to the manager.
    static func familyPickerKey(_ state: inout AppState, _ key: Key, _ picker: FamilyPicker) -> [Effect] {
        let choices = Presentation.familyChoices(state)
        var picker = picker
        switch KeyBindings.command(for: key, in: .main) {
        case .up: picker.selection = max(0, picker.selection - 1)
        case .down: picker.selection = min(choices.count - 1, picker.selection + 1)
        case .top: picker.selection = 0
        case .bottom: picker.selection = choices.count - 1
        case .buy:
            state.sheet = .transactionManager(selection: picker.managerSelection)
            let family = choices[max(0, min(choices.count - 1, picker.selection))]
            guard family != state.family(of: picker.account) else { return [] }
            return manage(state, .setFamily(account: picker.account, family: family))
        case .close:
            state.sheet = .transactionManager(selection: picker.managerSelection)
            return []
        case .quit: return quit(&state)
        default: return []
        }
        state.sheet = .familyPicker(picker)
        return []
    }
}

extension Presentation {
    /// The families an account can move to: every family the catalog names or the store has
    /// now, by name, then none (out of its family).
    static func familyChoices(_ state: AppState) -> [String?] {
        var names = Set(state.catalog.accounts.compactMap(\.family))
        names.formUnion(state.managerView.families?.values ?? [:].values)
        return names.sorted().map { $0 } + [nil]
    }
}
