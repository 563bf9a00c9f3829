import Foundation
import StoreKitModel
import StorefrontUI
import SyntheticData
import Testing

/// The incremental filter must always show what a search of the whole catalog shows.
@Suite struct ProductListTests {
    static let products: [Product] = {
        let catalog = try? CatalogLoader.decode(SyntheticCatalog.generate(count: 2_000, seed: 11), source: "synthetic")
        return catalog?.products ?? []
    }()

    /// What a fresh list shows for `query`: searched from scratch.
    static func fresh(_ query: String, language: Language = .english) -> [Int] {
        var list = ProductList(products: products, language: language)
        list.setQuery(query)
        return list.visible
    }

    @Test func typingAndBackspaceMatchASearchFromScratch() {
        #expect(Self.products.count == 2_000)
        var list = ProductList(products: Self.products, language: .english)
        let query = "Dragon Pass m"
        var typed = ""
        for character in query {
            typed.append(character)
            list.setQuery(typed)
            #expect(list.visible == Self.fresh(typed), "typing \(typed)")
        }
        while !typed.isEmpty {
            typed.removeLast()
            list.setQuery(typed)
            #expect(list.visible == Self.fresh(typed), "backspace to \(typed)")
        }
        #expect(list.visible.count == Self.products.count)
        // Edits that are neither: a different query, then back to an earlier one.
        for next in ["dragon", "dragon p", "frost", "fro", "frost wolf", "dragon"] {
            list.setQuery(next)
            #expect(list.visible == Self.fresh(next), "query \(next)")
        }
    }

    @Test func chineseTitlesAndRelabelling() {
        var list = ProductList(products: Self.products, language: .simplifiedChinese)
        for query in ["巨", "巨龙", "巨龙通", "巨龙", "巨"] {
            list.setQuery(query)
            #expect(list.visible == Self.fresh(query, language: .simplifiedChinese), "query \(query)")
        }
        list.relabel(language: .english)
        #expect(list.visible == Self.fresh("巨"))
        list.setQuery("Dragon")
        #expect(list.visible == Self.fresh("dragon") && !list.visible.isEmpty)
    }

    @Test func theSelectedProductStaysSelected() throws {
        var list = ProductList(products: Self.products, language: .english)
        list.setQuery("dragon")
        list.move(by: 7, page: 20)
        let chosen = try #require(list.selected).id
        list.setQuery("dragon ")
        if list.visible.contains(where: { Self.products[$0].id == chosen }) {
            #expect(list.selected?.id == chosen)
        }
        list.setQuery("dragon")
        #expect(list.visible.contains(where: { Self.products[$0].id == chosen }))
        #expect(list.selected?.id == chosen)
        list.setQuery("no such product at all")
        #expect(list.visible.isEmpty && list.selection == 0 && list.selected == nil)
    }
}
