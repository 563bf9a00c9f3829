import Testing

@testable import CellGrid

/// A grid keeps characters as codes, and characters of several scalars in a side table. Two grids
/// are equal when every cell holds the same scalars, role and attributes, however they were written.
@Suite struct GridEqualityTests {
    static func grid(_ writes: [(String, Int)], role: Role = .normal) -> Grid {
        var grid = Grid(size: TerminalSize(columns: 8, rows: 2))
        for (text, column) in writes { grid.write(text, row: 0, column: column, role: role) }
        return grid
    }

    @Test func theSameTextWrittenAnotherWayIsTheSameGrid() {
        // "👍🏽" (two scalars) overwritten in one grid leaves an unused entry in its side table.
        let direct = Self.grid([("ab e\u{301}", 0)])
        let overwritten = Self.grid([("👍🏽👍🏽", 0), ("ab e\u{301}", 0)])
        #expect(direct == overwritten)
        #expect(direct.hashValue == overwritten.hashValue)
        #expect(overwritten.rows[0] == "ab e\u{301}    ")
        #expect(overwritten.sameCell(as: direct, row: 0, column: 3))
    }

    @Test func cellsDifferByScalarsRoleOrAttributes() {
        let base = Self.grid([("e\u{301}x", 0)])
        #expect(base != Self.grid([("e\u{300}x", 0)]))
        #expect(base != Self.grid([("\u{E9}x", 0)]))  // the same letter precomposed: other scalars
        #expect(base != Self.grid([("e\u{301}x", 0)], role: .title))
        var bold = Self.grid([("e\u{301}", 0)])
        bold.write("x", row: 0, column: 1, attributes: .bold)
        #expect(base != bold)
        #expect(!base.sameCell(as: bold, row: 0, column: 1))
        #expect(base.sameCell(as: bold, row: 0, column: 0))
        // Row by row, as the painter skips unchanged rows: the first differs, the second does not.
        #expect(!base.sameRow(as: bold, row: 0) && base.sameRow(as: bold, row: 1))
        #expect(Self.grid([("👍🏽👍🏽", 0), ("ab e\u{301}", 0)]).sameRow(as: Self.grid([("ab e\u{301}", 0)]), row: 0))
        #expect(!base.sameRow(as: base, row: 2) && !base.sameRow(as: base, row: -1))
        #expect(!base.sameRow(as: Grid(size: TerminalSize(columns: 4, rows: 2)), row: 1))
    }

    @Test func wideCharactersReadBackAsTheyWereWritten() {
        let screen = Self.grid([("中👨‍👩‍👧", 0)])
        #expect(screen[0, 0].character == "中")
        #expect(screen[0, 1].isContinuation && screen.isContinuation(row: 0, column: 1))
        #expect(screen[0, 2].character == "👨‍👩‍👧")
        #expect(screen.rows[0] == "中👨‍👩‍👧    ")
        #expect(!screen.isContinuation(row: 0, column: 8) && !screen.isContinuation(row: -1, column: 1))
        #expect(!screen.sameCell(as: Grid(size: TerminalSize(columns: 4, rows: 2)), row: 0, column: 0))
    }
}
