import CellGrid
import StoreCore
import StoreKitModel

extension Reducer {
    /// The test-controls sheet: move between rows, step a value (written at once); reset asks twice.
    static func controlsKey(_ state: inout AppState, _ key: Key, _ selection: Int) -> [Effect] {
        let rows = ControlRow.allCases
        let row = rows[max(0, min(rows.count - 1, selection))]
        let command = KeyBindings.command(for: key, in: .controls)
        if command != state.armed { state.armed = nil }
        switch command {
        case .up: state.sheet = .testControls(selection: max(0, selection - 1))
        case .down: state.sheet = .testControls(selection: min(rows.count - 1, selection + 1))
        case .toggle:
            let delta = key == .left ? -1 : 1
            if let next = row.step(state.controls, by: delta) {
                state.controls = next
                return [.setControls(next)]
            }
            return mainCommand(&state, row == .storefront ? .storefront : .account)
        case .reset:
            guard state.armed == .reset else {
                state.armed = .reset
                say(&state, UIStrings(state.language).pressAgainToReset, .warning)
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
}
