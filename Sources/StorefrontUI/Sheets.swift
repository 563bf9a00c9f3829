import CellGrid
import Foundation
import StoreCore
import StoreKitModel

/// The overlays: one centred box at a time, drawn over the main screen.
enum Sheets {
    struct Line {
        var text: String
        var role: Role = .normal
        var selected = false
        /// Prose wraps; rows of a list are cut with … instead, so each stays one row.
        var wraps = true
    }

    static func draw(_ sheet: Sheet, on grid: inout Grid, _ state: AppState, _ strings: UIStrings) {
        let hints = KeyHints(language: state.language, ascii: state.asciiOnly)
        let (title, lines, hint) = content(sheet, state, strings, hints)
        var scroll: Int?
        if case .help(let offset) = sheet { scroll = offset }
        if case .transactionInspector(let inspector) = sheet { scroll = inspector.scroll }
        var wide = scroll != nil
        if case .transactionManager = sheet { wide = true }
        box(
            &grid, title: title, lines: lines, hint: hint, state: state, selected: lines.firstIndex(where: \.selected),
            scroll: scroll, wide: wide)
    }

    static func content(_ sheet: Sheet, _ state: AppState, _ strings: UIStrings, _ hints: KeyHints) -> (
        String, [Line], String
    ) {
        switch sheet {
        case .confirmPurchase(let confirm): return confirmation(confirm, state, strings, hints)
        case .productDetails: return (strings.detailsTitle, details(state, strings), hints.details)
        case .error(let error): return errorSheet(error, state, strings, hints)
        case .help(let scroll):
            let lines = help(state, strings)
            let room = room(for: state.size)
            guard lines.count > room else { return (strings.helpTitle, lines, hints.message) }
            let first = min(scroll, lines.count - room)
            return (strings.helpTitle, lines, hints.scrolling(from: first + 1, to: first + room, of: lines.count))
        case .pendingPayments: return (strings.pendingTitle, pending(state, strings), hints.message)
        case .storefrontPicker(let selection):
            let product = state.selectedProduct
            let lines = state.catalog.storefronts.enumerated().map { index, storefront in
                let price =
                    product.flatMap {
                        PriceFormatter(
                            currency: storefront.currency, locale: state.localeOverride ?? storefront.locale,
                            asciiOnly: state.asciiOnly
                        )
                        .displayPrice(of: $0, in: storefront.id, language: state.language)
                    } ?? ""
                return Line(
                    text:
                        "\(storefront.id)  \(storefront.currency)  \(CellWidth.pad(storefront.locale, to: 6))  \(price)",
                    selected: index == selection, wraps: false)
            }
            return (strings.storefrontTitle, lines, hints.picker)
        case .accountPicker(let selection):
            let lines = state.catalog.accounts.enumerated().map { index, account in
                var flags: [String] = []
                if account.askToBuy { flags.append(strings.controlAskToBuy) }
                if !account.paymentsAllowed {
                    flags.append(strings.controlPaymentsAllowed + ": " + strings.onOff(false))
                }
                return Line(
                    text:
                        "\(CellWidth.pad(account.name, to: 12)) \(account.storefront)  \(flags.joined(separator: ", "))",
                    selected: index == selection, wraps: false)
            }
            return (strings.accountTitle, lines + appTransaction(state, strings), hints.picker)
        case .testControls(let selection):
            let lines = ControlRow.allCases.map { row in
                Line(
                    text: CellWidth.pad(row.label(strings), to: 24) + "  " + row.value(state),
                    selected: row.rawValue == selection, wraps: false)
            }
            return (strings.controlsTitle, lines, hints.controls)
        case .transactionManager(let selection):
            return (managerTitle(state, strings), manager(state, strings, selection), hints.manager)
        case .transactionInspector(let inspector): return inspectorSheet(inspector, state, strings, hints)
        case .quitConfirm:
            return (strings.quitTitle, [Line(text: strings.quitBody)], hints.question)
        case .manageSubscriptions(let selection):
            return (strings.subscriptionsTitle, subscriptions(state, strings, selection), hints.subscriptions)
        case .refundRequest(let request):
            return (strings.refundTitle, refundRequest(request, state, strings), hints.refundRequest)
        case .cancelSubscription(let sheet):
            return (strings.cancelTitle, cancellation(sheet, state, strings), hints.cancelSubscription)
        case .appCrashed(let crash):
            return (strings.crashTitle, crashLines(crash, state, strings), hints.crash)
        case .storeMessage(let message):
            return storeMessage(message, state, strings, hints)
        case .askPermission(let confirm):
            return (strings.askPermissionTitle, askPermission(confirm, state, strings), hints.askPermission)
        case .managerPicker(let picker):
            return managerPicker(picker, state, strings, hints)
        case .sentMessage(let message):
            return sentMessage(message, state, strings, hints)
        case .promotedPurchase(let intent):
            return (strings.promotedTitle, promotedPurchase(intent, state, strings), hints.promotedPurchase)
        case .redeemCode(let code):
            return (
                strings.redeemTitle,
                [Line(text: strings.redeemPrompt), Line(text: ""), Line(text: "> " + code + "▏", role: .title)],
                hints.redeem
            )
        case .redeemOffer(let code):
            return (strings.redeemTitle, redeemOffer(state, code, strings), hints.redeemOffer)
        case .createTransaction(let form):
            return (strings.createTitle, createForm(form, state, strings), hints.createTransaction)
        case .restoreResult(let result):
            let line: Line =
                switch result {
                case .restored(let ids):
                    Line(text: strings.restored(ids.map { Presentation.title(state, product: $0) }), role: .success)
                case .nothing: Line(text: strings.nothingToRestore)
                case .failed(let error): Line(text: strings.restoreFailed(error), role: .error)
                }
            return (strings.restoreTitle, [line], hints.message)
        }
    }

