import CellGrid
import Foundation
import StoreCore
import StoreKitModel
import StorefrontUI
import Testing

/// A sheet owns its rectangle, the box and the two columns either side of it: nothing of the
/// screen beneath shows there, however full that screen is, and no wide character is left cut in
/// half at its edges.
@Suite struct SheetFrameTests {
    private typealias F = UIFixture

    /// products.json with every product's English title and description long enough to fill its
    /// row, in wide characters that start on even columns, or with `shift` on odd ones.
    static func crowded(shift: Bool) throws -> Catalog {
        let url = F.root.appendingPathComponent("products.json")
        var json = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var products = try #require(json["products"] as? [[String: Any]])
        let lead = shift ? "x" : ""
        for index in products.indices {
            var title = try #require(products[index]["title"] as? [String: String])
            title["en"] = lead + String(repeating: "漢字", count: 60)
            products[index]["title"] = title
            var description = try #require(products[index]["description"] as? [String: String])
            description["en"] = lead + String(repeating: "かな", count: 120)
            products[index]["description"] = description
        }
        json["products"] = products
        let data = try JSONSerialization.data(withJSONObject: json)
        return try CatalogLoader.decode(Array(data), source: "crowded products.json")
    }

    /// `state` with its list on `catalog` instead.
    static func on(_ catalog: Catalog, _ state: AppState) -> AppState {
        var crowded = AppState(
            catalog: catalog, storeLabel: state.storeLabel, language: state.language, account: state.account,
            storefront: state.storefront, localeOverride: nil, asciiOnly: false, size: state.size, now: state.now)
        crowded.timeZone = state.timeZone
        _ = Reducer.reduce(
            &crowded, .productsLoaded(catalog.request(ids: catalog.allProductIds, storefront: state.storefront)))
        crowded.sheet = state.sheet
        return crowded
    }

    /// Where the sheet's box is on `grid`: its corners' rows and columns.
    static func box(on grid: Grid) -> (top: Int, bottom: Int, left: Int, right: Int)? {
        for row in 0..<grid.size.rows {
            for column in 0..<grid.size.columns where grid[row, column].character == "┌" {
                guard let right = (column..<grid.size.columns).first(where: { grid[row, $0].character == "┐" }),
                    let bottom = (row..<grid.size.rows).first(where: { grid[$0, column].character == "└" })
                else { return nil }
                return (row, bottom, column, right)
            }
        }
        return nil
    }

    static let sheets: [(String, Sheet)] = [
        ("error", .error(ErrorSheet(kind: .store(.storeKit(.paymentNotAllowed)), productId: nil))),
        ("help", .help(scroll: 0)),
    ]

    @Test(arguments: [
        TerminalSize(columns: 60, rows: 16), TerminalSize(columns: 80, rows: 24), TerminalSize(columns: 81, rows: 24),
        TerminalSize(columns: 120, rows: 40),
    ])
    func nothingBeneathShowsInTheSheetsRectangle(size: TerminalSize) throws {
        let backgrounds = [try Self.crowded(shift: false), try Self.crowded(shift: true)]
        for (name, sheet) in Self.sheets {
            var plain = F.state(size)
            plain.sheet = sheet
            let expected = View.render(plain)
            let box = try #require(Self.box(on: expected), "\(name) at \(size): no box")
            let columns = max(0, box.left - 2)...min(size.columns - 1, box.right + 2)
            var bare = plain
            bare.sheet = nil
            let plainBeneath = View.render(bare)
            for catalog in backgrounds {
                var crowded = Self.on(catalog, plain)
                let grid = View.render(crowded)
                crowded.sheet = nil
                let beneath = View.render(crowded)
                // The crowded list differs from the plain one under the sheet, so a cell that shows
                // through would differ too.
                let differing = (box.top...box.bottom).flatMap { row in
                    columns.filter { beneath[row, $0] != plainBeneath[row, $0] }
                }
                #expect(differing.count > columns.count, "\(name) at \(size)")
                for row in box.top...box.bottom {
                    for column in columns {
                        #expect(
                            grid[row, column] == expected[row, column],
                            "\(name) at \(size): (\(row), \(column)) shows what is beneath:\n\(grid.text)")
                    }
                    for column in columns where column < box.left || column > box.right {
                        #expect(grid[row, column] == .blank, "\(name) at \(size): (\(row), \(column))")
                    }
                    // A wide character cut by the margin leaves no half: the row is its width in cells.
                    #expect(CellWidth.of(grid.rows[row]) == size.columns, "\(name) at \(size), row \(row)")
                }
            }
        }
    }
}
