/// What a cell means, not what it looks like: the terminal driver maps each role to colours, or to
/// bold/reverse/underline/dim when colours are off (`NO_COLOR`, `TERM=dumb`, monochrome terminals).
public enum Role: Int, CaseIterable, Hashable, Sendable {
    case normal
    /// The title bar and sheet titles.
    case title
    /// Secondary text: identifiers, hints, timestamps.
    case muted
    case price
    /// The selection: the marker of the main list, the highlighted row of a sheet's list.
    case selected
    case warning
    case error
    case success
    case info
    /// The persistent banner (pending payments).
    case banner
    /// Box frames and separators.
    case border
    /// Key names in hints and the help overlay ("q", "Enter").
    case key
    /// Text the user is typing (filter, quantity).
    case input
    /// The status bar at the bottom.
    case status

    /// One character per role, for tests that check where each role landed (`Grid.roleRows`).
    public var marker: Character {
        switch self {
        case .normal: "."
        case .title: "T"
        case .muted: "m"
        case .price: "$"
        case .selected: "S"
        case .warning: "W"
        case .error: "E"
        case .success: "+"
        case .info: "i"
        case .banner: "B"
        case .border: "#"
        case .key: "K"
        case .input: "I"
        case .status: "="
        }
    }
}

/// Attributes a view adds on top of its role (a bold word in a normal line).
public struct Attributes: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let bold = Attributes(rawValue: 1 << 0)
    public static let reverse = Attributes(rawValue: 1 << 1)
    public static let underline = Attributes(rawValue: 1 << 2)
}
