import StoreKitModel

/// One test control, a row of `TestControls.table`: the name `storefront manage set NAME VALUE`
/// uses, the one parser of its value, the field that carries it over HTTP, its key in the store's
/// settings, its lines in the TUI's sheet and its line in the docs. The command line, the
/// server's `/admin/controls`, the sheet, scenarios, tapes and the docs all read the rows, so a
/// new control is a new row and the behaviour that reads its field.
public struct ControlSetting: Sendable, Hashable, CustomStringConvertible {
    /// The name `manage set`, a scenario's `set` and a tape's `Store set` use.
    public let name: String
    /// The field of `GET /v1/controls` and `PUT /admin/controls` that carries it.
    public let wireField: String
    /// Its key in the store's `settings` table, after `controls.`. The keys are those the first
    /// stores wrote, so a state directory of any version reads the same.
    public let storageKey: String
    /// What a value may be, for help texts and error messages; for a paired control, its two
    /// values as help shows them (`PRODUCT_ID OUTCOME|none`).
    public let accepted: String
    /// What it does, in one line: the docs' table of controls and the OpenAPI description.
    public let doc: String
    /// Its lines in the TUI's test-controls sheet, in order.
    public let sheet: [SheetRow]
    /// How its value is read, shown, carried and stored.
    public let form: Form

    public enum Form: Sendable {
        /// One value (`manage set latency 250`).
        case single(Single)
        /// A map set one key at a time (`manage set product-outcome PRODUCT OUTCOME`); `none` removes
        /// a key, and the wire carries the whole map.
        case paired(Paired)
    }

    public var description: String { name }

    public static func == (lhs: ControlSetting, rhs: ControlSetting) -> Bool { lhs.name == rhs.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    /// Every control in the order the command line lists them: the one-value controls in the
    /// table's order, then the paired ones, whose help lines read differently.
    public static let allCases: [ControlSetting] =
        TestControls.table.filter { !$0.isPaired } + TestControls.table.filter(\.isPaired)

    public var isPaired: Bool {
        if case .paired = form { return true }
        return false
    }

    /// How many values `manage set` takes after the name.
    public var valueCount: Int { isPaired ? 2 : 1 }

    /// Sets it in `controls` from its values, checked against `catalog`; `controls` is unchanged
    /// on a problem.
    public func apply(_ values: [String], to controls: inout TestControls, catalog: Catalog) throws(ControlProblem) {
        guard values.count == valueCount else {
            throw problem(nil, "takes \(isPaired ? "two values" : "one value"), found \(values.count)")
        }
        var changed = controls
        do {
            switch form {
            case .single(let single): try single.set(values[0], &changed, catalog)
            case .paired(let paired): try paired.set(values[0], values[1], &changed, catalog)
            }
        } catch {
            throw problem(error.value, error.message)
        }
        controls = changed
    }

    /// `apply` with the one value of a one-value control.
    public func apply(_ value: String, to controls: inout TestControls, catalog: Catalog) throws(ControlProblem) {
        try apply([value], to: &controls, catalog: catalog)
    }

    /// The value of a one-value control in `controls` as `apply` reads it; nil for a paired one.
    public func value(in controls: TestControls) -> String? {
        guard case .single(let single) = form else { return nil }
        return single.text(controls)
    }

    /// The default: its value in `TestControls()`, before a catalog seeds anything.
    public var defaultValue: ControlWireValue? { wireValue(in: TestControls(), everyField: true) }

    func problem(_ value: String?, _ message: String) -> ControlProblem {
        ControlProblem(setting: name, field: wireField, value: value, message: message)
    }
}

extension ControlSetting {
    /// The control `name` names, as `manage set` spells it.
    public init?(_ name: String) {
        guard let control = TestControls.table.first(where: { $0.name == name }) else { return nil }
        self = control
    }
}

// MARK: The wire

/// A control's value as JSON carries it; `WireControls` encodes it under the control's field.
public enum ControlWireValue: Sendable, Hashable {
    case bool(Bool)
    case integer(Int)
    case text(String)
    /// A paired control's whole map.
    case map([String: String])
}

/// How a one-value control travels in JSON: its `manage set` text as a JSON boolean (`on`, `off`),
/// a number, or a string.
public enum WireForm: Sendable, Hashable {
    case bool
    case integer
    /// `omittedWhenEmpty`: an empty value (not set) is left out of an answer; a client that sets
    /// every field sends it empty, which clears it.
    case text(omittedWhenEmpty: Bool)
}

extension ControlSetting {
    /// Its value in `controls` as the wire carries it; nil where the field is left out.
    /// `everyField`: a client's PUT of every control, in which an unset value is sent empty.
    public func wireValue(in controls: TestControls, everyField: Bool = false) -> ControlWireValue? {
        switch form {
        case .single(let single):
            let text = single.text(controls)
            switch single.wire {
            case .bool: return .bool(Switch(rawValue: text)?.isOn ?? false)
            case .integer: return Int(text).map(ControlWireValue.integer)
            case .text(let omitted): return omitted && text.isEmpty && !everyField ? nil : .text(text)
            }
        case .paired(let paired):
            return .map(Dictionary(paired.entries(controls), uniquingKeysWith: { _, last in last }))
        }
    }

