import CellGrid
import StoreCore
import StoreKitModel

extension Reducer {
    /// The test-controls sheet: move between rows, step a value (written at once), reset the
    /// controls; erasing the store asks twice.
    static func controlsKey(_ state: inout AppState, _ key: Key, _ selection: Int) -> [Effect] {
        let rows = ControlRow.allCases
        let row = rows[max(0, min(rows.count - 1, selection))]
        let command = KeyBindings.command(for: key, in: .controls)
        if command != state.armed { state.armed = nil }
        switch command {
        case .up: state.sheet = .testControls(selection: max(0, selection - 1))
        case .down: state.sheet = .testControls(selection: min(rows.count - 1, selection + 1))
        case .toggle:
            if let picker = row.picker {
                return mainCommand(&state, picker == .storefront ? .storefront : .account)
            }
            let delta = key == .left ? -1 : 1
            guard let next = row.step(state.controls, by: delta, product: state.selectedProduct?.id),
                next != state.controls
            else { return [] }
            state.controls = next
            return [.setControls(next)]
        case .reset:
            // The controls only: what the store holds stays (the store's reset is its own key).
            var defaults = TestControls(seed: state.catalog.settings)
            defaults.storefront = state.controls.storefront
            defaults.account = state.controls.account
            state.controls = defaults
            say(&state, UIStrings(state.language).controlsResetDone)
            return [.setControls(defaults)]
        case .resetStore:
            guard state.armed == .resetStore else {
                state.armed = .resetStore
                say(&state, UIStrings(state.language).pressAgainToResetStore, .warning)
                return []
            }
            state.armed = nil
            state.progress = [:]
            state.inFlight = []
            say(&state, UIStrings(state.language).resetDone)
            return [.manage(.resetToDefaults), .refresh(account: state.account.name)]
        case .close: state.sheet = nil
        case .quit: return quit(&state)
        case .help: state.sheet = .help(scroll: 0)
        default: break
        }
        return []
    }

    /// The storefront or account controls set outside this terminal (`storefront manage set`,
    /// the admin API, another terminal): the session follows them, as a running app hears of a
    /// storefront change on `Storefront.updates`. Only a change is followed, so a session started
    /// with its own `--account` keeps it until the control is set again.
    static func followControlsSetElsewhere(_ state: inout AppState, from old: TestControls) -> [Effect] {
        let new = state.controls
        if new.account != old.account, let name = new.account, name != state.account.name,
            let account = state.catalog.account(named: name)
        {
            return adoptAccount(&state, account)
        }
        guard new.storefront != old.storefront || new.account != old.account else { return [] }
        let id = new.storefront ?? state.account.storefront
        guard id != state.storefront.id, let storefront = state.catalog.storefront(id: id) else { return [] }
        return adoptStorefront(&state, storefront)
    }
}
