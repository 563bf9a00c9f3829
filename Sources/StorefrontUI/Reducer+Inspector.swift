import CellGrid
import StoreCore
import StoreKitModel

extension Reducer {
    /// The inspector scrolls as the help does; closing it goes back to the manager's row.
    static func inspectorKey(_ state: inout AppState, _ key: Key, _ inspector: TransactionInspector) -> [Effect] {
        let last = Sheets.inspectorMaxScroll(state, inspector.transactionId)
        let page = max(1, Sheets.room(for: state.size) - 1)
        let command = KeyBindings.command(for: key, in: .message)
        let moved: Int? =
            switch command {
            case .up: inspector.scroll - 1
            case .down: inspector.scroll + 1
            case .pageUp: inspector.scroll - page
            case .pageDown: inspector.scroll + page
            case .top: 0
            case .bottom: last
            default: nil
            }
        if let moved {
            var scrolled = inspector
            scrolled.scroll = min(max(0, moved), last)
            state.sheet = .transactionInspector(scrolled)
            return []
        }
        switch command {
        case .quit: return quit(&state)
        case .close, .dismiss:
            // A read while it was open may have shortened the list under it.
            state.sheet = .transactionManager(selection: inspector.selection)
            keepManagerSelection(&state)
        default: break
        }
        return []
    }
}
