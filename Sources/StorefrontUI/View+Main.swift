import CellGrid
import Foundation
import StoreCore
import StoreKitModel

extension View {
    static func catalog(_ grid: inout Grid, _ state: AppState, _ layout: Layout, _ strings: UIStrings) {
        let top = layout.listTop
        let width = layout.size.columns
        let count = state.list.visible.count
        let used = grid.write(strings.products, row: top - 1, column: 0, role: .title, attributes: .bold)
        // The position in plain text: it changes on every move, and a bold one costs the terminal
        // an attribute change more each time.
        if count > 0 { grid.write(" \(state.list.selection + 1)/\(count)", row: top - 1, column: used, role: .normal) }
        switch state.catalogLoad {
        case .loading:
            grid.write("\(spinner(state)) \(strings.loading)", row: top, column: 1, role: .muted)
            return
        case .failed(let message):
            grid.write(
                strings.productsFailed(message), row: top, column: 1, role: .error, maxWidth: width - 2,
                overflow: .ellipsis)
            return
        case .loaded(let invalid):
            if !invalid.isEmpty {
                var label = strings.invalidIdsLabel
                if state.asciiOnly { label = label.replacingOccurrences(of: "⚠", with: "!") }
                // Apart from the label, the ids are (nearly always) ASCII, which the grid writes fastest.
                let used = grid.write(label, row: layout.invalidRow, column: 0, role: .warning, overflow: .ellipsis)
                grid.write(
                    shownIds(invalid, width: state.size.columns).joined(separator: ", "), row: layout.invalidRow,
                    column: used,
                    role: .warning, overflow: .ellipsis)
            }
        }
        if count == 0 {
            grid.write(
                state.list.query.isEmpty ? strings.noProducts : strings.noMatches, row: top, column: 1, role: .muted)
        }
        // Positions in `state.list.products`: a row reads its product in place instead of a copy.
        let page = state.list.visible[min(state.list.scroll, count)..<min(count, state.list.scroll + layout.listRows)]
        // What the account has shows in the price's place, as the App Store shows "Purchased".
        let marks = ownershipMarks(state, strings)
        let listed = displayPrices(page, of: state.list.products, state)
        let prices =
            marks.isEmpty
            ? listed : zip(page, listed).map { position, price in marks[state.list.products[position].id] ?? price }
        let typeWidth = 16
        // The four type labels, each cut and measured once per frame rather than once per row.
        let types = ProductType.allCases.map { type in
            let label = CellWidth.truncate(type.label(in: state.language), to: typeWidth)
            return (type: type, label: label, width: CellWidth.of(label))
        }
        let priceWidth = min(20, prices.map(CellWidth.of).max() ?? 0)
        let titleWidth = max(4, width - 3 - typeWidth - priceWidth - 2)
        // Right-aligned by their start column rather than padded with spaces (the cells left of them
        // are blank already).
        let fittedPrices = prices.map { price in
            let text = CellWidth.truncate(price, to: priceWidth)
            return (text: text, width: CellWidth.of(text))
        }
        let products = state.list.products
        let titles = state.list.titles
        // The list's titles and descriptions are in the language shown unless the state was changed without
        // relabeling it.
        let titlesShown = state.list.language == state.language
        for (offset, position) in page.enumerated() {
            let row = top + offset * Layout.linesPerProduct
            // Only a marker shows the selection: moving it rewrites two cells, not two whole rows
            // (a full-width bar, or details that follow it, cost the terminal 6 % of a repaint a move).
            if state.list.scroll + offset == state.list.selection {
                grid.write(">", row: row, column: 0, role: .selected)
            }
            // Fields read in place: binding the whole product would copy it, a retain per field.
            let title = titlesShown ? titles[position] : products[position].title.text(in: state.language)
            grid.write(title, row: row, column: 2, role: .normal, maxWidth: titleWidth, overflow: .ellipsis)
            let type = types.first { $0.type == products[position].type } ?? types[0]
            grid.write(type.label, row: row, column: 2 + titleWidth + typeWidth - type.width, role: .muted)
            let price = fittedPrices[offset]
            let marked = !marks.isEmpty && marks[products[position].id] != nil
            grid.write(
                price.text, row: row, column: width - 1 - price.width, role: marked ? .success : .price,
                attributes: .bold)
            subtitle(&grid, state, layout, products, position, row: row + 1, shown: titlesShown)
        }
    }

