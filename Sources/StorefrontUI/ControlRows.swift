import CellGrid
import StoreCore
import StoreKitModel

/// A line of the test-controls sheet: every control's lines of `TestControls.table`, in its
/// order. The table says what a line holds and how it steps; this says it in the UI's words.
public struct ControlRow: Sendable, Hashable {
    /// Its place in the sheet, which the sheet's selection counts.
    public let rawValue: Int
    /// The control the line sets.
    public let control: ControlSetting
    let line: SheetRow

    public static let allCases: [ControlRow] = TestControls.table.flatMap { control in
        control.sheet.map { (control, $0) }
    }.enumerated().map { ControlRow(rawValue: $0.offset, control: $0.element.0, line: $0.element.1) }

    /// The line named `id`: a control's name, or the name of a control's second line
    /// (`api-error-code`).
    public static func named(_ id: String) -> ControlRow? {
        allCases.first { $0.id == id }
    }

    public var id: String { line.id }

    public static func == (lhs: ControlRow, rhs: ControlRow) -> Bool { lhs.rawValue == rhs.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    public func label(_ strings: UIStrings) -> String {
        strings.words(line.label)
    }

    /// The main screen's picker the line opens; nil for a line the arrows step.
    var picker: ControlPicker? {
        if case .picker(let picker) = line.step { return picker }
        return nil
    }

    public func value(_ state: AppState) -> String {
        let strings = UIStrings(state.language)
        switch line.display(state.controls) {
        case .onOff(let on): return strings.onOff(on)
        case .words(let english, let chinese): return strings.words((english, chinese))
        case .outcome(let outcome): return strings.outcome(outcome)
        case .milliseconds(let milliseconds): return "\(milliseconds) ms"
        case .timeRate(let rate): return strings.timeRate(rate)
        case .verification(let failure): return strings.verification(failure)
        case .storefront: return "\(state.storefront.id) (\(state.storefront.currency))"
        case .account: return state.account.name
        case .productOutcome(let outcomes):
            guard let product = state.selectedProduct else { return strings.none }
            let outcome = outcomes[product.id].map(strings.outcome) ?? strings.none
            return "\(product.title.text(in: state.language)): \(outcome)"
        case .apiErrors(let errors):
            guard !errors.isEmpty else { return strings.none }
            return errors.sorted { $0.key.rawValue < $1.key.rawValue }
                .map {
                    "\($0.key.rawValue): \($0.value.domain == "SKErrorDomain" ? "SKError" : "URLError") \($0.value.code)"
                }.joined(separator: ", ")
        case .apiErrorCode(let error):
            guard let error else { return strings.none }
            return strings.outcome(PaymentOutcome(failure: error))
        case .text(let text): return text
        }
    }

    /// The lines whose value differs from the catalog's defaults, as "label value": what a
    /// presenter should know is in force. The storefront and account show in the header.
    public static func changed(_ state: AppState) -> [String] {
        guard !atDefaults(state) else { return [] }
        var defaults = state
        defaults.controls = TestControls(seed: state.catalog.settings)
        defaults.controls.storefront = state.controls.storefront
        defaults.controls.account = state.controls.account
        let strings = UIStrings(state.language)
        var changed = allCases.filter { $0.picker == nil && $0.value(state) != $0.value(defaults) }
            .map { "\($0.label(strings)): \($0.value(state))" }
        if !state.controls.productOutcomes.isEmpty {
            changed.append(strings.productOutcomesSet(state.controls.productOutcomes.count))
        }
        return changed
    }

    /// Every control as the catalog seeds it (the storefront and account aside): no line to show.
    /// Checked for every layout, so it compares values without building any text.
    static func atDefaults(_ state: AppState) -> Bool {
        var defaults = TestControls(seed: state.catalog.settings)
        defaults.storefront = state.controls.storefront
        defaults.account = state.controls.account
        return defaults == state.controls
    }

    /// The controls with this line stepped forward (+1) or back (-1); nil for a line that opens a
    /// picker. `product`: the product selected in the list, whose own outcome its line sets.
    func step(_ controls: TestControls, by delta: Int, product: String? = nil) -> TestControls? {
        switch line.step {
        case .change(let change): change(controls, delta, product)
        case .picker: nil
        }
    }
}
