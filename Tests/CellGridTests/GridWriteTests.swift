import CellGrid
import Testing

private func grid(_ columns: Int, _ rows: Int) -> Grid {
    Grid(size: TerminalSize(columns: columns, rows: rows))
}

@Suite struct GridWriteTests {
    @Test func startsBlankAtItsSize() {
        let blank = grid(4, 2)
        #expect(blank.rows == ["    ", "    "])
        #expect(blank.text == "\n")
        #expect(blank[0, 0] == .blank)
        #expect(blank.bounds == Rect(row: 0, column: 0, width: 4, height: 2))
    }

    @Test func sizeClampsNegativeValues() {
        let size = TerminalSize(columns: -3, rows: -1)
        #expect(size == .zero)
        #expect(TerminalSize(columns: 80, rows: 24).description == "80×24")
        #expect(TerminalSize(columns: 80, rows: 24).fits(TerminalSize(columns: 60, rows: 20)))
        #expect(!TerminalSize(columns: 80, rows: 24).fits(TerminalSize(columns: 81, rows: 20)))
    }

    @Test func writesPlainTextAndReportsCellsUsed() {
        var screen = grid(10, 1)
        #expect(screen.write("Gems", row: 0, column: 2) == 4)
        #expect(screen.rows == ["  Gems    "])
        #expect(screen[0, 2].character == "G")
        #expect(screen[0, 2].role == .normal)
    }

    @Test func wideCharactersTakeTwoCells() {
        var screen = grid(6, 1)
        #expect(screen.write("中文", row: 0, column: 1, role: .title) == 4)
        #expect(screen.rows == [" 中文 "])  // 6 cells, 4 characters
        #expect(screen[0, 1].character == "中")
        #expect(screen[0, 2].isContinuation)
        #expect(screen[0, 3].character == "文")
        #expect(screen[0, 4].isContinuation)
        #expect(screen[0, 2].role == .title)
        #expect(screen.roleRows == [".TTTT."])
    }

    @Test func currencySignsAndNarrowNoBreakSpaceTakeOneCell() {
        var screen = grid(20, 3)
        #expect(screen.write("¥160", row: 0, column: 0) == 4)
        #expect(screen.write("€2,99", row: 1, column: 0) == 5)
        #expect(screen.write("1\u{202F}234,56\u{202F}€", row: 2, column: 0) == 10)
        #expect(screen[2, 1].character == "\u{202F}")
        #expect(screen[2, 9].character == "€")
        #expect(screen[2, 10].character == " ")
    }

    @Test func emojiAndCombiningMarks() {
        var screen = grid(6, 1)
        #expect(screen.write("👍e\u{301}x", row: 0, column: 0) == 4)
        #expect(screen[0, 0].character == "👍")
        #expect(screen[0, 1].isContinuation)
        #expect(screen[0, 2].character == "e\u{301}")
        #expect(screen[0, 3].character == "x")
    }

    @Test func controlCharactersAndLoneFormatMarksAreDropped() {
        var screen = grid(8, 1)
        #expect(screen.write("a\tb\n\u{200F}c", row: 0, column: 0) == 3)
        #expect(screen.rows == ["abc     "])
    }

    /// What `TerminalText` would not show raw never reaches a cell, even joined to a character:
    /// a planted escape sequence, bidirectional controls, a joiner after a letter, an Arabic
    /// number sign before a digit, tags outside an emoji flag. The writing that needs a joiner
    /// or tags keeps them.
    @Test(arguments: [
        ("\u{1B}]52;c;SGVsbG8=\u{7}\u{1B}[2KOK", "]52;c;SGVsbG8=[2KOK"), ("Gems\u{202E}$0.99", "Gems$0.99"),
        ("\u{2067}高级\u{2069}会员", "高级会员"), ("ge\u{200D}ms", "gems"), ("x\u{0600}12", "x12"),
        ("a\u{E0067}\u{E0062}b", "ab"),
        ("👨‍👩‍👧", "👨‍👩‍👧"), ("🏴󠁧󠁢󠁳󠁣󠁴󠁿", "🏴󠁧󠁢󠁳󠁣󠁴󠁿"), ("می\u{200C}خواهم", "می\u{200C}خواهم"),
    ])
    func unprintableCharactersNeverReachACell(_ text: String, _ shown: String) {
        var screen = grid(24, 1)
        screen.write(text, row: 0, column: 0)
        let written = screen.rows[0].unicodeScalars.filter { $0 != " " }
        #expect(String(String.UnicodeScalarView(written)) == shown.replacingOccurrences(of: " ", with: ""))
        #expect(TerminalText.isPrintable(screen.rows[0]))
        #expect(screen.write(text, row: 0, column: 0) == CellWidth.of(shown))
    }