    /// Sets it in `controls` from a wire value, parsed as `manage set` parses its text; a map
    /// replaces the whole of a paired control.
    public func apply(wire: ControlWireValue, to controls: inout TestControls, catalog: Catalog) throws(ControlProblem)
    {
        switch (form, wire) {
        case (.single, .bool(let on)): try apply(Switch(on).rawValue, to: &controls, catalog: catalog)
        case (.single, .integer(let number)): try apply(String(number), to: &controls, catalog: catalog)
        case (.single, .text(let text)): try apply(text, to: &controls, catalog: catalog)
        case (.paired(let paired), .map(let entries)):
            var changed = controls
            paired.clear(&changed)
            for (key, value) in entries.sorted(by: { $0.key < $1.key }) {
                try apply([key, value], to: &changed, catalog: catalog)
            }
            controls = changed
        case (.single, .map), (.paired, _):
            throw problem(nil, "expected \(isPaired ? "an object" : "a single value")")
        }
    }
}

// MARK: The store's settings

extension ControlSetting {
    /// Its value as the store's `settings` table holds it; nil removes the key.
    public func stored(in controls: TestControls) -> String? {
        switch form {
        case .single(let single): single.stored(controls)
        case .paired(let paired): paired.entries(controls).map { "\($0.0)=\($0.1)" }.joined(separator: "\n")
        }
    }

    /// Sets it in `controls` from what the settings table holds. A value that no longer reads
    /// (a hand-edited database, a product since removed from the token list) keeps the default:
    /// loading never fails or traps on the table's contents.
    public func restore(_ text: String, into controls: inout TestControls) {
        switch form {
        case .single(let single): single.restore(text, &controls)
        case .paired(let paired):
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2 else { continue }
                paired.restore(parts[0], parts[1], &controls)
            }
        }
    }
}

// MARK: The kinds of control

/// A value that does not parse, before it is said which control it belongs to.
public struct ValueProblem: Error, Sendable, Hashable {
    /// The value, to echo; nil when the message already says it.
    public let value: String?
    public let message: String

    public init(_ value: String?, _ message: String) {
        self.value = value
        self.message = message
    }
}

/// Words in both languages of the UI.
public typealias ControlWords = (en: String, zh: String)

extension ControlSetting {
    /// A one-value control's parts, made by `flag` and `value`.
    public struct Single: Sendable {
        public let wire: WireForm
        public let schema: ValueSchema
        let set: @Sendable (String, inout TestControls, Catalog) throws(ValueProblem) -> Void
        let text: @Sendable (TestControls) -> String
        let stored: @Sendable (TestControls) -> String?
        let restore: @Sendable (String, inout TestControls) -> Void
    }