    /// A labelled value of a sheet, the values lined up in one column.
    /// A label and its value, values aligned; a label as wide as the column or wider ("Family
    /// Sharing") keeps a space before its value.
    static func field(_ label: String, _ value: String) -> String {
        CellWidth.pad(label, to: max(12, CellWidth.of(label) + 1)) + value
    }

    /// What redeeming `code` gives: the product, the offer's terms and what follows them.
    static func redeemOffer(_ state: AppState, _ code: String, _ strings: UIStrings) -> [Line] {
        if let (product, offer) = state.catalog.oneTimeCodeOffer(code) {
            let storefront = state.storefront.id
            let price = offer.prices[storefront].map(state.priceFormatter.string) ?? "—"
            let regular = product.prices[storefront].map(state.priceFormatter.string) ?? "—"
            return [
                Line(text: strings.codeOfferTitle(code, product.title.text(in: state.language)), role: .title),
                Line(text: ""),
                Line(text: strings.oneTimeOfferTerms(price, regular: regular), role: .success),
                Line(text: strings.oneTimeOfferWhen, role: .muted),
            ]
        }
        guard let (product, offer) = state.catalog.codeOffer(code) else { return [] }
        let period = offer.billingPlan == .monthly ? CommitmentPlan.billingPeriod : product.subscription?.period
        let renewal =
            product.billingPrice(offer.billingPlan, in: state.storefront.id).map {
                state.priceFormatter.string($0, period: period, language: state.language)
            } ?? "—"
        return [
            Line(text: strings.codeOfferTitle(code, product.title.text(in: state.language)), role: .title),
            Line(text: ""),
            Line(
                text: strings.offerThen(
                    offer.terms, renewal: renewal, formatter: state.priceFormatter, storefront: state.storefront.id),
                role: .success),
            Line(text: strings.codeOfferWhen, role: .muted),
        ]
    }

    /// Everything about the selected product, labelled; its description wraps at the end.
    static func details(_ state: AppState, _ strings: UIStrings) -> [Line] {
        guard let product = state.selectedProduct else { return [Line(text: strings.nothingSelected, role: .muted)] }
        var lines =
            [Line(text: product.title.text(in: state.language), role: .title), Line(text: "")]
            + pricingLines(state, product, strings)
        lines += [
            Line(text: field(strings.typeLabel, product.type.label(in: state.language))),
            Line(text: field(strings.productIdLabel, product.id), wraps: false),
        ]
        if product.familyShareable {
            lines.append(Line(text: field(strings.familySharingLabel, strings.familySharingOn)))
        }
        if let subscription = product.subscription, let group = subscription.group {
            let name = state.catalog.group(id: group)?.title.text(in: state.language) ?? group
            lines.append(Line(text: field(strings.groupLabel, name)))
        }
        lines += View.offerLine(state, product).map { Line(text: $0, role: .success) }
        lines += renewalLines(state, product, strings)
        lines += offerLines(state, product, strings)
        lines += [Line(text: ""), Line(text: product.description.text(in: state.language))]
        return lines
    }