    @Test func clipsAtTheRightEdge() {
        var screen = grid(5, 1)
        #expect(screen.write("Remove Ads", row: 0, column: 2) == 3)
        #expect(screen.rows == ["  Rem"])
    }

    @Test func aWideCharacterThatDoesNotFitBecomesASpace() {
        var screen = grid(5, 1)
        screen.fill(screen.bounds, character: "x")
        #expect(screen.write("ab中文", row: 0, column: 0) == 5)
        #expect(screen.rows == ["ab中 "])
        #expect(!screen[0, 4].isContinuation)
    }

    @Test func maxWidthCountsCells() {
        var screen = grid(10, 2)
        #expect(screen.write("中文字", row: 0, column: 0, maxWidth: 3) == 3)
        #expect(screen.rows[0] == "中        ")
        #expect(screen.write("abcdef", row: 1, column: 0, maxWidth: 4) == 4)
        #expect(screen.rows[1] == "abcd      ")
    }

    @Test func zeroOrNegativeMaxWidthWritesNothing() {
        var screen = grid(4, 1)
        #expect(screen.write("abc", row: 0, column: 0, maxWidth: 0) == 0)
        #expect(screen.write("abc", row: 0, column: 0, maxWidth: -5) == 0)
        #expect(screen.write("abc", row: 0, column: 0, maxWidth: Int.min) == 0)
        #expect(screen.rows == ["    "])
    }

    @Test func ellipsisWhenAsked() {
        var screen = grid(12, 4)
        #expect(screen.write("Premium Monthly", row: 0, column: 0, maxWidth: 8, overflow: .ellipsis) == 8)
        #expect(screen.write("高级会员月度", row: 1, column: 0, maxWidth: 5, overflow: .ellipsis) == 5)
        #expect(screen.write("高级会员月度", row: 2, column: 0, maxWidth: 4, overflow: .ellipsis) == 3)
        // The grid edge counts like maxWidth.
        #expect(screen.write("Remove Ads", row: 3, column: 6, overflow: .ellipsis) == 6)
        #expect(screen.text == "Premium…\n高级…\n高…\n      Remov…")
        // Text that fits is not touched.
        var fits = grid(4, 1)
        fits.write("Gems", row: 0, column: 0, overflow: .ellipsis)
        #expect(fits.rows == ["Gems"])
    }

    @Test func clipsAtTheLeftEdge() {
        var screen = grid(6, 2)
        #expect(screen.write("hello", row: 0, column: -2) == 3)
        #expect(screen.write("中文", row: 1, column: -1) == 3)
        #expect(screen.rows == ["llo   ", " 文   "])
        #expect(!screen[1, 0].isContinuation)
    }

    @Test func outOfBoundsWritesAreIgnored() {
        var screen = grid(4, 2)
        let before = screen
        for (row, column) in [
            (-1, 0), (2, 0), (0, 4), (0, 100), (Int.min, 0), (Int.max, 0),
            (0, Int.max), (0, Int.min), (Int.min, Int.min), (Int.max, Int.max),
        ] {
            #expect(screen.write("中x", row: row, column: column, maxWidth: Int.max) == 0)
        }
        #expect(screen == before)
    }

    @Test func hugeNegativeColumnWithTextEndingOnScreen() {
        var screen = grid(4, 1)
        #expect(screen.write("abc", row: 0, column: Int.min) == 0)
        #expect(screen.write("abc", row: 0, column: Int.min, overflow: .ellipsis) == 0)
        #expect(screen.rows == ["    "])
    }

