/// A VHS tape (charmbracelet/vhs's `.tape` language), as `storefront play` runs it: the commands
/// that make sense for a terminal program without a picture, plus `Store`, which acts on the
/// store as `storefront manage` does.
public struct Tape: Sendable, Equatable {
    public var steps: [Step]

    public struct Step: Sendable, Equatable {
        /// 1-based line in the tape, for messages.
        public let line: Int
        public let command: Command
        /// The line as written, for messages.
        public let source: String

        public init(line: Int, command: Command, source: String) {
            self.line = line
            self.command = command
            self.source = source
        }
    }

    public enum Command: Sendable, Equatable {
        case output(String)
        case setWidth(Int)
        case setHeight(Int)
        case setTypingSpeed(milliseconds: Int)
        /// A VHS setting about the picture (font, theme, padding…): nothing to do without one.
        case setIgnored(String)
        case env(name: String, value: String)
        case require(String)
        /// `Scenario lost-order`: the storefront starts from this scenario (a name or a file).
        case scenario(String)
        case type(String, speedMilliseconds: Int?)
        case key(Key, count: Int, speedMilliseconds: Int?)
        case sleep(milliseconds: Int)
        case wait(Wait)
        case screenshot(String)
        /// `Store approve last`: a `storefront manage` action on the played session's store.
        case store([String])
        /// `Expect transaction 1 state purchased`: a fact the store must hold.
        case expect(Expectation)
    }

    public struct Wait: Sendable, Equatable {
        public enum Scope: String, Sendable, Equatable {
            /// Text the screen did not show before the last key, `Type` or `Store` step (plain
            /// `Wait`): a TUI has no prompt line, and text on screen all along proves nothing
            /// about what the keys did.
            case new
            /// Anywhere on the screen, old text too (`Wait+Screen`).
            case screen
            /// The last line with anything on it, old text too (`Wait+Line`).
            case line
        }

        public let scope: Scope
        public let timeoutMilliseconds: Int
        public let pattern: String

        public init(scope: Scope, timeoutMilliseconds: Int, pattern: String) {
            self.scope = scope
            self.timeoutMilliseconds = timeoutMilliseconds
            self.pattern = pattern
        }
    }

    public enum Key: Sendable, Equatable {
        case named(String)
        /// Ctrl+<character> or Alt+<character>.
        case control(Character)
        case alt(Character)

        /// The bytes a terminal sends for the key (xterm's, as ncurses expects under TERM=xterm-256color).
        public var bytes: [UInt8] {
            switch self {
            case .named(let name): Array((Tape.keyBytes[name] ?? "").utf8)
            case .control(let character): [UInt8(character.asciiValue ?? 0x40) & 0x1F]
            case .alt(let character): [0x1B] + Array(String(character).utf8)
            }
        }
    }

    static let keyBytes: [String: String] = [
        "Enter": "\r", "Backspace": "\u{7F}", "Tab": "\t", "Space": " ", "Escape": "\u{1B}",
        "Up": "\u{1B}[A", "Down": "\u{1B}[B", "Right": "\u{1B}[C", "Left": "\u{1B}[D",
        "Home": "\u{1B}[H", "End": "\u{1B}[F", "PageUp": "\u{1B}[5~", "PageDown": "\u{1B}[6~",
        "Delete": "\u{1B}[3~", "Insert": "\u{1B}[2~",
    ]
}

extension Tape {
    /// What a tape's `Env` may set: the locale and terminal the storefront reads, and its documented
    /// STOREFRONT_ settings. Not PATH, LD_PRELOAD and their kind (they load code), nor the side
    /// channel's descriptors (the player sets them), nor what chooses the store, the state or the
    /// admin token (`storeChoosingNames`): a shared tape plays on its player's store.
    static let settableNames: Set<String> = [
        "LANG", "TERM", "NO_COLOR", "COLUMNS", "LINES", "STOREFRONT_RETRY_SECONDS", "STOREFRONT_SHARED_SECRET",
    ]

    /// The variables that would choose another store, state directory or admin token.
    static let storeChoosingNames: Set<String> = [
        "STOREFRONT_STORE", "STOREFRONT_HOME", "STOREFRONT_ADMIN_TOKEN", "STOREFRONT_DB",
    ]

    public static func settableVariable(_ name: String) -> Bool {
        settableNames.contains(name)
            || (name.hasPrefix("LC_") && name.count > 3 && name.dropFirst(3).allSatisfy { $0.isUppercase || $0 == "_" })
    }

    static var settableVariables: String {
        "LANG, LC_*, " + settableNames.subtracting(["LANG"]).sorted().joined(separator: ", ")
    }
}