    /// The price; for a one-year subscription with the monthly plan here, both pricing terms
    /// (StoreKit's `pricingTerms`), as the buyer chooses between them.
    static func pricingLines(_ state: AppState, _ product: Product, _ strings: UIStrings) -> [Line] {
        guard state.billingPlans(product).contains(.monthly),
            let monthly = planPrice(product, .monthly, state),
            let total = product.subscription?.commitment?.commitmentPrice(in: state.storefront.id)
        else { return [Line(text: field(strings.price, state.displayPrice(product)), role: .price)] }
        let months = CommitmentPlan.totalBillingPeriods
        return [
            Line(text: field(strings.price, strings.upFrontTerms(state.displayPrice(product))), role: .price),
            Line(
                text: field(
                    "", strings.monthlyTerms(monthly, months: months, total: state.priceFormatter.string(total))),
                role: .price),
        ]
    }

    /// Each promotional and win-back offer, and whether this account may take it: the purchase
    /// sheet offers only those it may, so a tester reads here why another is not offered.
    static func offerLines(_ state: AppState, _ product: Product, _ strings: UIStrings) -> [Line] {
        state.offerChoices(product).map { choice in
            guard let reason = choice.verdict.reason else {
                return Line(text: strings.eligible(choice.offer), role: .success)
            }
            return Line(text: strings.notEligible(choice.offer, reason), role: .muted)
        }
    }

    /// StoreKit 2's renewal info of a subscription the account has: when it renews or ends, to
    /// what, a billing issue or grace period, a price increase, why it expired.
    static func renewalLines(_ state: AppState, _ product: Product, _ strings: UIStrings) -> [Line] {
        guard
            let entitlement = state.entitlements.first(where: {
                $0.productId == product.id && $0.type == .autoRenewable
            }),
            let renewal = entitlement.renewal, let expires = entitlement.expiresDate
        else { return [] }
        let title = product.title.text(in: state.language)
        let status =
            renewal.isInBillingRetry
            ? strings.billingIssue(title, graceUntil: renewal.gracePeriodExpirationDate, now: state.now)
            : strings.subscription(title, expires: expires, now: state.now, renews: renewal.willAutoRenew)
        var lines = [
            Line(text: ""),
            Line(
                text: field(strings.renewalLabel, status), role: entitlement.isActive(at: state.now) ? .success : .muted
            ),
        ]
        if let words = Presentation.commitmentWords(state, entitlement, strings) {
            lines.append(Line(text: field("", words)))
        }
        if renewal.autoRenewProductId != product.id {
            lines.append(
                Line(text: field("", strings.renewsTo(Presentation.title(state, product: renewal.autoRenewProductId)))))
        }
        if let increase = renewal.priceIncreaseStatus {
            lines.append(
                Line(
                    text: field(
                        "",
                        strings.priceIncrease(
                            increase, to: renewal.renewalPrice.map(state.priceFormatter.string),
                            renews: renewal.willAutoRenew)),
                    role: .warning))
        }
        if let reason = renewal.expirationReason {
            lines.append(Line(text: field("", strings.expirationReason(reason)), role: .muted))
        }
        return lines
    }

    /// The StoreKit 2 call an app makes for what failed, as the developer looks it up.
    static func storeKitCall(_ call: SimulatedAPI) -> String {
        switch call {
        case .manageSubscriptions: "AppStore.showManageSubscriptions(in:)"
        case .refundRequest: "Transaction.beginRefundRequest(in:) throws Transaction.RefundRequestError.failed"
        case .offerCodeRedeem: "AppStore.presentOfferCodeRedeemSheet(in:)"
        case .loadProducts: "Product.products(for:)"
        case .appStoreSync: "AppStore.sync()"
        case .subscriptionStatus: "Product.SubscriptionInfo.status(for:)"
        case .appTransaction: "AppTransaction.shared"
        case .purchase, .verification: "Product.purchase(options:)"
        }
    }

