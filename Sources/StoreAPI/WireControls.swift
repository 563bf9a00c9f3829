import StoreCore
import StoreKitModel

/// The test controls on the wire: a field per row of `TestControls.table`, named by its
/// `wireField`, with the same tokens as `storefront manage set` (on/off as JSON booleans, latency
/// as a number, a paired control as an object). `PUT /admin/controls` takes the whole object; a
/// field left out keeps its current value.
public struct WireControls: Codable, Sendable, Hashable {
    /// The fields present, by wire field.
    public var fields: [String: ControlWireValue]

    /// Every control's field, which the server checks a body against.
    public struct CodingKeys: CodingKey, CaseIterable, Hashable, Sendable {
        public let stringValue: String
        public var intValue: Int? { nil }

        public init(stringValue: String) {
            self.stringValue = stringValue
        }

        public init?(intValue: Int) { nil }

        public static let allCases = TestControls.table.map { CodingKeys(stringValue: $0.wireField) }
    }

    /// The controls in force. `everyField`: a client's PUT, in which an unset storefront or
    /// account is sent empty to clear it, instead of left out as an answer leaves it.
    public init(_ controls: TestControls, everyField: Bool = false) {
        fields = [:]
        for control in TestControls.table {
            fields[control.wireField] = control.wireValue(in: controls, everyField: everyField)
        }
    }

    public subscript(control: ControlSetting) -> ControlWireValue? {
        get { fields[control.wireField] }
        set { fields[control.wireField] = newValue }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        fields = [:]
        for control in TestControls.table {
            let key = CodingKeys(stringValue: control.wireField)
            let value: ControlWireValue? =
                switch control.form {
                case .single(let single):
                    switch single.wire {
                    case .bool: try container.decodeIfPresent(Bool.self, forKey: key).map(ControlWireValue.bool)
                    case .integer: try container.decodeIfPresent(Int.self, forKey: key).map(ControlWireValue.integer)
                    case .text: try container.decodeIfPresent(String.self, forKey: key).map(ControlWireValue.text)
                    }
                case .paired:
                    try container.decodeIfPresent([String: String].self, forKey: key).map(ControlWireValue.map)
                }
            fields[control.wireField] = value
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        for control in TestControls.table {
            let key = CodingKeys(stringValue: control.wireField)
            switch fields[control.wireField] {
            case .bool(let on)?: try container.encode(on, forKey: key)
            case .integer(let number)?: try container.encode(number, forKey: key)
            case .text(let text)?: try container.encode(text, forKey: key)
            case .map(let entries)?: try container.encode(entries, forKey: key)
            case nil: break
            }
        }
    }

    /// `current` with every field this object sets, each parsed as `storefront manage set` parses
    /// it; the catalog checks storefronts, accounts and products.
    public func applied(to current: TestControls, catalog: Catalog) throws(ControlProblem) -> TestControls {
        var controls = current
        for control in ControlSetting.allCases {
            guard let value = fields[control.wireField] else { continue }
            try control.apply(wire: value, to: &controls, catalog: catalog)
        }
        return controls
    }
}