    @Test func emptyAndOneCellGrids() {
        var empty = grid(0, 0)
        #expect(empty.write("中文", row: 0, column: 0) == 0)
        empty.fill(Rect(row: -5, column: -5, width: 100, height: 100), role: .banner)
        empty.box(Rect(row: 0, column: 0, width: 10, height: 10), title: "Title")
        #expect(empty.rows == [])
        #expect(empty.text == "")
        #expect(empty.roleRows == [])
        #expect(empty[0, 0] == .blank)

        var wide = grid(0, 3)
        #expect(wide.write("x", row: 1, column: 0) == 0)
        #expect(wide.rows == ["", "", ""])

        var one = grid(1, 1)
        #expect(one.write("中", row: 0, column: 0) == 1)  // does not fit: a space
        #expect(one.rows == [" "])
        #expect(one.write("ab", row: 0, column: 0) == 1)
        #expect(one.rows == ["a"])
        one.box(one.bounds, title: "T")
        #expect(one.rows == ["┘"])
    }

    @Test func overwritingHalfAWideCharacterBlanksTheOtherHalf() {
        var screen = grid(6, 3)
        screen.write("中文", row: 0, column: 0)
        screen.write("x", row: 0, column: 1)  // right half of 中
        #expect(screen.rows[0] == " x文  ")
        screen.write("中文", row: 1, column: 0)
        screen.write("y", row: 1, column: 2)  // left half of 文
        #expect(screen.rows[1] == "中y   ")
        screen.write("abcdef", row: 2, column: 0)
        screen.write("中", row: 2, column: 1)
        screen.write("文", row: 2, column: 2)  // over 中's right half and the "d"
        #expect(screen.rows[2] == "a 文ef")
        for row in 0..<3 { #expect(continuationsFollowWideCharacters(screen, row: row)) }
    }

    /// ASCII runs are written in one pass; only their two ends can cut a wide character, and both
    /// ends are repaired, with control bytes taking no cells on the way.
    @Test func anASCIIRunOverWideCharactersRepairsBothEnds() {
        var screen = grid(8, 2)
        screen.write("中文字", row: 0, column: 0)
        #expect(screen.write("a\u{7}bcd", row: 0, column: 1) == 4)  // from 中's right half to 字's left half
        #expect(screen.rows[0] == " abcd   ")
        screen.write("中文字", row: 1, column: 1)
        #expect(screen.write("\r\nxy", row: 1, column: -1, maxWidth: 3) == 1)  // one cell left of column 0 is clipped
        #expect(screen.rows[1] == "y中文字 ")
        for row in 0..<2 { #expect(continuationsFollowWideCharacters(screen, row: row)) }
    }

    @Test func anASCIIRunCutWithAnEllipsisRepairsBothEnds() {
        var screen = grid(8, 1)
        screen.write("中文字中", row: 0, column: 0)
        // From 中's right half; "…" lands on 字's left half.
        #expect(screen.write("abcdef", row: 0, column: 1, maxWidth: 4, overflow: .ellipsis) == 4)
        #expect(screen.rows[0] == " abc… 中")
        #expect(continuationsFollowWideCharacters(screen, row: 0))
        // Five printable bytes in four cells: "vwx" and "…", of which "v" and "w" fall left of column 0.
        #expect(screen.write("\u{7}vwxyz\r\n", row: 0, column: -2, maxWidth: 4, overflow: .ellipsis) == 2)
        #expect(screen.rows[0] == "x…bc… 中")
    }

    @Test func attributesAreKept() {
        var screen = grid(3, 1)
        screen.write("ab", row: 0, column: 0, role: .key, attributes: [.bold, .underline])
        #expect(screen[0, 0].attributes == [.bold, .underline])
        #expect(screen[0, 0].role == .key)
        #expect(screen[0, 2].attributes == [])
    }

    @Test func textTrimsTrailingSpacesOnly() {
        var screen = grid(6, 2)
        screen.write("  a b ", row: 0, column: 0)
        #expect(screen.text == "  a b\n")
        #expect(screen.description == screen.text)
    }
}

/// A continuation cell always sits right of a character cell.
func continuationsFollowWideCharacters(_ grid: Grid, row: Int) -> Bool {
    for column in 0..<grid.size.columns where grid[row, column].isContinuation {
        if column == 0 || grid[row, column - 1].isContinuation { return false }
    }
    return true
}