    static func errorSheet(_ sheet: ErrorSheet, _ state: AppState, _ strings: UIStrings, _ hints: KeyHints) -> (
        String, [Line], String
    ) {
        switch sheet.kind {
        case .store(let error):
            let text = error.text(in: state.language)
            let code = "\(error.domain == "SKErrorDomain" ? "SKError" : "URLError") \(error.code) · \(error.name)"
            let call = sheet.call == .purchase ? [] : [Line(text: Self.storeKitCall(sheet.call), role: .muted)]
            return (
                strings.errorTitle(sheet.call),
                call + [
                    Line(text: code, role: .error), Line(text: ""), Line(text: text.message, role: .title),
                    Line(text: ""), Line(text: strings.developerLabel + text.detail, role: .muted),
                ], hints.message
            )
        case .interrupted(let error):
            let code = "\(error.domain == "SKErrorDomain" ? "SKError" : "URLError") \(error.code) · \(error.name)"
            return (
                strings.interruptedTitle,
                [
                    Line(text: strings.interruptedBody, role: .title), Line(text: ""),
                    Line(text: strings.interruptedAppSees(code), role: .muted), Line(text: ""),
                    Line(text: strings.interruptedHowToResolve, role: .warning),
                ], hints.message
            )
        case .verification(let reason):
            return (
                strings.verificationTitle,
                [
                    Line(text: UIStrings.sentence(reason), role: .error), Line(text: ""),
                    Line(text: strings.verificationAdvice),
                ],
                hints.message
            )
        case .failure(let message):
            return (strings.failureTitle, [Line(text: UIStrings.sentence(message), role: .error)], hints.message)
        }
    }

    /// Generated from the dispatch table; two columns when one would not fit the screen.
    /// Where each key works, in the order a user meets the screens, each key with what it does;
    /// a description too long for the box wraps under itself, so nothing is cut at any width.
    static let helpSections: [KeyBinding.Scope] = [
        .main, .everywhere, .confirm, .storeMessage, .subscriptions, .controls, .manager, .crash,
    ]

    static func crashLines(_ crash: AppCrashReport, _ state: AppState, _ strings: UIStrings) -> [Line] {
        let title = Presentation.title(state, product: crash.productId)
        return [
            Line(
                text: strings.crashed(title, transactionId: crash.transactionId, crashes: crash.crashes), role: .error),
            Line(text: ""),
            Line(text: strings.crashLoop),
            Line(text: ""),
            Line(text: strings.crashWayOut, role: .muted),
        ]
    }

    static func help(_ state: AppState, _ strings: UIStrings) -> [Line] {
        let inner = innerWidth(for: state.size)
        let keyColumn = 11
        var lines: [Line] = []
        for scope in helpSections {
            let bindings = KeyBindings.table.filter { $0.scope == scope }
            guard !bindings.isEmpty else { continue }
            if !lines.isEmpty { lines.append(Line(text: "")) }
            lines.append(Line(text: strings.helpSection(scope), role: .title))
            for binding in bindings {
                let keys = binding.keys.map { state.asciiOnly ? $0.asciiDescription : $0.description }.joined(
                    separator: " ")
                var text = state.language == .english ? binding.help.en : binding.help.zh
                if state.asciiOnly { text = text.replacingOccurrences(of: "中文", with: "Chinese") }
                let words = View.wrappedLines(text, width: max(8, inner - keyColumn))
                // Keys wider than their column ("← → Enter Space") get a line of their own.
                let ownLine = CellWidth.of(keys) >= keyColumn
                if ownLine { lines.append(Line(text: keys, wraps: false)) }
                for (index, part) in words.enumerated() {
                    let lead =
                        index == 0 && !ownLine
                        ? CellWidth.pad(keys, to: keyColumn - 1) + " " : String(repeating: " ", count: keyColumn)
                    lines.append(Line(text: lead + part, wraps: false))
                }
            }
        }
        return lines
    }

    /// The text width inside a sheet as wide as the screen allows (the help uses all of it).
    static func innerWidth(for size: TerminalSize) -> Int { max(1, min(size.columns - 4, 96) - 6) }

    /// Rows of content a sheet shows at once; longer content scrolls.
    static func room(for size: TerminalSize) -> Int { max(1, size.rows - 6) }