    /// A paired control's parts.
    public struct Paired: Sendable {
        /// What its first value names, as help shows it: `PRODUCT_ID`, `API`.
        public let key: String
        /// Its two values in words, for a command that lacks one: "a product id and an outcome (or none)".
        public let needs: String
        /// The keys and values the map may hold.
        public let keys: KeySchema
        public let values: ValueSchema
        let set: @Sendable (String, String, inout TestControls, Catalog) throws(ValueProblem) -> Void
        /// Every key and its value, sorted by key: as the wire, the settings and `manage set` write them.
        let entries: @Sendable (TestControls) -> [(String, String)]
        let clear: @Sendable (inout TestControls) -> Void
        /// One stored entry, read leniently: one that does not read is skipped.
        let restore: @Sendable (String, String, inout TestControls) -> Void
    }

    /// An on/off control: `on`/`off` on the command line, a JSON boolean, `1`/`0` in the settings,
    /// a line of the sheet that Enter or an arrow toggles. `words` names the two states on that
    /// line where "on" and "off" would not say what they mean.
    static func flag(
        _ name: String, _ field: WritableKeyPath<TestControls, Bool> & Sendable, wire: String, stored: String,
        label: ControlWords, doc: String, words: (on: ControlWords, off: ControlWords)? = nil
    ) -> ControlSetting {
        let display: @Sendable (TestControls) -> ControlDisplay = { controls in
            let on = controls[keyPath: field]
            guard let words else { return .onOff(on) }
            let chosen = on ? words.on : words.off
            return .words(en: chosen.en, zh: chosen.zh)
        }
        return ControlSetting(
            name: name, wireField: wire, storageKey: stored, accepted: Switch.inWords, doc: doc,
            sheet: [
                SheetRow(
                    id: name, label: label, display: display,
                    step: .change { controls, _, _ in
                        var next = controls
                        next[keyPath: field].toggle()
                        return next
                    })
            ],
            form: .single(
                Single(
                    wire: .bool, schema: .boolean,
                    set: { value, controls, _ throws(ValueProblem) in
                        guard let setting = Switch(rawValue: value) else {
                            throw ValueProblem(nil, "expected \(Switch.inWords), got \(value)")
                        }
                        controls[keyPath: field] = setting.isOn
                    },
                    text: { Switch($0[keyPath: field]).rawValue },
                    stored: { $0[keyPath: field] ? "1" : "0" },
                    restore: { text, controls in
                        // Anything but 1 or 0 keeps the default, so a damaged value reads as unset.
                        if text == "1" || text == "0" { controls[keyPath: field] = text == "1" }
                    })))
    }

    /// How the sheet changes a one-value control.
    enum ValueStep<Value: Sendable & Equatable>: Sendable {
        /// Left and right step through these values, wrapping around.
        case cycle([Value])
        /// Enter opens the main screen's picker.
        case picker(ControlPicker)
    }

    /// A control of one value of any other kind. `parse` answers nil for a value that is not one
    /// of `accepted`, or throws a problem of its own; `stored` and `restore` are its form in the
    /// settings table (nil removes the key, and a stored value `restore` cannot read keeps the
    /// default).
    static func value<Value: Sendable & Equatable>(
        _ name: String, _ field: WritableKeyPath<TestControls, Value> & Sendable, wire: String, stored: String,
        label: ControlWords, doc: String, accepted: String, carried: WireForm, schema: ValueSchema,
        parse: @escaping @Sendable (String, Catalog) throws(ValueProblem) -> Value?,
        text: @escaping @Sendable (Value) -> String,
        store: @escaping @Sendable (Value) -> String?,
        restore: @escaping @Sendable (String) -> Value?,
        display: @escaping @Sendable (Value) -> ControlDisplay,
        step: ValueStep<Value>
    ) -> ControlSetting {
        let sheetStep: SheetStep =
            switch step {
            case .cycle(let values):
                .change { controls, delta, _ in
                    var next = controls
                    next[keyPath: field] = SheetStep.cycle(values, controls[keyPath: field], delta)
                    return next
                }
            case .picker(let picker): .picker(picker)
            }
        return ControlSetting(
            name: name, wireField: wire, storageKey: stored, accepted: accepted, doc: doc,
            sheet: [
                SheetRow(id: name, label: label, display: { display($0[keyPath: field]) }, step: sheetStep)
            ],
            form: .single(
                Single(
                    wire: carried, schema: schema,
                    set: { value, controls, catalog throws(ValueProblem) in
                        guard let parsed = try parse(value, catalog) else {
                            throw ValueProblem(value, "expected \(accepted)")
                        }
                        controls[keyPath: field] = parsed
                    },
                    text: { text($0[keyPath: field]) },
                    stored: { store($0[keyPath: field]) },
                    restore: { value, controls in
                        if let restored = restore(value) { controls[keyPath: field] = restored }
                    })))
    }

