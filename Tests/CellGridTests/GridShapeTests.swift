import CellGrid
import Testing

@Suite struct GridShapeTests {
    @Test func fillClipsAndSetsRoles() {
        var grid = Grid(size: TerminalSize(columns: 5, rows: 3))
        grid.fill(Rect(row: -1, column: 3, width: 10, height: 2), role: .banner, character: "=")
        #expect(grid.rows == ["   ==", "     ", "     "])
        #expect(grid.roleRows == ["...BB", ".....", "....."])
        grid.fill(Rect(row: 2, column: 0, width: 0, height: 5), role: .error)
        grid.fill(Rect(row: 2, column: 0, width: -3, height: 5), role: .error)
        grid.fill(Rect(row: Int.max, column: Int.max, width: Int.max, height: Int.max), role: .error)
        grid.fill(Rect(row: Int.min, column: Int.min, width: Int.max, height: Int.max), role: .error)
        #expect(grid.roleRows == ["...BB", ".....", "....."])
    }

    @Test func fillWithAWideCharacterUsesSpaces() {
        var grid = Grid(size: TerminalSize(columns: 3, rows: 1))
        grid.fill(grid.bounds, character: "中")
        #expect(grid.rows == ["   "])
    }

    @Test func fillOverHalfAWideCharacterRepairsIt() {
        var grid = Grid(size: TerminalSize(columns: 4, rows: 1))
        grid.write("中文", row: 0, column: 0)
        grid.fill(Rect(row: 0, column: 1, width: 2, height: 1), role: .selected)
        #expect(grid.rows == ["    "])
        #expect(continuationsFollowWideCharacters(grid, row: 0))
    }

    @Test func unicodeBox() {
        var grid = Grid(size: TerminalSize(columns: 12, rows: 4))
        grid.box(Rect(row: 0, column: 1, width: 10, height: 4), title: "Gems")
        #expect(
            grid.text == """
                 ┌─ Gems ─┐
                 │        │
                 │        │
                 └────────┘
                """)
        #expect(grid.roleRows[0] == ".##TTTTTT##.")
        #expect(grid.roleRows[1] == ".#........#.")
    }

    @Test func asciiBox() {
        var grid = Grid(size: TerminalSize(columns: 8, rows: 3))
        grid.box(grid.bounds, title: nil, ascii: true)
        #expect(grid.text == "+------+\n|      |\n+------+")
    }

    @Test func longTitlesAreCutWithEllipsis() {
        var grid = Grid(size: TerminalSize(columns: 12, rows: 2))
        grid.box(grid.bounds, title: "高级会员 Monthly")
        #expect(grid.rows[0] == "┌─ 高级会…─┐")
        var narrow = Grid(size: TerminalSize(columns: 4, rows: 2))
        narrow.box(narrow.bounds, title: "Title")  // no room for a title
        #expect(narrow.rows == ["┌──┐", "└──┘"])
    }

    @Test func degenerateBoxes() {
        var grid = Grid(size: TerminalSize(columns: 6, rows: 3))
        grid.box(Rect(row: 0, column: 0, width: 1, height: 1))
        grid.box(Rect(row: 0, column: 2, width: 1, height: 3))
        grid.box(Rect(row: 1, column: 3, width: 3, height: 1))
        #expect(grid.rows == ["┘ ┐   ", "  │└─┘", "  ┘   "])
        grid.box(Rect(row: 0, column: 0, width: 0, height: 3))
        grid.box(Rect(row: 0, column: 0, width: 3, height: -1))
        #expect(grid.rows == ["┘ ┐   ", "  │└─┘", "  ┘   "])
    }

    @Test func boxesPartlyOrWhollyOutside() {
        var grid = Grid(size: TerminalSize(columns: 5, rows: 3))
        grid.box(Rect(row: -1, column: -1, width: 4, height: 3), title: "A")
        #expect(grid.rows == ["  │  ", "──┘  ", "     "])
        grid.box(Rect(row: 5, column: 5, width: 4, height: 3))
        grid.box(Rect(row: Int.min, column: Int.min, width: Int.max, height: Int.max), title: "x")
        grid.box(Rect(row: Int.max, column: Int.max, width: Int.max, height: Int.max), title: "x")
        grid.box(Rect(row: -10, column: -10, width: Int.max, height: Int.max), title: "huge")
        #expect(continuationsFollowWideCharacters(grid, row: 0))
    }

    @Test func insetShrinksEverySide() {
        let rect = Rect(row: 1, column: 2, width: 10, height: 5)
        #expect(rect.inset(by: 1) == Rect(row: 2, column: 3, width: 8, height: 3))
        #expect(rect.inset(by: 3).isEmpty)
    }
}