    /// The furthest the help scrolls: its last line at the bottom of the box.
    static func helpMaxScroll(_ state: AppState) -> Int {
        max(0, help(state, UIStrings(state.language)).count - room(for: state.size))
    }

    static func pending(_ state: AppState, _ strings: UIStrings) -> [Line] {
        guard !state.pending.isEmpty || !state.unconfirmed.isEmpty else { return [Line(text: strings.pendingNone)] }
        var lines = state.unconfirmed.flatMap { payment in
            [
                Line(
                    text:
                        "\(payment.transactionId ?? "—")  \(Presentation.title(state, product: payment.productId)) ×\(payment.quantity)  \(strings.since(payment.since, now: state.now))",
                    role: .title),
                Line(text: "  " + strings.unconfirmedReason, role: .warning),
            ]
        }
        lines += state.pending.flatMap { payment in
            [
                Line(
                    text:
                        "\(payment.transactionId)  \(Presentation.title(state, product: payment.productId)) ×\(payment.quantity)  \(strings.since(payment.since, now: state.now))",
                    role: .title),
                Line(text: "  " + strings.waitingFor(payment), role: .warning),
            ]
        }
        let askToBuy = state.pending.contains { $0.reason == .awaitingApproval }
        let paid = state.pending.contains { $0.reason != .awaitingApproval }
        for advice in strings.pendingAdvice(paid: paid, askToBuy: askToBuy) {
            lines.append(Line(text: ""))
            lines.append(Line(text: advice))
        }
        return lines
    }

    /// The signed-in account's AppTransaction, under the accounts: what `AppTransaction.shared`
    /// tells the app (or its simulated failure).
    static func appTransaction(_ state: AppState, _ strings: UIStrings) -> [Line] {
        var lines = [Line(text: ""), Line(text: strings.appTransactionTitle(state.account.name), role: .title)]
        if let error = state.controls.apiErrors[.appTransaction] {
            return lines + [Line(text: strings.appTransactionUnavailable(error), role: .warning)]
        }
        guard let info = state.appTransaction else {
            return lines + [Line(text: strings.readingAppTransaction, role: .muted)]
        }
        let day = Date.FormatStyle(
            date: .numeric, time: .omitted, locale: Locale(identifier: state.locale), timeZone: state.timeZone)
        lines.append(Line(text: "appTransactionId \(info.appTransactionId)"))
        lines.append(
            Line(
                text: strings.appFirstGot(
                    info.originalPurchaseDate.formatted(day), original: info.originalApplicationVersion,
                    now: info.applicationVersion)))
        if let preorder = info.preorderDate {
            lines.append(Line(text: strings.appPreordered(preorder.formatted(day)), role: .muted))
        }
        return lines
    }

    /// Each auto-renewable subscription with its renewal: renews, ends (cancelled), in billing
    /// retry or grace, renewing to another plan, a price increase waiting.
    static func subscriptions(_ state: AppState, _ strings: UIStrings, _ selection: Int) -> [Line] {
        let list = Presentation.subscriptions(state)
        guard !list.isEmpty else { return [Line(text: strings.noSubscriptions, role: .muted)] }
        return list.enumerated().map { index, entitlement in
            let title = Presentation.title(state, product: entitlement.productId)
            if let statusError = state.controls.apiErrors[.subscriptionStatus] {
                return Line(
                    text: strings.statusUnavailable(title, statusError), role: .error, selected: index == selection,
                    wraps: false)
            }
            var words: [String] = []
            let renewal = entitlement.renewal
            if renewal?.isInBillingRetry == true {
                words.append(
                    strings.billingIssue(title, graceUntil: renewal?.gracePeriodExpirationDate, now: state.now))
            } else if let expires = entitlement.expiresDate {
                words.append(
                    strings.subscription(title, expires: expires, now: state.now, renews: entitlement.willAutoRenew))
            }
            words += Presentation.commitmentWords(state, entitlement, strings).map { [$0] } ?? []
            if let next = renewal?.autoRenewProductId, next != entitlement.productId, entitlement.willAutoRenew {
                words.append(strings.renewsTo(Presentation.title(state, product: next)))
            }
            if let offer = renewal?.renewalOffer, entitlement.willAutoRenew {
                words.append(strings.offerAtRenewal(offer.type))
            }
            if let renewal, renewal.priceIncreaseStatus == .pending {
                words.append(
                    strings.priceIncrease(
                        .pending, to: renewal.renewalPrice.map(state.priceFormatter.string),
                        renews: renewal.willAutoRenew))
            }
            let active = entitlement.isActive(at: state.now)
            return Line(
                text: words.joined(separator: " · "),
                role: active ? (Presentation.autoRenewOn(entitlement) ? .success : .warning) : .muted,
                selected: index == selection, wraps: false)
        }
    }

