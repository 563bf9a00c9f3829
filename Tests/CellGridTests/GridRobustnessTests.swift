import CellGrid
import SyntheticData
import Testing

/// Random operations at random places on small grids never crash and never leave half a wide
/// character. Deterministic: a fixed seed, so a failure reproduces.
@Suite struct GridRobustnessTests {
    @Test func randomOperationsKeepTheInvariant() {
        var random = SplitMix64(state: 42)
        let texts = [
            "", "a", "中", "中文字", "¥160", "1\u{202F}234,56\u{202F}€", "👍e\u{301}", "Remove Ads",
            "高级会员 Premium", "\t\n", "\u{200F}",
        ]
        let coordinates = [Int.min, -100, -3, -2, -1, 0, 1, 2, 3, 5, 8, 100, Int.max]
        for _ in 0..<300 {
            let size = TerminalSize(
                columns: Int.random(in: 0...8, using: &random),
                rows: Int.random(in: 0...4, using: &random))
            var grid = Grid(size: size)
            for _ in 0..<20 {
                let row = coordinates.randomElement(using: &random)!
                let column = coordinates.randomElement(using: &random)!
                let width = coordinates.randomElement(using: &random)!
                let height = coordinates.randomElement(using: &random)!
                switch Int.random(in: 0..<4, using: &random) {
                case 0:
                    let used = grid.write(
                        texts.randomElement(using: &random)!, row: row, column: column,
                        role: Role.allCases.randomElement(using: &random)!,
                        maxWidth: Bool.random(using: &random) ? nil : width,
                        overflow: Bool.random(using: &random) ? .clip : .ellipsis)
                    #expect(used >= 0 && used <= size.columns)
                case 1:
                    grid.fill(Rect(row: row, column: column, width: width, height: height), role: .banner)
                case 2:
                    grid.box(
                        Rect(row: row, column: column, width: width, height: height),
                        title: texts.randomElement(using: &random)!, ascii: Bool.random(using: &random))
                default:
                    _ = grid[row, column]
                }
            }
            #expect(grid.rows.count == size.rows)
            #expect(grid.roleRows.allSatisfy { $0.count == size.columns })
            for row in 0..<size.rows {
                #expect(continuationsFollowWideCharacters(grid, row: row), "\(size) row \(row): \(grid.rows[row])")
            }
        }
    }
}
