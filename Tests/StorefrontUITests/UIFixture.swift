import CellGrid
import Foundation
import StoreCore
import StoreKitModel
import StorefrontUI
import Testing

/// An AppState on the repository's products.json with the products request answered, a fixed
/// clock and time zone, so every screen is the same on every machine.
enum UIFixture {
    static let gems = "com.example.storefront.gems.100"
    static let removeAds = "com.example.storefront.removeads"
    static let monthly = "com.example.storefront.premium.monthly"
    static let plusMonthly = "com.example.storefront.premiumplus.monthly"
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static let catalog: Catalog = {
        do {
            return try CatalogLoader.decode(
                Array(try Data(contentsOf: root.appendingPathComponent("products.json"))), source: "products.json")
        } catch {
            preconditionFailure("products.json must load for the UI tests: \(error)")
        }
    }()

    static func state(
        _ size: TerminalSize = TerminalSize(columns: 80, rows: 24), language: Language = .english,
        account: String = "alice", loaded: Bool = true
    ) -> AppState {
        let account = catalog.account(named: account) ?? catalog.defaultAccount
        let storefront = catalog.storefront(id: account.storefront) ?? catalog.storefronts[0]
        var state = AppState(
            catalog: catalog, storeLabel: "simulated store", language: language, account: account,
            storefront: storefront, localeOverride: nil, asciiOnly: false, size: size, now: now)
        state.timeZone = TimeZone(identifier: "UTC") ?? .current
        if loaded {
            _ = Reducer.reduce(
                &state, .productsLoaded(catalog.request(ids: catalog.allProductIds, storefront: storefront)))
        }
        return state
    }

    static func transaction(
        _ id: String, _ productId: String, _ state: TransactionState, error: StoreError? = nil,
        account: String = "alice", quantity: Int = 1, finished: Bool = false
    ) -> Transaction {
        Transaction(
            id: id, originalId: id,
            payment: Payment(
                productId: productId, quantity: quantity, applicationUsername: "order-\(id)", account: account),
            state: state, error: error, purchaseDate: now.addingTimeInterval(-60), finished: finished)
    }

    /// The pending payments a store with an empty app ledger reports for these unfinished
    /// transactions: Ask to Buy waits for a parent; the paid ones are unfinished.
    static func pending(_ unfinished: [Transaction]) -> [PendingPayment] {
        unfinished.compactMap { transaction in
            let reason: PendingPayment.Reason
            switch transaction.state {
            case .purchasing, .failed: return nil
            case .deferred: reason = .awaitingApproval
            case .purchased, .restored: reason = .unfinished
            }
            return PendingPayment(
                transactionId: transaction.id, productId: transaction.productId, quantity: transaction.quantity,
                state: transaction.state, since: transaction.purchaseDate, reason: reason)
        }
    }

    /// Applies each action in turn and returns every effect asked for.
    @discardableResult
    static func send(_ state: inout AppState, _ actions: Action...) -> [Effect] {
        actions.flatMap { Reducer.reduce(&state, $0) }
    }

    /// A payment confirmed in this session and reported added by the buy effect.
    static func added(_ state: inout AppState, _ transaction: Transaction) {
        _ = Reducer.reduce(&state, .paymentAdded(transaction))
    }

    @discardableResult
    static func keys(_ state: inout AppState, _ keys: Key...) -> [Effect] {
        keys.flatMap { Reducer.reduce(&state, .key($0)) }
    }
}

/// Compares a rendered screen with `Golden/NAME.txt`, which ends with a digest of its colours and
/// emphasis (`StyleMap.digestLine`), and with `styles` those in full with `Golden/NAME.styles`
/// (`StyleMap`); `UPDATE_GOLDEN=1 swift test` rewrites them.
enum Golden {
    static let directory = UIFixture.root.appendingPathComponent("Tests/StorefrontUITests/Golden")

    /// The screen as a golden file holds it: each row without its trailing blanks.
    static func text(_ state: AppState) -> String {
        View.render(state).rows.map { $0.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
            .joined(separator: "\n") + "\n"
    }

    static func check(
        _ name: String, _ state: AppState, styles: Bool = false,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        let grid = View.render(state)
        // Every row is exactly the grid's width in cells: nothing written outside it.
        for row in grid.rows { #expect(CellWidth.of(row) <= grid.size.columns, sourceLocation: sourceLocation) }
        let text = text(state)
        let styleMap = StyleMap.text(of: grid)
        // The digest pins every golden's styles; the failure shows them in full, as it cannot.
        compare(
            text + StyleMap.digestLine(of: styleMap) + "\n", with: "\(name).txt",
            shown: text + "\nstyles now (the digest's input):\n" + styleMap, sourceLocation)
        if styles { compare(styleMap, with: "\(name).styles", shown: text, sourceLocation) }
    }

    /// `file` holds `actual`, or the test fails with the lines that differ and the screen.
    static func compare(_ actual: String, with file: String, shown: String, _ sourceLocation: Testing.SourceLocation) {
        let url = directory.appendingPathComponent(file)
        if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" {
            try? actual.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
            Issue.record(
                "missing golden file \(url.path); run UPDATE_GOLDEN=1 swift test --filter StorefrontUITests and review it",
                sourceLocation: sourceLocation)
            return
        }
        guard actual != expected else { return }
        Issue.record(
            "\(file) differs from the golden file (- golden, + now):\n\(difference(expected, actual))\nscreen now:\n\(shown)",
            sourceLocation: sourceLocation)
    }

    /// The lines that differ, by line number: a golden screen keeps its rows in place, so a
    /// changed row is one pair of lines.
    static func difference(_ expected: String, _ actual: String) -> String {
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return (0..<max(old.count, new.count)).compactMap { index -> String? in
            let was = index < old.count ? old[index] : nil
            let now = index < new.count ? new[index] : nil
            guard was != now else { return nil }
            return "line \(index + 1):" + (was.map { "\n- " + $0 } ?? "") + (now.map { "\n+ " + $0 } ?? "")
        }.joined(separator: "\n")
    }
}