    static func refundRequest(_ request: RefundRequest, _ state: AppState, _ strings: UIStrings) -> [Line] {
        let transaction = state.history.first { $0.id == request.transactionId }
        let title = Presentation.title(state, transaction: request.transactionId)
        let price = transaction?.terms.map { state.priceFormatter.string($0.price) } ?? "—"
        var lines = [
            Line(text: strings.refundQuestion(title, price: price), role: .title),
            Line(text: strings.refundReasonPrompt),
        ]
        lines += RefundRequestReason.allCases.enumerated().map { index, reason in
            Line(text: strings.refundReason(reason), selected: index == request.reason, wraps: false)
        }
        return lines
    }

    /// What a sheet whose box is `box` clears of the screen beneath: the box, and the two columns
    /// either side of it. Otherwise what is beneath shows through beside the border, cut
    /// mid-word (`Tr│`, `┐9`) as if it were part of the sheet; a box as wide as it gets (the
    /// screen less four columns) so owns its rows from edge to edge. Clearing a cell cuts any wide
    /// character it held in half, and the grid turns the half left outside into a space.
    static func frame(of box: Rect) -> Rect {
        Rect(row: box.row, column: box.column - margin, width: box.width + 2 * margin, height: box.height)
    }

    static let margin = 2

    /// A centred box sized to its content; long lists scroll to keep the selection in view.
    /// `wide`: as wide as the content needs, up to the screen (the help, the manager's table);
    /// other sheets stay at most 96 columns, a comfortable line.
    static func box(
        _ grid: inout Grid, title: String, lines: [Line], hint: String, state: AppState, selected: Int?,
        scroll: Int? = nil,
        wide: Bool = false
    ) {
        let size = state.size
        let widest =
            scroll != nil
            ? size.columns
            : max((lines.map { CellWidth.of($0.text) }.max() ?? 0) + 6, CellWidth.of(hint) + 4, CellWidth.of(title) + 8)
        let width = max(0, min(size.columns - 4, max(40, wide && scroll == nil ? widest : min(96, widest))))
        let inner = max(1, width - 6)
        var wrapped: [(Line, Int)] = []  // each display row with its source line index
        for (index, line) in lines.enumerated() {
            if !line.wraps || line.selected || CellWidth.of(line.text) <= inner {
                wrapped.append((line, index))
                continue
            }
            for row in View.wrappedLines(line.text, width: inner).prefix(8) {
                wrapped.append((Line(text: row, role: line.role), index))
            }
        }
        let height = min(wrapped.count, room(for: size))
        var first = scroll.map { min(max(0, $0), wrapped.count - height) } ?? 0
        if let selected, let row = wrapped.firstIndex(where: { $0.1 == selected }), row >= height {
            first = row - height + 1
        }
        let rect = Rect(
            row: max(0, (size.rows - height - 4) / 2), column: max(0, (size.columns - width) / 2), width: width,
            height: height + 4)
        grid.fill(frame(of: rect), role: .normal)
        grid.box(rect, title: title, ascii: state.asciiOnly)
        for (offset, (line, _)) in wrapped[first..<min(wrapped.count, first + height)].enumerated() {
            let row = rect.row + 1 + offset
            if line.selected {
                grid.fill(Rect(row: row, column: rect.column + 1, width: width - 2, height: 1), role: .selected)
            }
            grid.write(
                (line.selected ? "> " : "  ") + line.text, row: row, column: rect.column + 1,
                role: line.selected ? .selected : line.role,
                maxWidth: width - 2, overflow: .ellipsis)
        }
        grid.write(
            hint, row: rect.row + rect.height - 2, column: rect.column + 2, role: .key, maxWidth: width - 4,
            overflow: .ellipsis)
    }
}
