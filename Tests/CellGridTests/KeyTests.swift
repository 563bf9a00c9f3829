import CellGrid
import Testing

@Suite struct KeyTests {
    static let all: [Key] = [
        .character("q"), .character("G"), .character("?"), .character("/"), .character(" "),
        .character("中"), .enter, .escape, .backspace, .tab, .backTab, .up, .down, .left, .right,
        .home, .end, .pageUp, .pageDown, .delete, .function(1), .function(12), .control("c"),
        .control("z"), .control("\\"), .resize,
    ]

    @Test func descriptionsForTheHelpOverlay() {
        #expect(Key.up.description == "↑")
        #expect(Key.up.asciiDescription == "Up")
        #expect(Key.enter.description == "Enter")
        #expect(Key.control("c").description == "Ctrl-C")
        #expect(Key.pageDown.description == "PgDn")
        #expect(Key.function(5).description == "F5")
        #expect(Key.character(" ").description == "Space")
        #expect(Key.character("q").description == "q")
        #expect(Key.backTab.description == "Shift-Tab")
    }

    @Test(arguments: all) func descriptionsParseBack(_ key: Key) {
        #expect(Key(token: key.description) == key)
        #expect(Key(token: key.asciiDescription) == key)
    }

    @Test func otherSpellings() {
        let expected: [String: Key] = [
            "Up": .up, "UP": .up, "↓": .down, "Return": .enter, "escape": .escape, "Esc": .escape,
            "PageDown": .pageDown, "pgup": .pageUp, "Delete": .delete, "Ctrl+C": .control("c"),
            "^C": .control("c"), "ctrl-x": .control("x"), "C-a": .control("a"), "f10": .function(10),
            "F63": .function(63), "BackTab": .backTab, "shift+tab": .backTab, "BS": .backspace,
            "space": .character(" "), "j": .character("j"), "G": .character("G"),
        ]
        for (token, key) in expected {
            #expect(Key(token: token) == key, "\(token)")
        }
    }

    @Test func rejectsWhatIsNoKey() {
        for token in ["", "Ctrl-", "Ctrl-1", "Ctrl-é", "Ctrl-ab", "F0", "F64", "F-1", "Foo", "Alt-x"] {
            #expect(Key(token: token) == nil, "\(token)")
        }
    }
}
