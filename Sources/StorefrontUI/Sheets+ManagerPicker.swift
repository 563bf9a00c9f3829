import CellGrid
import StoreCore

extension Sheets {
    /// The manager's picker: the families an account can move to, its own marked, or the
    /// accounts a purchase can be assigned to.
    static func managerPicker(_ picker: ManagerPicker, _ state: AppState, _ strings: UIStrings, _ hints: KeyHints)
        -> (String, [Line], String)
    {
        let choices = Presentation.pickerChoices(state, picker.purpose)
        switch picker.purpose {
        case .family(let account):
            let current = state.family(of: account)
            let lines = choices.enumerated().map { index, family in
                let name = family ?? strings.noFamily
                return Line(
                    text: family == current ? "\(name)  \(strings.currentFamily)" : name,
                    selected: index == picker.selection, wraps: false)
            }
            return (strings.familyPickerTitle(account), lines, hints.picker)
        case .assign(let transactionId, _):
            let lines = choices.enumerated().map { index, account in
                Line(text: account ?? "", selected: index == picker.selection, wraps: false)
            }
            return (strings.assignPickerTitle(transactionId), lines, hints.picker)
        }
    }
}
