import CellGrid
import Testing

/// `TerminalText`: the one rule for what reaches a terminal as itself.
@Suite struct TerminalTextTests {
    @Test func everyC0ControlIsEscaped() {
        for value in UInt32(0)..<0x20 {
            let scalar = Unicode.Scalar(value)!
            let shown = TerminalText.escaped("a\(scalar)b")
            let expected =
                switch scalar {
                case "\n": #"a\nb"#
                case "\r": #"a\rb"#
                case "\t": #"a\tb"#
                default: "a\\u{\(String(value, radix: 16, uppercase: true))}b"
                }
            #expect(shown == expected)
        }
    }

    @Test func deleteAndEveryC1ControlAreEscaped() {
        #expect(TerminalText.escaped("a\u{7F}") == #"a\u{7F}"#)
        for value in UInt32(0x80)...0x9F {
            let text = String(Unicode.Scalar(value)!)
            #expect(TerminalText.escaped(text) == "\\u{\(String(value, radix: 16, uppercase: true))}")
        }
    }

    @Test func anEscapeSequenceBecomesVisibleText() {
        let planted = "\u{1B}]52;c;SGVsbG8=\u{7}\u{1B}[2KOK"
        #expect(TerminalText.escaped(planted) == #"\u{1B}]52;c;SGVsbG8=\u{7}\u{1B}[2KOK"#)
        #expect(TerminalText.removingUnprintable(planted) == "]52;c;SGVsbG8=[2KOK")
    }

    @Test(
        arguments: [0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069]
            as [UInt32])
    func everyBidirectionalControlIsEscaped(_ value: UInt32) {
        let text = "Gems\(Unicode.Scalar(value)!)  $0.99"
        #expect(TerminalText.escaped(text) == "Gems\\u{\(String(value, radix: 16, uppercase: true))}  $0.99")
        #expect(!TerminalText.isPrintable(text))
    }

    @Test(
        arguments: [
            0x00AD, 0x180E, 0x200B, 0x200C, 0x200D, 0x2060, 0x2061, 0x2062, 0x2063, 0x2064, 0x206A, 0x206F,
            0xFEFF, 0xFFF9, 0xFFFB, 0x110BD, 0x1D173, 0xE0001, 0xE0041,
        ] as [UInt32])
    func everyInvisibleFormatCharacterIsEscaped(_ value: UInt32) {
        let text = "ge\(Unicode.Scalar(value)!)ms"
        #expect(TerminalText.escaped(text) == "ge\\u{\(String(value, radix: 16, uppercase: true))}ms")
    }

    @Test func lineAndParagraphSeparatorsAreEscaped() {
        #expect(TerminalText.escaped("a\u{2028}b\u{2029}c") == #"a\u{2028}b\u{2029}c"#)
    }

    /// Over every scalar, alone between two letters: escaped exactly when it is a control, a
    /// format character or a line or paragraph separator. This also checks the ranges settled
    /// without looking up the category against the Unicode data of this Swift.
    @Test func escapedExactlyWhenControlFormatOrSeparator() {
        var wrong: [String] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let unprintable =
                switch scalar.properties.generalCategory {
                case .control, .format, .lineSeparator, .paragraphSeparator: true
                default: false
                }
            if TerminalText.isPrintable("a\(scalar)a") == unprintable { wrong.append(String(value, radix: 16)) }
        }
        #expect(wrong.isEmpty, "wrong for \(wrong.prefix(20))")
    }

    /// Text people write, CJK, prices as ICU formats them, emoji sequences (joined with U+200D,
    /// tagged, flags, keycaps, skin tones), combining marks, and joiners where scripts need them.
    @Test(arguments: [
        "Remove Ads", "100 颗宝石", "高级会员（月度）", "¥160", "1,19\u{A0}€", "€\u{A0}1,19", "12\u{202F}345,00\u{A0}€",
        "💎", "👨‍👩‍👧", "🏳️‍🌈", "❤️‍🔥", "🧑🏽‍💻", "🏃‍♂️", "🇯🇵", "🏴󠁧󠁢󠁳󠁣󠁴󠁿", "1️⃣",
        "e\u{301}", "Z̤͔ͧ̑̓ä͖̭̈̇", "Ångström", "안녕하세요", "שלום", "مرحبا", "สวัสดี",
        "می\u{200C}خواهم", "क्\u{200D}ष", "क्\u{200C}ष", "ශ්\u{200D}රී",
        "\u{E000}", "\u{FFFD}",
    ])
    func ordinaryTextIsUnchanged(_ text: String) {
        #expect(TerminalText.isPrintable(text))
        #expect(TerminalText.escaped(text) == text)
        #expect(TerminalText.removingUnprintable(text) == text)
    }

    @Test func joinersAreEscapedWhereTheyOnlyHide() {
        #expect(TerminalText.escaped("\u{200D}💎") == #"\u{200D}💎"#)
        #expect(TerminalText.escaped("gems\u{200D}") == #"gems\u{200D}"#)
        #expect(TerminalText.escaped("1\u{200D}2") == #"1\u{200D}2"#)
        #expect(TerminalText.escaped("\u{200C}gems") == #"\u{200C}gems"#)
        #expect(TerminalText.escaped("g\u{200C}ems") == #"g\u{200C}ems"#)
    }

    @Test func tagCharactersAreKeptOnlyInAnEmojiTagSequence() {
        #expect(TerminalText.escaped("a\u{E0067}\u{E0062}") == #"a\u{E0067}\u{E0062}"#)
        // After CANCEL TAG the sequence is over.
        #expect(TerminalText.escaped("🏴\u{E0067}\u{E007F}\u{E0067}") == "🏴\u{E0067}\u{E007F}\\u{E0067}")
        #expect(TerminalText.escaped("🏴x\u{E0067}") == #"🏴x\u{E0067}"#)
    }

    @Test func escapingTwiceChangesNothing() {
        let once = TerminalText.escaped("\u{1B}[2J\u{202E}\u{9B}\n\t\u{E0001}")
        #expect(once == #"\u{1B}[2J\u{202E}\u{9B}\n\t\u{E0001}"#)
        #expect(TerminalText.isPrintable(once))
        #expect(TerminalText.escaped(once) == once)
    }

    @Test func replacementIsTheCallersChoice() {
        let json = TerminalText.replacingUnprintable("a\u{202E}b") { "<\($0.value)>" }
        #expect(json == "a<8238>b")
        #expect(TerminalText.removingUnprintable("Ge\u{200B}ms\u{202E}") == "Gems")
    }
}