    /// "Owned" for each non-consumable the account has and "Subscribed" for each subscription in
    /// force, by product id; empty for an account with neither (most frames).
    static func ownershipMarks(_ state: AppState, _ strings: UIStrings) -> [String: String] {
        var marks: [String: String] = [:]
        for entitlement in state.entitlements where entitlement.isActive(at: state.now) {
            switch entitlement.type {
            case .nonConsumable: marks[entitlement.productId] = strings.owned
            case .autoRenewable: marks[entitlement.productId] = strings.subscribed
            case .consumable, .nonRenewing: break
            }
        }
        return marks
    }

    /// A product's second line: its description, and its id where the screen is wide enough, in
    /// a column of its own (left-aligned, so no id has to be measured to place it).
    /// Read in place from `products`, as the row's other fields are.
    /// `shown`: whether the list's texts are in the language shown (see `catalog`).
    static func subtitle(
        _ grid: inout Grid, _ state: AppState, _ layout: Layout, _ products: [Product], _ position: Int, row: Int,
        shown: Bool
    ) {
        let width = layout.size.columns
        let idColumn = layout.showsIds ? width - width / 3 : width
        if layout.showsIds {
            grid.write(
                products[position].id, row: row, column: idColumn, role: .muted, maxWidth: width - 1 - idColumn,
                overflow: .ellipsis)
        }
        let description =
            shown
            ? state.list.descriptions[position]
            : products[position].description.text(in: state.language)
        let end = layout.showsIds ? idColumn - 2 : width - 1
        grid.write(description, row: row, column: 4, role: .muted, maxWidth: end - 4, overflow: .ellipsis)
    }

    /// Each row's display price: as the list formatted them (`ProductList.reprice`), or, for a
    /// state whose storefront, locale or language changed without the reducer, formatted here.
    static func displayPrices(_ page: ArraySlice<Int>, of products: [Product], _ state: AppState) -> [String] {
        if state.list.pricing == state.pricing { return page.map { state.list.displayPrices[$0] } }
        var texts = PriceTexts(state.pricing)
        return page.map { texts.text(for: products[$0]) }
    }

    /// The first invalid ids, enough to overflow a line of `width` cells: the line is cut there
    /// anyway, and a catalog can have thousands of them. Their text is the text of all of them
    /// up to and past the edge, so the line shows exactly the same.
    static func shownIds(_ ids: [String], width: Int) -> [String] {
        var cells = 0
        for (count, id) in ids.enumerated() {
            cells += CellWidth.of(id) + 2
            if cells > width { return Array(ids.prefix(count + 1)) }
        }
        return ids
    }

    static func offerLine(_ state: AppState, _ product: Product) -> [String] {
        guard let offer = product.subscription?.introOffer else { return [] }
        return [
            UIStrings(state.language).introOffer(
                offer, formatter: state.priceFormatter, storefront: state.storefront.id)
        ]
    }

    /// Word-wraps by cells (CJK breaks anywhere); returns the rows used.
    @discardableResult
    static func wrap(_ grid: inout Grid, _ text: String, row: Int, column: Int, width: Int, maxRows: Int, role: Role)
        -> Int
    {
        guard width > 0, maxRows > 0 else { return 0 }
        let lines = wrappedLines(text, width: width)
        for (index, line) in lines.prefix(maxRows).enumerated() {
            let last = index == maxRows - 1 && lines.count > maxRows
            grid.write(
                last ? CellWidth.truncate(line + " …", to: width) : line, row: row + index, column: column, role: role,
                maxWidth: width)
        }
        return min(lines.count, maxRows)
    }

