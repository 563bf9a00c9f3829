/// How each role looks, for every painter of a grid (the terminal, screenshots). With colours: a
/// foreground and background (the eight ANSI colour numbers, -1 for the terminal's own) plus
/// attributes. Without colours (`NO_COLOR`, `TERM=dumb`, no colour support): attributes alone,
/// chosen so that every role a user must notice still stands out.
public struct RoleStyle: Sendable {
    public struct Look: OptionSet, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let bold = Look(rawValue: 1 << 0)
        public static let reverse = Look(rawValue: 1 << 1)
        public static let underline = Look(rawValue: 1 << 2)
        public static let dim = Look(rawValue: 1 << 3)
    }

    public static let defaultColor: Int16 = -1
    public static let black: Int16 = 0, red: Int16 = 1, green: Int16 = 2, yellow: Int16 = 3
    public static let blue: Int16 = 4, magenta: Int16 = 5, cyan: Int16 = 6, white: Int16 = 7

    public var foreground: Int16
    public var background: Int16
    public var colorLook: Look
    public var monochromeLook: Look

    public var hasColor: Bool { foreground != Self.defaultColor || background != Self.defaultColor }

    public static func of(_ role: Role) -> RoleStyle {
        switch role {
        case .normal: RoleStyle(foreground: defaultColor, background: defaultColor, colorLook: [], monochromeLook: [])
        case .title:
            RoleStyle(foreground: defaultColor, background: defaultColor, colorLook: [.bold], monochromeLook: [.bold])
        case .muted:
            RoleStyle(foreground: defaultColor, background: defaultColor, colorLook: [.dim], monochromeLook: [.dim])
        case .price: RoleStyle(foreground: green, background: defaultColor, colorLook: [], monochromeLook: [.bold])
        case .selected: RoleStyle(foreground: black, background: cyan, colorLook: [], monochromeLook: [.reverse])
        case .warning:
            RoleStyle(foreground: yellow, background: defaultColor, colorLook: [.bold], monochromeLook: [.bold])
        case .error:
            RoleStyle(
                foreground: red, background: defaultColor, colorLook: [.bold], monochromeLook: [.bold, .underline])
        case .success: RoleStyle(foreground: green, background: defaultColor, colorLook: [], monochromeLook: [.bold])
        case .info: RoleStyle(foreground: cyan, background: defaultColor, colorLook: [], monochromeLook: [])
        case .banner:
            RoleStyle(foreground: black, background: yellow, colorLook: [.bold], monochromeLook: [.reverse, .bold])
        case .border: RoleStyle(foreground: blue, background: defaultColor, colorLook: [], monochromeLook: [.dim])
        case .key: RoleStyle(foreground: cyan, background: defaultColor, colorLook: [.bold], monochromeLook: [.bold])
        case .input:
            RoleStyle(
                foreground: defaultColor, background: defaultColor, colorLook: [.underline],
                monochromeLook: [.underline])
        case .status: RoleStyle(foreground: black, background: white, colorLook: [], monochromeLook: [.reverse])
        }
    }
}
