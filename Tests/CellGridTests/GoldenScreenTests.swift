import CellGrid
import Testing

/// A small storefront screen rendered to text, as the view's golden tests will do.
@Suite struct GoldenScreenTests {
    func storefront(ascii: Bool) -> Grid {
        var grid = Grid(size: TerminalSize(columns: 36, rows: 7))
        grid.write(" Storefront · 模拟商店", row: 0, column: 0, role: .title)
        grid.write("? help", row: 0, column: 30, role: .key)
        grid.box(Rect(row: 1, column: 0, width: 36, height: 5), title: "Products", ascii: ascii)
        let products: [(String, String)] = [
            ("100 宝石", "¥160"), ("Remove Ads", "€2,99"),
            ("高级会员 月度订阅 Premium", "1\u{202F}234,56\u{202F}€"),
        ]
        for (index, product) in products.enumerated() {
            let row = 2 + index
            let role: Role = index == 0 ? .selected : .normal
            grid.fill(Rect(row: row, column: 1, width: 34, height: 1), role: role)
            grid.write(index == 0 ? ">" : " ", row: row, column: 2, role: role)
            grid.write(product.0, row: row, column: 4, role: role, maxWidth: 18, overflow: .ellipsis)
            let price = product.1
            let width = price.unicodeScalars.count  // all one-cell characters here
            grid.write(price, row: row, column: 34 - width, role: index == 0 ? .selected : .price)
        }
        grid.write("q quit  / filter  ⏎ buy", row: 6, column: 0, role: .status, maxWidth: 36, overflow: .ellipsis)
        return grid
    }

    @Test func unicode() {
        #expect(
            storefront(ascii: false).text == """
                 Storefront · 模拟商店        ? help
                ┌─ Products ───────────────────────┐
                │ > 100 宝石                  ¥160 │
                │   Remove Ads               €2,99 │
                │   高级会员 月度订阅…  1\u{202F}234,56\u{202F}€ │
                └──────────────────────────────────┘
                q quit  / filter  ⏎ buy
                """)
    }

    @Test func roles() {
        #expect(
            storefront(ascii: false).roleRows == [
                "TTTTTTTTTTTTTTTTTTTTTT........KKKKKK",
                "##TTTTTTTTTT########################",
                "#SSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSS#",
                "#............................$$$$$.#",
                "#.......................$$$$$$$$$$.#",
                "####################################",
                "=======================.............",
            ])
    }

    @Test func ascii() {
        let rows = storefront(ascii: true).rows
        #expect(rows[1].hasPrefix("+- Products ---"))
        #expect(rows[1].hasSuffix("-+"))
        #expect(rows[2].hasPrefix("| > 100 宝石"))
        #expect(rows[5] == "+" + String(repeating: "-", count: 34) + "+")
    }

    @Test func everyRowIsExactlyTheGridWidthInCells() {
        let grid = storefront(ascii: false)
        #expect(grid.roleRows.allSatisfy { $0.count == 36 })
        for row in 0..<grid.size.rows { #expect(continuationsFollowWideCharacters(grid, row: row)) }
    }
}
