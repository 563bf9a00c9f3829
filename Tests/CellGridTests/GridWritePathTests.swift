import CellGrid
import Testing

/// `write` takes one of three paths (ASCII bytes; scalars measured once; characters) and cuts for
/// "…" inside the first two. Whatever the path, a row must read as a plain model of the rules
/// says: the text cut by `CellWidth.truncate`, then laid out character by character.
@Suite struct GridWritePathTests {
    static let texts = [
        "", "Gems", "Remove Ads forever", "\tab\r\ncd", "¥160 · 中文字幕", "⚠ invalid: a, b, c",
        "高级会员 Premium", "1\u{202F}234,56\u{202F}€", "e\u{301}te\u{301}", "👍🏽 ok", "👨‍👩‍👧 family",
        "中a中b中c", "—…—", "\u{200F}x\u{AD}y", "abcdefghijklmno", "ａｂｃ full",
    ]

    /// The row as the rules lay it out, one string per cell ("" for the right half of a wide character).
    static func model(_ text: String, columns: Int, column: Int, maxWidth: Int?, overflow: Grid.Overflow) -> String {
        var cells = Array(repeating: " ", count: columns)
        let limit = min(maxWidth ?? Int.max, columns - column)
        guard limit > 0 else { return cells.joined() }
        let shown = overflow == .ellipsis && text.utf8.count > limit ? CellWidth.truncate(text, to: limit) : text
        var offset = 0
        for character in shown {
            let width = CellWidth.of(character)
            if width == 0 { continue }
            let x = column + offset
            if offset + width > limit {
                if offset < limit, x >= 0 { cells[x] = " " }  // a wide character with one cell left
                break
            }
            if x >= 0 {
                cells[x] = String(character)
                if width == 2 { cells[x + 1] = "" }
            } else if x + width > 0 {
                cells[0] = " "  // the right half of a wide character at column 0
            }
            offset += width
        }
        return cells.joined()
    }

    @Test(arguments: [Grid.Overflow.clip, .ellipsis])
    func everyPathLaysTextOutByTheRules(_ overflow: Grid.Overflow) {
        let columns = 10
        var checked = 0
        for text in Self.texts {
            for column in -3...9 {
                for maxWidth in [nil, 0, 1, 2, 3, 4, 5, 7, 9, 12] as [Int?] {
                    var grid = Grid(size: TerminalSize(columns: columns, rows: 1))
                    grid.write(text, row: 0, column: column, maxWidth: maxWidth, overflow: overflow)
                    let expected = Self.model(
                        text, columns: columns, column: column, maxWidth: maxWidth, overflow: overflow)
                    #expect(
                        grid.rows[0] == expected,
                        "\(text.debugDescription) at \(column), maxWidth \(String(describing: maxWidth))")
                    checked += 1
                }
            }
        }
        #expect(checked == Self.texts.count * 13 * 10)
    }
}
