import CellGrid
import Foundation
import StoreCore
import StoreKitModel
import StorefrontUI
import Testing

private typealias F = UIFixture

/// The terminal UI applies `TerminalText`'s rule too: what it would not show raw never reaches the
/// screen, so a title cannot reorder the columns and a planted id cannot move the cursor.
@Suite struct UnprintableScreenTests {
    /// products.json with the first product's English title replaced.
    static func catalog(firstTitle: String) -> Catalog {
        let catalog = F.catalog
        var products = catalog.products
        let first = products[0]
        products[0] = Product(
            id: first.id, type: first.type, title: LocalizedText(["en": firstTitle, "zh-Hans": "100 颗宝石"]),
            description: first.description, prices: first.prices, unavailableIn: first.unavailableIn,
            removed: first.removed, wallet: first.wallet, subscription: first.subscription)
        return Catalog(
            bundleId: catalog.bundleId, languages: catalog.languages, defaultStorefront: catalog.defaultStorefront,
            storefronts: catalog.storefronts, accounts: catalog.accounts,
            subscriptionGroups: catalog.subscriptionGroups,
            products: products, settings: catalog.settings)
    }

    static func screen(_ catalog: Catalog, history: [Transaction] = []) -> Grid {
        let size = TerminalSize(columns: 120, rows: 40)
        let account = catalog.account(named: "alice") ?? catalog.defaultAccount
        var state = AppState(
            catalog: catalog, storeLabel: "simulated store", language: .english, account: account,
            storefront: catalog.storefront(id: account.storefront) ?? catalog.storefronts[0],
            localeOverride: nil, asciiOnly: false, size: size, now: F.now)
        state.timeZone = TimeZone(identifier: "UTC") ?? .current
        F.send(&state, .productsLoaded(catalog.request(ids: catalog.allProductIds, storefront: state.storefront)))
        if !history.isEmpty {
            F.send(
                &state,
                .snapshot(
                    StoreSnapshot(
                        history: history, pending: [], balances: [:], entitlements: [], controls: TestControls())))
        }
        return View.render(state)
    }

    /// A title with a right-to-left override and a zero-width space shows, cell for cell, as the
    /// same title without them: the price column does not move.
    @Test func aTitleWithBidirectionalAndInvisibleCharactersShowsWithoutThem() {
        let planted = Self.screen(Self.catalog(firstTitle: "100 Gems\u{202E} 99.0$\u{200B}"))
        let plain = Self.screen(Self.catalog(firstTitle: "100 Gems 99.0$"))
        #expect(planted.rows == plain.rows)
        #expect(planted.rows.allSatisfy(TerminalText.isPrintable))
    }

    /// Transactions whose product ids a store holds: an escape sequence, a C1 control with a
    /// right-to-left override, a joiner after a letter.
    @Test func plantedProductIdsReachNoCell() {
        let ids = [
            "\u{1B}]52;c;SGVsbG8=\u{7}\u{1B}[2KOK", "com.example.\u{9B}2J\u{202E}sqeg", "com.example.ge\u{200D}ms",
        ]
        let history = ids.enumerated().map { index, id in
            F.transaction("200000000000000\(index + 1)", id, .failed, error: .storeKit(.paymentInvalid))
        }
        let grid = Self.screen(F.catalog, history: history)
        let unprintable = grid.rows.filter { !TerminalText.isPrintable($0) }
        #expect(unprintable.isEmpty, "\(unprintable.map(\.debugDescription))")
        #expect(grid.text.contains("]52;c;SGVsbG8=[2KOK"), "\(grid.text)")
        #expect(grid.text.contains("com.example.gems"), "\(grid.text)")
    }
}
