import StoreKitModel

/// A line of the TUI's test-controls sheet, as a control's row in `TestControls.table` gives it:
/// the sheet lists every control's lines in the table's order.
public struct SheetRow: Sendable {
    /// Names the line: the control's name, or a name of its own for a control's second line.
    public let id: String
    public let label: ControlWords
    /// What the line shows, which the UI puts into words in its language.
    public let display: @Sendable (TestControls) -> ControlDisplay
    public let step: SheetStep

    public init(
        id: String, label: ControlWords, display: @escaping @Sendable (TestControls) -> ControlDisplay, step: SheetStep
    ) {
        self.id = id
        self.label = label
        self.display = display
        self.step = step
    }
}

/// What the arrows and Enter do on a line of the sheet.
public enum SheetStep: Sendable {
    /// The controls with the line stepped forward (`delta` +1) or back (-1). `product`: the
    /// product selected in the list, for a line that sets that product's own value.
    case change(@Sendable (TestControls, _ delta: Int, _ product: String?) -> TestControls)
    /// Enter opens the main screen's picker for it.
    case picker(ControlPicker)

    /// The value after `current` in `values` (`delta` +1) or before it (-1), wrapping around; a
    /// value not in the list steps from the first.
    public static func cycle<T: Equatable>(_ values: [T], _ current: T, _ delta: Int) -> T {
        guard !values.isEmpty else { return current }
        let index = values.firstIndex(of: current) ?? 0
        return values[((index + delta) % values.count + values.count) % values.count]
    }
}

/// The main screen's pickers a line of the sheet can open.
public enum ControlPicker: Sendable, Hashable {
    case storefront, account
}

/// A value on a line of the sheet, before the UI says it in its language.
public enum ControlDisplay: Sendable, Hashable {
    case onOff(Bool)
    /// A state named in words of its own ("every purchase").
    case words(en: String, zh: String)
    case outcome(PaymentOutcome)
    case milliseconds(Int)
    case timeRate(TimeRate)
    case verification(VerificationFailure?)
    /// The storefront and the account in force, which the UI knows (an account's own storefront
    /// applies when none is set).
    case storefront, account
    /// The selected product's own outcome, from every product's.
    case productOutcome([String: PaymentOutcome])
    /// The APIs given an error.
    case apiErrors([SimulatedAPI: StoreError])
    /// The error the APIs are given; nil when none is.
    case apiErrorCode(StoreError?)
    case text(String)
}
