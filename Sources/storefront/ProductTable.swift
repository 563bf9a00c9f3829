import CellGrid
import StoreKitModel

/// The human-readable products table, aligned in terminal cells (CJK titles, `¥`, `€`, no-break spaces).
struct ProductTable {
    let context: CatalogContext
    let response: ProductsResponse

    /// The table's lines, for `Console.out(lines:)`.
    func render() -> [String] {
        let english = context.language == .english
        let formatter = context.priceFormatter
        let header = english ? ["Title", "Type", "Price", "Product ID"] : ["名称", "类型", "价格", "商品 ID"]
        // Cells are measured as they will be shown: escaped, as `Console` would escape them.
        // ICU brackets an Arabic or Hebrew price with right-to-left marks for bidirectional
        // renderers; the price is ours, the marks show nothing in a terminal column, and the
        // terminal UI drops them too.
        let rows = response.products.map { product in
            [
                TerminalText.escaped(product.title.text(in: context.language)),
                product.type.label(in: context.language),
                TerminalText.removingUnprintable(
                    formatter.displayPrice(of: product, in: context.storefront.id, language: context.language) ?? "—"),
                TerminalText.escaped(product.id),
            ]
        }
        let widths = (0..<header.count).map { column in
            ([header] + rows).map { CellWidth.of($0[column]) }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, text in
                CellWidth.pad(text, to: widths[column], alignRight: column == 2)
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }
        let storefront = context.storefront
        var lines = [
            english
                ? "Storefront \(storefront.id) · \(storefront.currency) · \(context.locale) · \(rows.count) product\(rows.count == 1 ? "" : "s")"
                : "店面 \(storefront.id) · \(storefront.currency) · \(context.locale) · \(rows.count) 件商品", "",
        ]
        lines.append(line(header))
        lines += rows.map(line)
        if !response.invalidProductIdentifiers.isEmpty {
            lines.append("")
            lines.append(
                (english ? "Invalid product identifiers: " : "无效的商品 ID：")
                    + response.invalidProductIdentifiers.joined(separator: ", "))
        }
        if !response.unavailableInStorefront.isEmpty {
            lines.append(
                (english ? "  of which not sold in \(storefront.id): " : "  其中在 \(storefront.id) 不销售：")
                    + response.unavailableInStorefront.joined(separator: ", "))
        }
        return lines
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
