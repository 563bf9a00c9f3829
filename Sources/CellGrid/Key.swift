/// A key press as the UI sees it, independent of ncurses. Control characters use the lowercase
/// letter: Ctrl-C is `.control("c")`. Tab, Enter, Backspace and Escape have their own cases even
/// though they are control characters too (Ctrl-I, Ctrl-M, Ctrl-H, Ctrl-[).
public enum Key: Hashable, Sendable {
    case character(Character)
    case enter, escape, backspace, tab, backTab
    case up, down, left, right, home, end, pageUp, pageDown, delete
    case function(Int)
    case control(Character)
    /// The terminal changed size; the driver already knows the new size.
    case resize
}

extension Key: CustomStringConvertible {
    /// The name for a key-binding table and the help overlay: "↑", "Enter", "Ctrl-C", "PgDn", "q".
    public var description: String { name(ascii: false) }

    /// The same names with words for the arrows ("Up"), for terminals without UTF-8.
    public var asciiDescription: String { name(ascii: true) }

    private func name(ascii: Bool) -> String {
        switch self {
        case .character(" "): "Space"
        case .character(let character): String(character)
        case .enter: "Enter"
        case .escape: "Esc"
        case .backspace: "Backspace"
        case .tab: "Tab"
        case .backTab: "Shift-Tab"
        case .up: ascii ? "Up" : "↑"
        case .down: ascii ? "Down" : "↓"
        case .left: ascii ? "Left" : "←"
        case .right: ascii ? "Right" : "→"
        case .home: "Home"
        case .end: "End"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .delete: "Del"
        case .function(let number): "F\(number)"
        case .control(let character): "Ctrl-\(character.uppercased())"
        case .resize: "Resize"
        }
    }
}

extension Key {
    /// Parses a key name as written in a key-binding table. Accepts what `description` and
    /// `asciiDescription` produce plus common spellings, case-insensitively for names:
    /// "Up"/"↑", "Enter"/"Return", "Esc"/"Escape", "PgDn"/"PageDown", "Del"/"Delete",
    /// "Ctrl-C"/"Ctrl+C"/"^C", "F1"…"F63", "Space", "Shift-Tab"/"BackTab", and any single
    /// character ("q", "?", "/", "G" — case matters here). Returns nil for anything else.
    public init?(token: String) {
        if token.count == 1, let character = token.first {
            switch character {
            case "↑": self = .up
            case "↓": self = .down
            case "←": self = .left
            case "→": self = .right
            default: self = .character(character)
            }
            return
        }
        let lower = token.lowercased()
        for prefix in ["ctrl-", "ctrl+", "c-", "^"] where lower.hasPrefix(prefix) {
            let rest = lower.dropFirst(prefix.count)
            guard rest.count == 1, let character = rest.first, Self.isControllable(character) else {
                return nil
            }
            self = .control(character)
            return
        }
        if lower.hasPrefix("f"), let number = Int(lower.dropFirst()), (1...63).contains(number),
            lower.dropFirst().allSatisfy(\.isASCII)
        {
            self = .function(number)
            return
        }
        switch lower {
        case "space": self = .character(" ")
        case "enter", "return": self = .enter
        case "esc", "escape": self = .escape
        case "backspace", "bs": self = .backspace
        case "tab": self = .tab
        case "shift-tab", "shift+tab", "backtab", "btab": self = .backTab
        case "up": self = .up
        case "down": self = .down
        case "left": self = .left
        case "right": self = .right
        case "home": self = .home
        case "end": self = .end
        case "pgup", "pageup": self = .pageUp
        case "pgdn", "pagedown": self = .pageDown
        case "del", "delete": self = .delete
        case "resize": self = .resize
        default: return nil
        }
    }

    /// The characters a terminal can send with Ctrl held: letters and @ [ \ ] ^ _ (lowercase form).
    static func isControllable(_ character: Character) -> Bool {
        guard let ascii = character.asciiValue else { return false }
        return (0x61...0x7A).contains(ascii) || "@[\\]^_".contains(character)
    }
}
