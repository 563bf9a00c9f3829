import CNcursesw
import CellGrid
import Testing

@testable import TerminalUI

@Suite struct KeyDecodingTests {
    @Test func characters() {
        let expected: [UInt32: Key] = [
            0x0D: .enter, 0x0A: .enter, 0x09: .tab, 0x7F: .backspace, 0x08: .backspace, 0x1B: .escape,
            0x03: .control("c"), 0x01: .control("a"), 0x1A: .control("z"), 0x00: .control("@"),
            0x1C: .control("\\"), 0x1F: .control("_"), 0x71: .character("q"), 0x20: .character(" "),
            0x4E2D: .character("中"), 0xA5: .character("¥"),
        ]
        for (code, key) in expected {
            #expect(KeyDecoding.key(character: code) == key, "\(code)")
        }
        #expect(KeyDecoding.key(character: 0x85) == nil)  // C1 control
        #expect(KeyDecoding.key(character: 0xD800) == nil)  // a lone surrogate is no character
        #expect(KeyDecoding.key(character: 0x11_0000) == nil)
    }

    @Test func keyCodes() {
        let expected: [Int32: Key] = [
            KEY_UP: .up, KEY_DOWN: .down, KEY_LEFT: .left, KEY_RIGHT: .right, KEY_HOME: .home,
            KEY_END: .end, KEY_PPAGE: .pageUp, KEY_NPAGE: .pageDown, KEY_DC: .delete,
            KEY_BACKSPACE: .backspace, KEY_ENTER: .enter, KEY_BTAB: .backTab, cn_key_resize(): .resize,
            KEY_F0 + 1: .function(1), KEY_F0 + 12: .function(12),
        ]
        for (code, key) in expected {
            #expect(KeyDecoding.key(keyCode: code) == key, "\(code)")
        }
        #expect(KeyDecoding.key(keyCode: KEY_F0) == nil)
        #expect(KeyDecoding.key(keyCode: KEY_MOUSE) == nil)
        #expect(KeyDecoding.key(keyCode: -1) == nil)
    }

    @Test func escapeSequencesTerminfoDidNotDescribe() {
        let expected: [String: Key] = [
            "[A": .up, "[1;5A": .up, "OB": .down, "[C": .right, "[1;2D": .left, "[H": .home, "OF": .end,
            "[1~": .home, "[4~": .end, "[7~": .home, "[8~": .end, "[3~": .delete, "[5~": .pageUp,
            "[6;5~": .pageDown, "[Z": .backTab, "OM": .enter, "OP": .function(1), "OS": .function(4),
            "[11~": .function(1), "[15~": .function(5), "[17~": .function(6), "[21~": .function(10),
            "[23~": .function(11), "[24~": .function(12),
        ]
        for (sequence, key) in expected {
            #expect(KeyDecoding.key(escapeSequence: sequence) == key, "\(sequence)")
        }
        for sequence in ["", "[", "x", "[2~", "[99~", "[~", "[M", "Ox", "[;~"] {
            #expect(KeyDecoding.key(escapeSequence: sequence) == nil, "\(sequence)")
        }
    }
}

@Suite struct RoleStyleTests {
    @Test func rolesThatMustBeNoticedStandOutWithoutColour() {
        for role in [Role.title, .price, .selected, .warning, .error, .success, .banner, .key, .input, .status] {
            #expect(!RoleStyle.of(role).monochromeLook.isEmpty, "\(role)")
        }
        #expect(RoleStyle.of(.normal).monochromeLook.isEmpty)
        #expect(RoleStyle.of(.error).monochromeLook != RoleStyle.of(.warning).monochromeLook)
        #expect(RoleStyle.of(.selected).monochromeLook.contains(.reverse))
    }

    @Test func normalUsesTheTerminalsOwnColours() {
        #expect(!RoleStyle.of(.normal).hasColor)
        #expect(RoleStyle.of(.selected).hasColor)
    }
}

@Suite struct TerminalWithoutATerminalTests {
    @Test func doesNothingUntilStarted() {
        let terminal = Terminal()
        #expect(!terminal.isRunning)
        #expect(terminal.size == .zero)
        #expect(terminal.readKey(timeoutMilliseconds: 0) == nil)
        terminal.paint(Grid(size: TerminalSize(columns: 3, rows: 1)))
        terminal.stop()
        terminal.stop()
    }

    @Test(.enabled(if: !Terminal.isInteractive, "stdin and stdout are not both terminals"))
    func refusesToStartWithoutATerminal() {
        #expect(throws: TerminalError.notInteractive) { try Terminal().start() }
    }
}