    /// A control that is a map of keys to values.
    static func paired<Key: Hashable & Sendable, Value: Sendable>(
        _ name: String, _ field: WritableKeyPath<TestControls, [Key: Value]> & Sendable, wire: String,
        stored: String, doc: String, usage: (key: String, value: String, needs: String), keys: KeySchema,
        values: ValueSchema,
        set: @escaping @Sendable (String, String, Catalog) throws(ValueProblem) -> (Key, Value?),
        text: @escaping @Sendable (Key, Value) -> (String, String),
        restore: @escaping @Sendable (String, String) -> (Key, Value)?,
        sheet: [SheetRow]
    ) -> ControlSetting {
        ControlSetting(
            name: name, wireField: wire, storageKey: stored, accepted: "\(usage.key) \(usage.value)", doc: doc,
            sheet: sheet,
            form: .paired(
                Paired(
                    key: usage.key, needs: usage.needs, keys: keys, values: values,
                    set: { key, value, controls, catalog throws(ValueProblem) in
                        let (parsedKey, parsedValue) = try set(key, value, catalog)
                        controls[keyPath: field][parsedKey] = parsedValue
                    },
                    entries: { controls in
                        controls[keyPath: field].map { text($0.key, $0.value) }.sorted { $0.0 < $1.0 }
                    },
                    clear: { $0[keyPath: field] = [:] },
                    restore: { key, value, controls in
                        if let entry = restore(key, value) { controls[keyPath: field][entry.0] = entry.1 }
                    })))
    }
}

// MARK: The docs

/// The values a control's JSON field may hold, for the docs and the OpenAPI schema.
public enum ValueSchema: Sendable, Hashable {
    case boolean
    case integer(ClosedRange<Int>)
    /// A string from this list.
    case oneOf([String])
    /// A payment outcome's token.
    case outcome
    /// An outcome's token that is an error (`fail:CODE`, `network[:CODE]`, `cancel`), or `none`.
    case failure
    /// A storefront of the catalog, in either case, or an empty string.
    case storefront
    /// An account of the catalog, or an empty string.
    case account
}

/// The keys a paired control's map may hold.
public enum KeySchema: Sendable, Hashable {
    /// The catalog's product ids.
    case products
    /// These names.
    case oneOf([String])
}

/// A test control's value that does not parse: which control, the value, and what it accepts.
public struct ControlProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The name `manage set` uses.
    public let setting: String
    /// The JSON field of `PUT /admin/controls`.
    public let field: String
    public let value: String?
    public let message: String

    public init(setting: String, field: String, value: String?, message: String) {
        self.setting = setting
        self.field = field
        self.value = value
        self.message = message
    }

    /// "700000: expected milliseconds, 0 to 600000", for an answer that names the field apart.
    public var valueAndMessage: String {
        value.map { "\($0): \(message)" } ?? message
    }

    /// "latency 700000: expected milliseconds, 0 to 600000".
    public var description: String {
        "\(setting)\(value.map { " \($0)" } ?? ""): \(message)"
    }
}
