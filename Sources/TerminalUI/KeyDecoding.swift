import CNcursesw
import CellGrid

/// Turns what `wget_wch` returns into `Key`s. Pure functions, so they can be tested without a
/// terminal; `Terminal.readKey` does the reading.
enum KeyDecoding {
    /// A character code (`wget_wch` returned OK). Enter arrives as CR or LF, Backspace as DEL or
    /// Ctrl-H depending on the terminal; the other control codes become `.control` (raw mode, so
    /// Ctrl-C, Ctrl-Z and Ctrl-\ arrive here instead of raising signals).
    static func key(character code: UInt32) -> Key? {
        switch code {
        case 0x0D, 0x0A: return .enter
        case 0x09: return .tab
        case 0x08, 0x7F: return .backspace
        case 0x1B: return .escape
        case 0x00: return .control("@")
        case 0x01...0x1A: return Unicode.Scalar(code + 0x60).map { .control(Character($0)) }
        case 0x1C: return .control("\\")
        case 0x1D: return .control("]")
        case 0x1E: return .control("^")
        case 0x1F: return .control("_")
        case 0x80...0x9F: return nil  // C1 controls: nothing a user typed
        default: return Unicode.Scalar(code).map { .character(Character($0)) }
        }
    }

    /// A key code (`wget_wch` returned KEY_CODE_YES). Unknown codes (mouse, keypad corners) are nil.
    static func key(keyCode code: Int32) -> Key? {
        switch code {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_HOME: return .home
        case KEY_END: return .end
        case KEY_PPAGE: return .pageUp
        case KEY_NPAGE: return .pageDown
        case KEY_DC: return .delete
        case KEY_BACKSPACE: return .backspace
        case KEY_ENTER: return .enter
        case KEY_BTAB: return .backTab
        case cn_key_resize(): return .resize
        case (KEY_F0 + 1)...(KEY_F0 + 63): return .function(Int(code - KEY_F0))
        default: return nil
        }
    }

    /// The bytes after ESC of a sequence that terminfo did not describe, so ncurses passed it on
    /// as characters (e.g. "[1;5A" for Ctrl-↑ or "OP" for F1). Modifiers are ignored; sequences
    /// that name no key we know (Insert, mouse reports) give nil.
    static func key(escapeSequence body: String) -> Key? {
        let scalars = Array(body.unicodeScalars)
        guard let introducer = scalars.first, let final = scalars.last, scalars.count >= 2 else { return nil }
        let parameters = String(String.UnicodeScalarView(scalars.dropFirst().dropLast()))
        switch (introducer, final) {
        case ("[", "A"), ("O", "A"): return .up
        case ("[", "B"), ("O", "B"): return .down
        case ("[", "C"), ("O", "C"): return .right
        case ("[", "D"), ("O", "D"): return .left
        case ("[", "H"), ("O", "H"): return .home
        case ("[", "F"), ("O", "F"): return .end
        case ("[", "Z"): return .backTab
        case ("O", "M"): return .enter
        case ("O", "P"): return .function(1)
        case ("O", "Q"): return .function(2)
        case ("O", "R"): return .function(3)
        case ("O", "S"): return .function(4)
        case ("[", "~"):
            let number = Int(parameters.split(separator: ";").first ?? "")
            switch number {
            case 1, 7: return .home
            case 4, 8: return .end
            case 3: return .delete
            case 5: return .pageUp
            case 6: return .pageDown
            case .some(let n) where (11...15).contains(n): return .function(n - 10)
            case .some(let n) where (17...21).contains(n): return .function(n - 11)
            case 23: return .function(11)
            case 24: return .function(12)
            default: return nil
            }
        default: return nil
        }
    }

    /// True for the byte that ends a CSI or SS3 sequence.
    static func isFinal(_ code: UInt32) -> Bool {
        (0x40...0x7E).contains(code)
    }
}