    /// `text` broken at spaces into lines of at most `width` cells; a word wider than that is cut.
    static func wrappedLines(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var current = ""
        var currentWidth = 0
        for word in text.split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
            let candidate = current.isEmpty ? word : current + " " + word
            // Widths add up across the joining space unless a scalar there could join it in one
            // grapheme (combining marks, selectors, prepended marks start at U+0300): then measure.
            let simple =
                (current.unicodeScalars.last?.value ?? 0) < 0x300 && (word.unicodeScalars.first?.value ?? 0) < 0x300
            let candidateWidth =
                current.isEmpty
                ? CellWidth.of(word)
                : simple ? currentWidth + 1 + CellWidth.of(word) : CellWidth.of(candidate)
            if candidateWidth <= width {
                current = candidate
                currentWidth = candidateWidth
                continue
            }
            if !current.isEmpty { lines.append(current) }
            current = word
            currentWidth = CellWidth.of(word)
            while CellWidth.of(current) > width {
                var head = ""
                for character in current where CellWidth.of(head) + CellWidth.of(character) <= width {
                    head.append(character)
                }
                if head.isEmpty { break }
                lines.append(head)
                current = String(current.dropFirst(head.count))
                currentWidth = CellWidth.of(current)
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    static func transactions(_ grid: inout Grid, _ state: AppState, _ layout: Layout, _ strings: UIStrings) {
        let top = layout.transactionsTitleRow
        let pane = state.transactionPane
        let shown = pane.shown(state.history)
        let first = min(pane.scroll, max(0, shown.count - layout.transactionRows))
        let rows = shown.dropFirst(first).prefix(layout.transactionRows)
        var title = strings.transactions
        if pane.filter != .all { title += " · " + strings.transactionFilter(pane.filter) }
        let used = grid.write(title, row: top, column: 0, role: .title, attributes: .bold)
        if shown.count > rows.count || pane.filter != .all {
            let position = rows.isEmpty ? "" : strings.range(first + 1, first + rows.count, of: shown.count) + "  "
            grid.write(
                "  " + position + strings.transactionPaneKeys, row: top, column: used, role: .muted, overflow: .ellipsis
            )
        }
        if state.history.isEmpty {
            grid.write(strings.noTransactions, row: top + 1, column: 1, role: .muted)
            return
        }
        if rows.isEmpty {
            grid.write(strings.noTransactionsShown(pane.filter), row: top + 1, column: 1, role: .muted)
            return
        }
        let wide = state.size.columns >= 100
        for (offset, transaction) in rows.enumerated() {
            let row = top + 1 + offset
            // A refund or an upgrade outranks whatever this session saw of the purchase.
            let progress =
                transaction.terms?.revocation != nil
                ? .revoked
                : transaction.terms?.upgrade.map { .upgraded(refunded: $0.refund > 0) }
                    ?? state.progress[transaction.id]
            let role: Role =
                switch (transaction.state, progress) {
                case (.failed, _), (_, .rejected?): .error
                case (.deferred, _), (_, .unverified?), (_, .revoked?), (_, .upgraded?): .warning
                case (_, .finished?), (_, .verified?): .success
                default: .normal
                }
            var column =
                grid.write(
                    clock(transaction.purchaseDate, state.timeZone, locale: state.locale) + " ", row: row, column: 1,
                    role: .muted) + 1
            let stateName =
                transaction.terms?.isRenewal == true ? strings.renewedState : strings.stateName(transaction.state)
            column += grid.write(CellWidth.pad(stateName, to: 10) + " ", row: row, column: column, role: role)
            let title = Presentation.title(state, product: transaction.productId)
            column += grid.write(
                CellWidth.pad(title, to: wide ? 20 : 16) + " ×\(transaction.quantity) ", row: row, column: column,
                role: .normal)
            // The id matters in the transaction manager; on a narrow screen the app's progress matters more.
            if wide { column += grid.write(transaction.id + "  ", row: row, column: column, role: .muted) }
            // A purchase held while the store is away waits, visibly, instead of spinning on.
            let held = state.unconfirmed.contains { $0.transactionId == transaction.id }
            let busy =
                !held && (progress == .purchasing || progress == .verifying || progress == .delivered)
                ? spinner(state) + " " : ""
            let shown = progress ?? Self.restingProgress(transaction)
            var words =
                held
                ? strings.heldPurchase
                : shown == .revoked && transaction.terms?.ownership == .familyShared
                    ? strings.noLongerShared
                    : shown == .revoked && transaction.terms?.ownership == .assigned
                        ? strings.noLongerAssigned
                        : Presentation.appFailureContext(transaction).map(strings.failureContext)
                            ?? strings.progress(shown, state: transaction.state)
            // A monthly payment's place in its commitment: "4/12".
            if let commitment = transaction.terms?.commitment {
                let place = strings.commitmentFlag(commitment, wide: false)
                words = words.isEmpty ? place : words + " · " + place
            }
            if state.asciiOnly { words = words.replacingOccurrences(of: "✓", with: "ok") }
            grid.write(busy + words, row: row, column: column, role: role, overflow: .ellipsis)
        }
    }

    /// The time of day as the storefront's locale writes it ("7:59:00 AM", "07:59:00"), padded
    /// to one width so the columns after it line up. Formatted once per time: rows keep theirs.
    static func clock(_ date: Date, _ timeZone: TimeZone, locale: String) -> String {
        FormattedTimes.shared.text(date, timeZone: timeZone, locale: locale)
    }

    /// What a transaction from before this session shows: its error, or whether it was finished.
    static func restingProgress(_ transaction: Transaction) -> PurchaseProgress? {
        switch transaction.state {
        case .failed: transaction.error.map(PurchaseProgress.failed)
        case .deferred: .deferred
        case .purchasing: .purchasing
        case .purchased, .restored:
            transaction.terms?.revocation != nil
                ? .revoked
                : transaction.terms?.upgrade.map { .upgraded(refunded: $0.refund > 0) }
                    ?? (transaction.finished ? .finished : nil)
        }
    }

    static func wallet(_ grid: inout Grid, _ state: AppState, _ layout: Layout, _ strings: UIStrings) {
        // Counts grouped as the locale writes them, as the catalog's titles do ("1,200 Gems").
        let number = IntegerFormatStyle<Int>(locale: Locale(identifier: state.locale))
        let balances = state.balances.sorted { $0.key < $1.key }.map { "\($0.value.formatted(number)) \($0.key)" }
        let title = { (id: String) in Presentation.title(state, product: id) }
        // A non-renewing subscription without the app's term (never delivered) is not owned for good.
        let owned = state.entitlements.filter { $0.expiresDate == nil && $0.type != .nonRenewing }.map {
            title($0.productId)
        }
        let statusError = state.controls.apiErrors[.subscriptionStatus]
        let subscriptions = state.entitlements.compactMap { entitlement -> String? in
            guard let expires = entitlement.expiresDate else { return nil }
            if entitlement.type == .autoRenewable, let statusError {
                return strings.statusUnavailable(title(entitlement.productId), statusError)
            }
            if let renewal = entitlement.renewal, renewal.isInBillingRetry {
                return strings.billingIssue(
                    title(entitlement.productId), graceUntil: renewal.gracePeriodExpirationDate, now: state.now)
            }
            let line = strings.subscription(
                title(entitlement.productId), expires: expires, now: state.now, renews: entitlement.willAutoRenew)
            return Presentation.commitmentWords(state, entitlement, strings).map { line + " · " + $0 } ?? line
        }
        let label = strings.wallet + ": "
        let room = grid.size.columns - CellWidth.of(label)
        // Only what there is: an empty wallet says so once instead of listing empty parts.
        func parts(ownedText: String?) -> String {
            var parts = balances.isEmpty ? [] : [balances.joined(separator: ", ")]
            if let ownedText { parts.append(strings.owned + ": " + ownedText) }
            parts += subscriptions
            return parts.isEmpty ? strings.nothingOwned : parts.joined(separator: " · ")
        }
        var text = parts(ownedText: owned.isEmpty ? nil : owned.joined(separator: ", "))
        // Where it does not fit, the items owned are counted, so the subscriptions still show.
        if CellWidth.of(text) > room, owned.count > 1 { text = parts(ownedText: strings.itemCount(owned.count)) }
        let used = grid.write(label, row: layout.walletRow, column: 0, role: .title, attributes: .bold)
        grid.write(text, row: layout.walletRow, column: used, role: .normal, overflow: .ellipsis)
    }
}
