import CellGrid
import Foundation
import StoreCore
import StoreKitModel
import Testing

@testable import StorefrontUI

/// Every action goes through `ReducerTestStore`: each `send`/`press` states the whole change it
/// makes and every effect it asks for. The list's fields are set through `ProductList`'s own API
/// (they are `private(set)`, with caches behind them), so what the user sees of it (selection,
/// scroll, query, matches) is then checked with literal values.
@Suite struct ReducerTests {
    typealias F = UIFixture

    /// How long a status line stays on screen.
    static let statusLifetime: TimeInterval = 4
    /// The products the fixture's USA storefront sells: all of products.json but the removed
    /// Classic Level Pack, 80×24 shows them on pages of 6.
    static let allProducts = Array(0..<12)

    /// The status line a message said at the fixture's clock shows: it expires 4 s later.
    static func status(_ text: String, _ level: StatusMessage.Level = .info) -> StatusMessage {
        StatusMessage(text: text, level: level, expires: F.now.addingTimeInterval(statusLifetime))
    }

    static func storefront(_ id: String) -> StoreKitModel.Storefront {
        guard let storefront = F.catalog.storefront(id: id) else {
            preconditionFailure("products.json has no storefront \(id)")
        }
        return storefront
    }

    static func account(_ name: String) -> Account {
        guard let account = F.catalog.account(named: name) else {
            preconditionFailure("products.json has no account \(name)")
        }
        return account
    }

    @Test func launchReplaysTheQueueBeforeLoadingTheCatalog() {
        let state = F.state(loaded: false)
        #expect(
            Reducer.start(state) == [
                .replayUnfinished(account: "alice"), .loadProducts(storefront: "USA"), .refresh(account: "alice"),
                .loadAppTransaction(account: "alice"),
            ])
        #expect(state.catalogLoad == .loading)
    }

    @Test func navigationStaysInBounds() {
        var store = ReducerTestStore(F.state())
        store.press(.up)
        store.press(.character("k"))
        store.press(.character("j")) { $0.list.moveTo(1, page: 6) }
        store.press(.down) { $0.list.moveTo(2, page: 6) }
        #expect(store.state.list.selection == 2 && store.state.list.scroll == 0)
        store.press(.character("G")) { $0.list.moveTo(11, page: 6) }
        #expect(store.state.list.selection == 11 && store.state.list.scroll == 6)
        store.press(.pageDown)
        store.press(.down)
        store.press(.character("g")) { $0.list.moveTo(0, page: 6) }
        #expect(store.state.list.selection == 0 && store.state.list.scroll == 0)
        store.press(.pageDown) { $0.list.moveTo(6, page: 6) }
        #expect(store.state.list.selection == 6 && store.state.list.scroll == 1)
    }

    @Test func detailsFollowTheSelectionAndEnterBuysWhatTheyShow() {
        var store = ReducerTestStore(F.state())
        store.press(.character("i")) { $0.sheet = .productDetails }
        store.press(.character("j")) { $0.list.moveTo(1, page: 6) }
        store.press(.down) { $0.list.moveTo(2, page: 6) }
        #expect(store.state.list.selection == 2)
        #expect(store.state.selectedProduct?.id == "com.example.storefront.gems.1200")
        store.press(.enter) {
            $0.sheet = .confirmPurchase(
                ConfirmPurchase(productId: "com.example.storefront.gems.1200", quantity: 1, pendingIds: []))
        }
        store.press(.escape) { $0.sheet = nil }
        store.press(.character("i")) { $0.sheet = .productDetails }
        store.press(.escape) { $0.sheet = nil }
        store.press(.character("i")) { $0.sheet = .productDetails }
        store.press(.character("i")) { $0.sheet = nil }  // i closes what it opened
        store.press(.character("/")) { $0.list.filtering = true }
        store.press(.character("z")) { $0.list.setQuery("z") }
        store.press(.character("z")) { $0.list.setQuery("zz") }
        store.press(.character("z")) { $0.list.setQuery("zzz") }
        #expect(store.state.list.visible.isEmpty && store.state.list.selection == 0)
        store.press(.enter) { $0.list.filtering = false }
        store.press(.character("i"))  // nothing selected, nothing to show
    }

    /// Only a marker shows the selection, so moving it changes the two marker cells and the
    /// position in the list's title: what the terminal is sent (≤ 1 % of a repaint) follows from this.
    @Test(arguments: [TerminalSize(columns: 80, rows: 24), TerminalSize(columns: 200, rows: 60)])
    func aMoveChangesOnlyTheMarkerAndThePosition(size: TerminalSize) {
        let page = Layout(size: size, banner: false).listRows
        var store = ReducerTestStore(F.state(size))
        store.press(.down) { $0.list.moveTo(1, page: page) }
        let before = View.render(store.state)
        store.press(.down) { $0.list.moveTo(2, page: page) }
        #expect(store.state.list.selection == 2 && store.state.list.scroll == 0)
        let after = View.render(store.state)
        var changed: [String] = []
        for row in 0..<size.rows {
            for column in 0..<size.columns where before[row, column] != after[row, column] {
                changed.append("\(row),\(column)")
            }
        }
        let top = Layout(size: size, banner: false).listTop
        let counter = CellWidth.of(UIStrings(.english).products + " ")  // the "2" of "Products 2/12"
        #expect(changed == ["\(top - 1),\(counter)", "\(top + 2),0", "\(top + 4),0"])
        #expect(after[top + 4, 0].role == .selected)
    }

    @Test func filterNarrowsAsYouTypeAndEscClearsIt() {
        var store = ReducerTestStore(F.state())
        store.press(.character("/")) { $0.list.filtering = true }
        store.press(.character("g")) { $0.list.setQuery("g") }
        #expect(store.state.list.visible == [0, 1, 2, 3])  // the gems and the Energy Refill
        store.press(.character("e")) { $0.list.setQuery("ge") }
        store.press(.character("m")) { $0.list.setQuery("gem") }
        #expect(store.state.list.query == "gem" && store.state.list.filtering && store.state.list.selection == 0)
        #expect(
            store.state.list.visibleProducts.map(\.id) == [
                F.gems, "com.example.storefront.gems.550", "com.example.storefront.gems.1200",
            ])
        store.press(.backspace) { $0.list.setQuery("ge") }
        store.press(.backspace) { $0.list.setQuery("g") }
        #expect(store.state.list.visible == [0, 1, 2, 3])
        store.press(.backspace) { $0.list.setQuery("") }
        #expect(store.state.list.query.isEmpty && store.state.list.visible == Self.allProducts)
        store.press(.character("x")) { $0.list.setQuery("x") }
        #expect(store.state.list.visible == Self.allProducts)  // every id has the x of "example"
        store.press(.character("y")) { $0.list.setQuery("xy") }
        store.press(.character("z")) { $0.list.setQuery("xyz") }
        store.press(.character("q")) { $0.list.setQuery("xyzq") }  // q is text while filtering: no quit
        #expect(store.state.list.visible.isEmpty && store.state.list.query == "xyzq")
        store.press(.escape) {
            $0.list.filtering = false
            $0.list.setQuery("")
        }
        #expect(
            !store.state.list.filtering && store.state.list.query.isEmpty
                && store.state.list.visible == Self.allProducts)
        #expect(store.state.list.selection == 0 && store.state.list.scroll == 0)
    }

    @Test func filterMatchesChineseTitles() {
        var store = ReducerTestStore(F.state(language: .simplifiedChinese))
        store.press(.character("/")) { $0.list.filtering = true }
        store.press(.character("宝")) { $0.list.setQuery("宝") }
        store.press(.character("石")) { $0.list.setQuery("宝石") }
        store.press(.enter) { $0.list.filtering = false }
        #expect(store.state.list.visible == [0, 1, 2] && !store.state.list.filtering && store.state.list.query == "宝石")
        #expect(store.state.list.titles[0] == "100 颗宝石")
    }

    @Test func buyingAsksForConfirmationWithQuantity() {
        func confirm(_ quantity: Int) -> Sheet {
            .confirmPurchase(ConfirmPurchase(productId: F.gems, quantity: quantity, pendingIds: []))
        }
        var store = ReducerTestStore(F.state())
        store.press(.enter) { $0.sheet = confirm(1) }
        store.press(.character("+")) { $0.sheet = confirm(2) }
        store.press(.character("+")) { $0.sheet = confirm(3) }
        store.press(.character("-")) { $0.sheet = confirm(2) }
        // Twenty more "+": up to 10, then no further.
        for quantity in 3...10 { store.press(.character("+")) { $0.sheet = confirm(quantity) } }
        for _ in 0..<12 { store.press(.character("+")) }
        // Twenty "←": down to 1, then no further.
        for quantity in (1...9).reversed() { store.press(.left) { $0.sheet = confirm(quantity) } }
        for _ in 0..<11 { store.press(.left) }
        store.press(.enter, effects: [.buy(productId: F.gems, quantity: 1, account: "alice")]) {
            $0.sheet = nil
            $0.status = Self.status("Purchasing 100 Gems…")
        }
    }

    @Test func escapeCancelsTheConfirmation() {
        var store = ReducerTestStore(F.state())
        store.press(.enter) {
            $0.sheet = .confirmPurchase(ConfirmPurchase(productId: F.gems, quantity: 1, pendingIds: []))
        }
        store.press(.escape) { $0.sheet = nil }
    }

    @Test func secondPurchaseWhilePendingAsksAgainAndNamesThePayment() {
        var store = ReducerTestStore(F.state())
        let pending = F.pending([F.transaction("2000000000000007", F.gems, .deferred)])
        store.send(
            .snapshot(
                StoreSnapshot(history: [], pending: pending, balances: [:], entitlements: [], controls: TestControls()))
        ) {
            $0.pending = pending
        }
        store.press(.enter) {
            $0.sheet = .confirmPurchase(
                ConfirmPurchase(productId: F.gems, quantity: 1, pendingIds: ["2000000000000007"]))
        }
        // The first Enter only acknowledges the warning.
        store.press(.enter) {
            $0.sheet = .confirmPurchase(
                ConfirmPurchase(productId: F.gems, quantity: 1, pendingIds: ["2000000000000007"], acknowledged: true))
        }
        #expect(View.render(store.state).text.contains("Press Enter again to pay anyway"))
        // Another quantity is another payment: asked again.
        store.press(.character("+")) {
            $0.sheet = .confirmPurchase(
                ConfirmPurchase(productId: F.gems, quantity: 2, pendingIds: ["2000000000000007"]))
        }
        store.press(.character("-")) {
            $0.sheet = .confirmPurchase(
                ConfirmPurchase(productId: F.gems, quantity: 1, pendingIds: ["2000000000000007"]))
        }
        store.press(.enter) {
            $0.sheet = .confirmPurchase(
                ConfirmPurchase(productId: F.gems, quantity: 1, pendingIds: ["2000000000000007"], acknowledged: true))
        }
        store.press(.enter, effects: [.buy(productId: F.gems, quantity: 1, account: "alice")]) {
            $0.sheet = nil
            $0.status = Self.status("Purchasing 100 Gems…")
        }
    }

    @Test func purchaseGoesThroughEveryStepToFinished() {
        var store = ReducerTestStore(F.state())
        let purchasing = F.transaction("2000000000000001", F.gems, .purchasing)
        store.send(.paymentAdded(purchasing)) {
            $0.inFlight = ["2000000000000001"]
            $0.history = [purchasing]
            $0.progress = ["2000000000000001": .purchasing]
        }
        let purchased = F.transaction("2000000000000001", F.gems, .purchased)
        let update = TransactionUpdate(transaction: purchased, receipt: "r")
        store.send(.transactionUpdate(update), effects: [.handle(update)]) {
            $0.history = [purchased]
            $0.progress = ["2000000000000001": .verifying]
        }
        store.send(
            .appSteps([.delivered(transactionId: "2000000000000001", firstTime: true)]),
            effects: [.refresh(account: "alice")]
        ) {
            $0.progress = ["2000000000000001": .delivered]
        }
        store.send(
            .appSteps([.verified(transactionId: "2000000000000001"), .finished(transactionId: "2000000000000001")]),
            effects: [.refresh(account: "alice")]
        ) {
            $0.progress = ["2000000000000001": .finished]
            $0.inFlight = []
            $0.history = [F.transaction("2000000000000001", F.gems, .purchased, finished: true)]
            $0.status = Self.status("100 Gems: delivered, verified and finished.")
        }
    }

    /// A downgrade completes as a copy of the period in force: nothing is delivered yet, and the
    /// screen says when the new plan starts instead of "delivered, verified and finished".
    @Test func aDowngradeSaysWhenItStarts() {
        var store = ReducerTestStore(F.state())
        let renews = F.now.addingTimeInterval(3 * 86_400)
        store.arrange {
            $0.entitlements = [
                Entitlement(
                    productId: F.plusMonthly, type: .autoRenewable, transactionId: "2000000000000001",
                    originalTransactionId: "2000000000000001", purchaseDate: F.now, expiresDate: renews,
                    willAutoRenew: true)
            ]
            $0.inFlight = ["2000000000000002"]
        }
        var copy = F.transaction("2000000000000002", F.monthly, .restored)
        copy.terms = TransactionTerms(price: 0, currency: "USD", expirationDate: renews)
        store.arrange {
            $0.history = [copy]
            $0.progress = ["2000000000000002": .verified]
        }
        copy.finished = true
        store.send(.appSteps([.finished(transactionId: "2000000000000002")]), effects: [.refresh(account: "alice")]) {
            $0.progress = ["2000000000000002": .finished]
            $0.inFlight = []
            $0.history = [copy]
            $0.status = Self.status(
                "Premium Monthly starts when the plan in force renews, in 3 d; nothing was charged.")
        }
    }

    @Test func aFailureOfThisSessionsPaymentShowsTheSheet() {
        var store = ReducerTestStore(F.state())
        store.press(.enter) {
            $0.sheet = .confirmPurchase(ConfirmPurchase(productId: F.gems, quantity: 1, pendingIds: []))
        }
        // Confirmed: the buy effect is on its way.
        store.press(.enter, effects: [.buy(productId: F.gems, quantity: 1, account: "alice")]) {
            $0.sheet = nil
            $0.status = Self.status("Purchasing 100 Gems…")
        }
        let purchasing = F.transaction("2000000000000014", F.gems, .purchasing)
        store.send(.paymentAdded(purchasing)) {
            $0.inFlight = ["2000000000000014"]
            $0.history = [purchasing]
            $0.progress = ["2000000000000014": .purchasing]
        }
        let failed = F.transaction("2000000000000014", F.gems, .failed, error: .storeKit(.clientInvalid))
        let update = TransactionUpdate(transaction: failed, receipt: nil)
        store.send(.transactionUpdate(update), effects: [.handle(update)]) {
            $0.history = [failed]
            $0.progress = ["2000000000000014": .failed(.storeKit(.clientInvalid))]
            $0.sheet = .error(ErrorSheet(kind: .store(.storeKit(.clientInvalid)), productId: F.gems))
            $0.status = nil  // no "Purchasing 100 Gems…" left under the sheet that says how it ended
        }
        // Finishing a failed payment keeps it failed and says nothing more.
        store.send(.appSteps([.finished(transactionId: "2000000000000014")]), effects: [.refresh(account: "alice")]) {
            $0.inFlight = []
            $0.history = [
                F.transaction("2000000000000014", F.gems, .failed, error: .storeKit(.clientInvalid), finished: true)
            ]
        }
        #expect(store.state.history.first?.state == .failed)
    }

    @Test func failureInThisSessionShowsTheErrorSheet() {
        var store = ReducerTestStore(F.state())
        let purchasing = F.transaction("2000000000000002", F.gems, .purchasing)
        store.send(.paymentAdded(purchasing)) {
            $0.inFlight = ["2000000000000002"]
            $0.history = [purchasing]
            $0.progress = ["2000000000000002": .purchasing]
        }
        let failed = F.transaction("2000000000000002", F.gems, .failed, error: .storeKit(.paymentNotAllowed))
        let update = TransactionUpdate(transaction: failed, receipt: nil)
        store.send(.transactionUpdate(update), effects: [.handle(update)]) {
            $0.history = [failed]
            $0.progress = ["2000000000000002": .failed(.storeKit(.paymentNotAllowed))]
            $0.sheet = .error(ErrorSheet(kind: .store(.storeKit(.paymentNotAllowed)), productId: F.gems))
        }
        store.press(.escape) { $0.sheet = nil }
    }

    @Test func cancellationIsOnlyAQuietStatusLine() {
        var store = ReducerTestStore(F.state())
        let purchasing = F.transaction("2000000000000003", F.gems, .purchasing)
        store.send(.paymentAdded(purchasing)) {
            $0.inFlight = ["2000000000000003"]
            $0.history = [purchasing]
            $0.progress = ["2000000000000003": .purchasing]
        }
        let cancelled = F.transaction("2000000000000003", F.gems, .failed, error: .storeKit(.paymentCancelled))
        let update = TransactionUpdate(transaction: cancelled, receipt: nil)
        store.send(.transactionUpdate(update), effects: [.handle(update)]) {
            $0.history = [cancelled]
            $0.progress = ["2000000000000003": .failed(.storeKit(.paymentCancelled))]
            $0.status = Self.status("Purchase of 100 Gems cancelled.")  // no sheet
        }
    }

    @Test func deferredWaitsAndIsHandedToTheObserver() {
        var store = ReducerTestStore(F.state())
        let deferred = F.transaction("2000000000000004", F.removeAds, .deferred)
        let update = TransactionUpdate(transaction: deferred, receipt: nil)
        store.send(.transactionUpdate(update), effects: [.handle(update), .refresh(account: "alice")]) {
            $0.history = [deferred]
            $0.progress = ["2000000000000004": .deferred]
            $0.status = Self.status("Remove Ads: waiting for a parent's approval (Ask to Buy); not charged.", .warning)
        }
    }

    @Test func anotherAccountsUpdateIsLeftForThatAccount() {
        var store = ReducerTestStore(F.state())
        let update = TransactionUpdate(
            transaction: F.transaction("2000000000000005", F.gems, .purchased, account: "kenji"), receipt: "r")
        store.send(.transactionUpdate(update))
    }

    @Test func unverifiedPurchaseStaysPendingWithAWarning() {
        var store = ReducerTestStore(F.state())
        let purchasing = F.transaction("2000000000000006", F.gems, .purchasing)
        store.send(.paymentAdded(purchasing)) {
            $0.inFlight = ["2000000000000006"]
            $0.history = [purchasing]
            $0.progress = ["2000000000000006": .purchasing]
        }
        let step = AppStep.verificationDeferred(
            transactionId: "2000000000000006", reason: "the verification server is unreachable", nextAttempt: nil)
        store.send(.appSteps([step]), effects: [.refresh(account: "alice")]) {
            $0.progress = ["2000000000000006": .unverified("the verification server is unreachable")]
            $0.inFlight = []
            $0.status = Self.status(
                "Not verified yet (the verification server is unreachable); the payment is kept and retried.", .warning)
        }
    }

    @Test func snapshotWithAnUnhandledApprovalReplaysTheQueue() {
        var store = ReducerTestStore(F.state())
        let approved = F.transaction("2000000000000008", F.removeAds, .purchased)
        let pending = F.pending([approved])
        let snapshot = StoreSnapshot(
            history: [approved], pending: pending, balances: [:], entitlements: [], controls: TestControls())
        store.send(.snapshot(snapshot), effects: [.replayUnfinished(account: "alice")]) {
            $0.history = [approved]
            $0.pending = pending
        }
        store.arrange { $0.progress["2000000000000008"] = .verifying }
        store.send(.snapshot(snapshot))
    }

    @Test func switchingStorefrontReformatsPricesAtOnce() {
        var store = ReducerTestStore(F.state())
        #expect(store.state.displayPrice(try! #require(store.state.selectedProduct)) == "$0.99")
        store.press(.character("s")) { $0.sheet = .storefrontPicker(selection: 0) }
        store.press(.down) { $0.sheet = .storefrontPicker(selection: 1) }
        var controls = TestControls()
        controls.storefront = "JPN"
        store.press(
            .enter, effects: [.setControls(controls), .loadProducts(storefront: "JPN"), .refresh(account: "alice")]
        ) {
            $0.sheet = nil
            $0.storefront = Self.storefront("JPN")
            $0.controls.storefront = "JPN"
            $0.status = Self.status("Storefront JPN: prices in JPY.")
            $0.list.reprice(for: $0.pricing)
        }
        #expect(store.state.displayPrice(try! #require(store.state.selectedProduct)) == "¥160")
        #expect(store.state.list.displayPrices[0] == "¥160")
        store.press(.character("s")) { $0.sheet = .storefrontPicker(selection: 1) }
        store.press(.down) { $0.sheet = .storefrontPicker(selection: 2) }
        controls.storefront = "DEU"
        store.press(
            .enter, effects: [.setControls(controls), .loadProducts(storefront: "DEU"), .refresh(account: "alice")]
        ) {
            $0.sheet = nil
            $0.storefront = Self.storefront("DEU")
            $0.controls.storefront = "DEU"
            $0.status = Self.status("Storefront DEU: prices in EUR.")
            $0.list.reprice(for: $0.pricing)
        }
        #expect(store.state.displayPrice(try! #require(store.state.selectedProduct)) == "1,19\u{A0}€")
        #expect(store.state.list.displayPrices[0] == "1,19\u{A0}€")
    }

    /// The list's prices are formatted once per storefront, locale and language; every way of
    /// changing one reformats them, and a frame drawn from them is the frame drawn without them.
    @Test func listPricesFollowEverySwitch() {
        func fresh(_ state: AppState) -> AppState {
            var uncached = state
            uncached.list.pricing = nil  // the frame formats each row's price itself
            return uncached
        }
        /// The first product's row, after checking the frame is the one drawn without the cache.
        func firstRow(_ state: AppState, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> String {
            #expect(state.list.pricing == state.pricing, sourceLocation: sourceLocation)
            let frame = View.render(state)
            #expect(frame == View.render(fresh(state)), sourceLocation: sourceLocation)
            return frame.rows[2]
        }
        var store = ReducerTestStore(F.state(TerminalSize(columns: 120, rows: 40)))
        #expect(store.state.list.pricing == store.state.pricing)
        var controls = TestControls()

        // The storefront picker: JPN.
        store.press(.character("s")) { $0.sheet = .storefrontPicker(selection: 0) }
        store.press(.down) { $0.sheet = .storefrontPicker(selection: 1) }
        controls.storefront = "JPN"
        store.press(
            .enter, effects: [.setControls(controls), .loadProducts(storefront: "JPN"), .refresh(account: "alice")]
        ) {
            $0.sheet = nil
            $0.storefront = Self.storefront("JPN")
            $0.controls.storefront = "JPN"
            $0.status = Self.status("Storefront JPN: prices in JPY.")
            $0.list.reprice(for: $0.pricing)
        }
        #expect(store.state.list.displayPrices[0] == "¥160")
        let japan = firstRow(store.state)
        #expect(japan.contains("100 Gems") && japan.contains("¥160"))

        // The language: Chinese.
        store.press(.character("l")) {
            $0.language = .simplifiedChinese
            $0.list.relabel(language: .simplifiedChinese)
            $0.list.reprice(for: $0.pricing)
        }
        #expect(
            store.state.list.titles[0] == "100 颗宝石" && store.state.list.query.isEmpty
                && store.state.list.visible == Self.allProducts)
        let chinese = firstRow(store.state)
        #expect(chinese.contains("100 颗宝石") && chinese.contains("¥160"))

        // The account picker: kenji, who buys in JPN already, so the prices stay.
        store.press(.character("a")) { $0.sheet = .accountPicker(selection: 0) }
        store.press(.down) { $0.sheet = .accountPicker(selection: 1) }
        controls.account = "kenji"
        controls.storefront = nil
        store.press(
            .enter,
            effects: [
                .setControls(controls), .replayUnfinished(account: "kenji"), .loadProducts(storefront: "JPN"),
                .refresh(account: "kenji"), .loadAppTransaction(account: "kenji"),
            ]
        ) {
            $0.sheet = nil
            $0.account = Self.account("kenji")
            $0.controls.account = "kenji"
            $0.controls.storefront = nil
            $0.status = Self.status("已登录为 kenji。")
        }
        _ = firstRow(store.state)

        // The language: English again.
        store.press(.character("l")) {
            $0.language = .english
            $0.list.relabel(language: .english)
            $0.list.reprice(for: $0.pricing)
        }
        #expect(store.state.list.titles[0] == "100 Gems")
        _ = firstRow(store.state)

        // The storefront picker: CHN.
        store.press(.character("s")) { $0.sheet = .storefrontPicker(selection: 1) }
        store.press(.down) { $0.sheet = .storefrontPicker(selection: 2) }
        store.press(.down) { $0.sheet = .storefrontPicker(selection: 3) }
        controls.storefront = "CHN"
        store.press(
            .enter, effects: [.setControls(controls), .loadProducts(storefront: "CHN"), .refresh(account: "kenji")]
        ) {
            $0.sheet = nil
            $0.storefront = Self.storefront("CHN")
            $0.controls.storefront = "CHN"
            $0.status = Self.status("Storefront CHN: prices in CNY.")
            $0.list.reprice(for: $0.pricing)
        }
        let china = firstRow(store.state)
        #expect(china.contains("100 Gems") && !china.contains("¥160"))
        #expect(store.state.list.displayPrices.count == store.state.list.products.count)
    }

    /// The account sheet shows what `AppTransaction.shared` gave the signed-in account; a read
    /// for an account switched away from is dropped, and a simulated failure is shown instead.
    @Test func theAccountSheetShowsTheAppTransaction() {
        var store = ReducerTestStore(F.state())
        let info = AppTransactionInfo(
            appTransactionId: "704289112461000101", bundleId: F.catalog.bundleId,
            originalPurchaseDate: Date(timeIntervalSince1970: 1_736_931_600), originalApplicationVersion: "1.0",
            applicationVersion: "3.2", preorderDate: Date(timeIntervalSince1970: 1_735_776_000), environment: .xcode)
        store.send(.appTransactionLoaded(account: "kenji", info))
        store.send(.appTransactionLoaded(account: "alice", info)) { $0.appTransaction = info }
        store.press(.character("a")) { $0.sheet = .accountPicker(selection: 0) }
        let text = Golden.text(store.state)
        #expect(text.contains("appTransactionId 704289112461000101"), "\(text)")
        #expect(text.contains("version 1.0; running version 3.2"), "\(text)")
        #expect(text.contains("Pre-ordered"), "\(text)")
        store.arrange { $0.controls.apiErrors[.appTransaction] = .storeKit(.unknown) }
        #expect(Golden.text(store.state).contains("AppTransaction.shared failed: SKErrorDomain 0"))
    }

    @Test func switchingAccountReplaysThatAccountsQueue() {
        var store = ReducerTestStore(F.state())
        let bought = F.transaction("2000000000000009", F.gems, .purchased)
        store.send(
            .snapshot(
                StoreSnapshot(
                    history: [bought], pending: [], balances: ["gems": 100], entitlements: [], controls: TestControls())
            )
        ) {
            $0.history = [bought]
            $0.balances = ["gems": 100]
        }
        store.press(.character("a")) { $0.sheet = .accountPicker(selection: 0) }
        store.press(.down) { $0.sheet = .accountPicker(selection: 1) }
        var controls = TestControls()
        controls.account = "kenji"
        store.press(
            .enter,
            effects: [
                .setControls(controls), .replayUnfinished(account: "kenji"), .loadProducts(storefront: "JPN"),
                .refresh(account: "kenji"), .loadAppTransaction(account: "kenji"),
            ]
        ) {
            $0.sheet = nil
            $0.account = Self.account("kenji")
            $0.storefront = Self.storefront("JPN")
            $0.controls.account = "kenji"
            $0.history = []
            $0.balances = [:]
            $0.status = Self.status("Signed in as kenji.")
            $0.list.reprice(for: $0.pricing)
        }
        #expect(store.state.account.name == "kenji" && store.state.storefront.id == "JPN")
        #expect(store.state.list.displayPrices[0] == "¥160")
    }

    @Test func languageSwitchRelabelsAndKeepsTheFilter() {
        var store = ReducerTestStore(F.state())
        store.arrange { $0.list.setQuery("gem") }
        store.press(.character("l")) {
            $0.language = .simplifiedChinese
            $0.list.relabel(language: .simplifiedChinese)
            $0.list.reprice(for: $0.pricing)
        }
        #expect(store.state.list.titles[0] == "100 颗宝石")
        #expect(store.state.list.query == "gem" && store.state.list.visible == [0, 1, 2])  // the ids still match
        #expect(View.render(store.state).text.contains("商品"))
        store.press(.character("l")) {
            $0.language = .english
            $0.list.relabel(language: .english)
            $0.list.reprice(for: $0.pricing)
        }
        #expect(store.state.list.titles[0] == "100 Gems")
        #expect(store.state.list.query == "gem" && store.state.list.visible == [0, 1, 2])
    }

    @Test func testControlsChangeOneSettingAtATime() {
        var store = ReducerTestStore(F.state())
        store.press(.character("t")) { $0.sheet = .testControls(selection: 0) }
        var expected = TestControls()
        expected.nextOutcome = .cancel
        store.press(.right, effects: [.setControls(expected)]) { $0.controls.nextOutcome = .cancel }
        expected.nextOutcome = .success
        store.press(.left, effects: [.setControls(expected)]) { $0.controls.nextOutcome = .success }
        store.arrange { $0.sheet = .testControls(selection: ControlRow.askToBuy.rawValue - 1) }
        store.press(.down) { $0.sheet = .testControls(selection: ControlRow.askToBuy.rawValue) }
        expected.askToBuy = true
        store.press(.enter, effects: [.setControls(expected)]) { $0.controls.askToBuy = true }
        // Z resets the controls alone, at once: the store keeps every transaction.
        store.press(.character("Z"), effects: [.setControls(TestControls())]) {
            $0.controls.askToBuy = false
            $0.status = Self.status("Test controls reset to the catalog's defaults; the store is unchanged.")
        }
        // Erasing the store is E, and only its second press erases.
        store.press(.character("E")) {
            $0.armed = .resetStore
            $0.status = Self.status(
                "Press E again to erase the store: every transaction, purchase and control.", .warning)
        }
        store.press(.character("E"), effects: [.manage(.resetToDefaults), .refresh(account: "alice")]) {
            $0.armed = nil
            $0.status = Self.status("Store and test controls reset to the catalog's defaults.")
        }
        store.press(.escape) { $0.sheet = nil }
    }

    @Test func zResetsTheControlsButKeepsTheStorefrontAndAccountChosen() {
        var store = ReducerTestStore(F.state())
        store.arrange {
            $0.sheet = .testControls(selection: 0)
            $0.controls.nextOutcome = .fail(.paymentNotAllowed)
            $0.controls.everyPurchase = true
            $0.controls.apiErrors = [.purchase: .network(.notConnectedToInternet)]
            $0.controls.storefront = "JPN"
        }
        var expected = TestControls()
        expected.storefront = "JPN"
        store.press(.character("Z"), effects: [.setControls(expected)]) {
            $0.controls = expected
            $0.status = Self.status("Test controls reset to the catalog's defaults; the store is unchanged.")
        }
        // Another key between the two presses disarms the store's erase.
        store.press(.character("E")) {
            $0.armed = .resetStore
            $0.status = Self.status(
                "Press E again to erase the store: every transaction, purchase and control.", .warning)
        }
        store.press(.down) {
            $0.armed = nil
            $0.sheet = .testControls(selection: 1)
        }
        #expect(UIStrings(.simplifiedChinese).pressAgainToResetStore == "再按 E 清空商店：所有交易、购买和控制。")
        #expect(UIStrings(.simplifiedChinese).controlsResetDone == "测试控制已重置为目录默认值；商店未变。")
    }

    @Test func theSelectedProductsOutcomeAndAnyAPIErrorCodeAreSetInTheControls() throws {
        var store = ReducerTestStore(F.state())
        let product = try #require(store.state.selectedProduct)
        store.arrange { $0.sheet = .testControls(selection: ControlRow.productOutcome.rawValue) }
        var controls = TestControls()
        controls.productOutcomes[product.id] = .success
        store.press(.right, effects: [.setControls(controls)]) { $0.controls.productOutcomes[product.id] = .success }
        controls.productOutcomes[product.id] = .cancel
        store.press(.right, effects: [.setControls(controls)]) { $0.controls.productOutcomes[product.id] = .cancel }
        #expect(ControlRow.productOutcome.value(store.state) == "\(product.title.text(in: .english)): cancel")
        controls.productOutcomes[product.id] = .success
        store.press(.left, effects: [.setControls(controls)]) { $0.controls.productOutcomes[product.id] = .success }
        controls.productOutcomes = [:]
        store.press(.left, effects: [.setControls(controls)]) { $0.controls.productOutcomes = [:] }

        // The code row does nothing until an API fails; then it steps that API's code.
        store.arrange { $0.sheet = .testControls(selection: ControlRow.apiErrorCode.rawValue) }
        store.press(.right) { _ in }
        store.arrange { $0.controls.apiErrors = [.purchase: .storeKit(.unknown)] }
        controls.apiErrors = [.purchase: .storeKit(.clientInvalid)]
        store.press(.right, effects: [.setControls(controls)]) { $0.controls.apiErrors = controls.apiErrors }
        #expect(ControlRow.apiErrorCode.value(store.state) == "SKError 1 clientInvalid")
        // Stepping the API keeps the code chosen.
        store.arrange { $0.sheet = .testControls(selection: ControlRow.apiErrors.rawValue) }
        controls.apiErrors = [SimulatedAPI.allCases[2]: .storeKit(.clientInvalid)]
        store.press(.right, effects: [.setControls(controls)]) { $0.controls.apiErrors = controls.apiErrors }

        // The outcome can stay for every purchase, and refunds can be approved at once.
        for row in [ControlRow.everyPurchase, .autoApproveRefunds] {
            store.arrange { $0.sheet = .testControls(selection: row.rawValue) }
            if row == .everyPurchase { controls.everyPurchase = true } else { controls.autoApproveRefunds = true }
            store.press(.right, effects: [.setControls(controls)]) {
                if row == .everyPurchase {
                    $0.controls.everyPurchase = true
                } else {
                    $0.controls.autoApproveRefunds = true
                }
            }
        }
        #expect(ControlRow.everyPurchase.value(store.state) == "every purchase")
        store.arrange { $0.language = .simplifiedChinese }
        #expect(ControlRow.everyPurchase.value(store.state) == "每次购买")
        #expect(ControlRow.autoApproveRefunds.label(UIStrings(.simplifiedChinese)) == "自动批准退款")
    }

    @Test func anUnreachableStoreIsALineNotASheetAndClearsWhenItAnswers() {
        var store = ReducerTestStore(F.state())
        store.send(.refreshFailed("store unreachable at http://127.0.0.1:9/")) {
            $0.storeProblem = "store unreachable at http://127.0.0.1:9/"
        }
        // Once, and the news first: a narrow screen cuts the detail at the end.
        #expect(
            View.render(store.state).text.contains(
                "⚠ store unreachable — retrying; payments in flight are kept · store unreachable…"))
        store.send(
            .snapshot(
                StoreSnapshot(history: [], pending: [], balances: [:], entitlements: [], controls: TestControls()))
        ) {
            $0.storeProblem = nil
        }
    }

    @Test func everyOutcomeAndVerificationFailureCanBeChosen() {
        #expect(Set(ControlRow.allCases.map(\.id)).count == ControlRow.allCases.count, "each line its own id")
        // → steps through these in turn, then starts again.
        let outcomes: [PaymentOutcome] =
            [.success, .cancel, .deferred, .interrupted]
            + SKErrorCode.allCases.filter { $0 != .paymentCancelled }.map { .fail($0) }
            + URLErrorCode.allCases.map { .network($0) }
        var store = ReducerTestStore(F.state())
        store.arrange { $0.sheet = .testControls(selection: 0) }
        var controls = TestControls()
        var seen: Set<String> = []
        for step in 1...outcomes.count + 1 {
            controls.nextOutcome = outcomes[step % outcomes.count]
            store.press(.right, effects: [.setControls(controls)]) {
                $0.controls.nextOutcome = outcomes[step % outcomes.count]
            }
            seen.insert(store.state.controls.nextOutcome.token)
        }
        #expect(store.state.controls.nextOutcome == .cancel)  // round once, and one step on
        for code in SKErrorCode.allCases where code != .paymentCancelled {
            #expect(seen.contains("fail:\(code.rawValue)"))
        }
        #expect(seen.isSuperset(of: ["success", "cancel", "deferred", "interrupted", "network:-1009"]))

        // The verification row steps through every failure the same way.
        let failures: [VerificationFailure?] =
            [nil, .unreachable] + VerifyStatus.allCases.filter { $0 != .valid }.map { .status($0) }
        store.arrange { $0.sheet = .testControls(selection: ControlRow.verification.rawValue) }
        for step in 1...failures.count {
            controls.verificationFailure = failures[step % failures.count]
            store.press(.right, effects: [.setControls(controls)]) {
                $0.controls.verificationFailure = failures[step % failures.count]
            }
        }
        #expect(store.state.controls.verificationFailure == nil)  // round once

        // The API-error row fails one StoreKit call at a time, then none again.
        store.arrange { $0.sheet = .testControls(selection: ControlRow.apiErrors.rawValue) }
        for api in SimulatedAPI.allCases {
            controls.apiErrors = [api: .storeKit(.unknown)]
            store.press(.right, effects: [.setControls(controls)]) {
                $0.controls.apiErrors = [api: .storeKit(.unknown)]
            }
        }
        controls.apiErrors = [:]
        store.press(.right, effects: [.setControls(controls)]) { $0.controls.apiErrors = [:] }

        // Billing issues and the grace period are switches.
        for row in [ControlRow.billingIssues, .gracePeriod] {
            store.arrange { $0.sheet = .testControls(selection: row.rawValue) }
            if row == .billingIssues { controls.billingIssues = true } else { controls.gracePeriod = true }
            store.press(.right, effects: [.setControls(controls)]) {
                if row == .billingIssues { $0.controls.billingIssues = true } else { $0.controls.gracePeriod = true }
            }
        }
    }

    /// The refund key on a refunded transaction reverses the refund, asking twice as a refund does.
    @Test func theRefundKeyReversesARefund() {
        var store = ReducerTestStore(F.state())
        var refunded = F.transaction("2000000000000011", F.removeAds, .purchased, finished: true)
        refunded.terms = TransactionTerms(
            price: 2.99, currency: "USD", revocation: Revocation(date: F.now, reason: .other))
        store.send(
            .snapshot(
                StoreSnapshot(
                    history: [refunded], pending: [], balances: [:], entitlements: [], controls: TestControls())
            )
        ) {
            $0.history = [refunded]
        }
        store.press(.character("m")) { $0.sheet = .transactionManager(selection: 0) }
        store.press(.character("F")) {
            $0.armed = .refund
            $0.armedTransaction = "2000000000000011"
            $0.status = Self.status("Press F again to reverse the refund of 2000000000000011.", .warning)
        }
        store.press(
            .character("F"),
            effects: [.manageAndReport(.reverseRefund("2000000000000011")), .refresh(account: "alice")]
        ) {
            $0.armed = nil
            $0.armedTransaction = nil
        }
    }

    @Test func transactionManagerActsOnTheSelectedTransaction() {
        var store = ReducerTestStore(F.state())
        let deferred = F.transaction("2000000000000010", F.removeAds, .deferred)
        let bought = F.transaction("2000000000000011", F.gems, .purchased, finished: true)
        store.send(
            .snapshot(
                StoreSnapshot(
                    history: [deferred, bought], pending: [], balances: [:], entitlements: [], controls: TestControls())
            )
        ) {
            $0.history = [deferred, bought]
        }
        store.press(.character("m")) { $0.sheet = .transactionManager(selection: 0) }
        store.press(
            .character("Y"),
            effects: [.manageAndReport(.approveAskToBuy("2000000000000010")), .refresh(account: "alice")])
        store.press(.down) { $0.sheet = .transactionManager(selection: 1) }
        // A refund and a delete cannot be undone: the first press says what the second does.
        store.press(.character("F")) {
            $0.armed = .refund
            $0.armedTransaction = "2000000000000011"
            $0.status = Self.status("Press F again to refund 2000000000000011.", .warning)
        }
        store.press(
            .character("F"), effects: [.manageAndReport(.refund("2000000000000011")), .refresh(account: "alice")]
        ) {
            $0.armed = nil
            $0.armedTransaction = nil
        }
        for (key, action) in [
            ("D", ManageAction.declineAskToBuy("2000000000000011")), ("I", .resolveIssue("2000000000000011")),
            ("E", .expireSubscription("2000000000000011")), ("N", .forceRenewal("2000000000000011")),
        ] {
            store.press(.character(Character(key)), effects: [.manageAndReport(action), .refresh(account: "alice")])
        }
        store.press(.character("X")) {
            $0.armed = .delete
            $0.armedTransaction = "2000000000000011"
            $0.status = Self.status("Press X again to delete 2000000000000011; it cannot be undone.", .warning)
        }
        store.press(.down) {  // moving away disarms: the second press would act on another one
            $0.armed = nil
            $0.armedTransaction = nil
        }
        store.press(.character("X")) {
            $0.armed = .delete
            $0.armedTransaction = "2000000000000011"
            $0.status = Self.status("Press X again to delete 2000000000000011; it cannot be undone.", .warning)
        }
        // A refresh between the presses puts another transaction under the selection: it is not deleted.
        let renewal = F.transaction("2000000000000012", F.gems, .purchased, finished: true)
        store.send(
            .snapshot(
                StoreSnapshot(
                    history: [deferred, renewal, bought], pending: [], balances: [:], entitlements: [],
                    controls: TestControls()))
        ) {
            $0.history = [deferred, renewal, bought]
        }
        store.press(.character("X")) {
            $0.armedTransaction = "2000000000000012"
            $0.status = Self.status("Press X again to delete 2000000000000012; it cannot be undone.", .warning)
        }
        store.press(.character("C")) {  // armed
            $0.armed = .clearAll
            $0.armedTransaction = nil
            $0.status = Self.status("Press C again to delete every transaction.", .warning)
        }
        store.press(.character("C"), effects: [.manageAndReport(.clearAll), .refresh(account: "alice")]) {
            $0.armed = nil
        }
        store.send(.managed(.clearAll, .done([]))) { $0.status = Self.status("Every transaction deleted.") }
    }

    /// Clearing every transaction ends what this session had in flight: quitting no longer asks
    /// about a purchase that is gone.
    @Test func clearingAllLeavesNothingInFlight() {
        var store = ReducerTestStore(F.state())
        let purchasing = F.transaction("2000000000000013", F.gems, .purchasing)
        store.send(.paymentAdded(purchasing)) {
            $0.inFlight = ["2000000000000013"]
            $0.history = [purchasing]
            $0.progress = ["2000000000000013": .purchasing]
        }
        store.press(.character("m")) { $0.sheet = .transactionManager(selection: 0) }
        store.press(.character("C")) {
            $0.armed = .clearAll
            $0.status = Self.status("Press C again to delete every transaction.", .warning)
        }
        store.press(.character("C"), effects: [.manageAndReport(.clearAll), .refresh(account: "alice")]) {
            $0.armed = nil
            $0.progress = [:]
            $0.inFlight = []
        }
        store.press(.escape) { $0.sheet = nil }
        store.press(.character("q"), effects: [.quit]) { $0.quitting = true }
    }

    /// Another account starts with no purchase of this session shown as its own.
    @Test func switchingAccountForgetsTheOtherAccountsProgress() {
        var store = ReducerTestStore(F.state())
        let purchased = F.transaction("2000000000000014", F.gems, .purchased)
        store.send(.appSteps([.verified(transactionId: purchased.id)]), effects: [.refresh(account: "alice")]) {
            $0.progress = [purchased.id: .verified]
        }
        store.press(.character("a")) { $0.sheet = .accountPicker(selection: 0) }
        store.press(.down) { $0.sheet = .accountPicker(selection: 1) }
        var controls = TestControls()
        controls.account = "kenji"
        store.press(
            .enter,
            effects: [
                .setControls(controls), .replayUnfinished(account: "kenji"), .loadProducts(storefront: "JPN"),
                .refresh(account: "kenji"), .loadAppTransaction(account: "kenji"),
            ]
        ) {
            $0.sheet = nil
            $0.account = Self.account("kenji")
            $0.controls.account = "kenji"
            $0.storefront = F.catalog.storefront(id: "JPN")!
            $0.progress = [:]
            $0.status = Self.status("Signed in as kenji.")
            $0.list.reprice(for: $0.pricing)
        }
    }

    @Test func quitAsksWhileAPurchaseIsInFlight() {
        var idle = ReducerTestStore(F.state())
        idle.press(.character("q"), effects: [.quit]) { $0.quitting = true }

        var store = ReducerTestStore(F.state())
        let purchasing = F.transaction("2000000000000012", F.gems, .purchasing)
        store.send(.paymentAdded(purchasing)) {
            $0.inFlight = ["2000000000000012"]
            $0.history = [purchasing]
            $0.progress = ["2000000000000012": .purchasing]
        }
        store.press(.character("q")) { $0.sheet = .quitConfirm }
        store.press(.character("n")) { $0.sheet = nil }
        store.press(.control("c")) { $0.sheet = .quitConfirm }
        store.press(.character("y"), effects: [.quit]) { $0.quitting = true }
    }

    @Test func belowTheMinimumOnlyQuitWorks() {
        var store = ReducerTestStore(F.state(TerminalSize(columns: 20, rows: 5)))
        store.press(.enter)
        store.press(.character("t"))
        store.press(.character("/"))
        store.press(.character("q"), effects: [.quit]) { $0.quitting = true }
    }

    @Test func helpListsEveryBindingOfTheDispatchTable() {
        // Tall enough for the whole list: shorter screens scroll it (QALeadScreenTests).
        var store = ReducerTestStore(F.state(TerminalSize(columns: 200, rows: 100)))
        store.press(.character("?")) { $0.sheet = .help(scroll: 0) }
        let screen = View.render(store.state).text
        // A question's answers and a message's Enter are shown by the sheet that asks.
        for binding in KeyBindings.table where binding.scope != .question && binding.scope != .message {
            #expect(screen.contains(binding.help.en), "help misses \(binding.help.en)")
        }
    }

    @Test func restoreReportsItsResult() {
        var store = ReducerTestStore(F.state())
        store.press(.character("r"), effects: [.restore(account: "alice")]) {
            $0.status = Self.status("Restoring purchases…")
        }
        store.send(.restoreFinished(.nothing), effects: [.refresh(account: "alice")]) {
            $0.sheet = .restoreResult(.nothing)
        }
        #expect(View.render(store.state).text.contains("Nothing to restore"))
    }

    @Test func statusClearsAfterAFewSecondsAndTheStoreIsReread() {
        var store = ReducerTestStore(F.state())
        store.press(.character("r"), effects: [.restore(account: "alice")]) {
            $0.status = Self.status("Restoring purchases…")
        }
        // 5 s later: past the status's 4 s, and into another 2 s refresh period.
        store.send(.tick(F.now.addingTimeInterval(5)), effects: [.refresh(account: "alice")]) {
            $0.now = F.now.addingTimeInterval(5)
            $0.spinner = 1
            $0.status = nil
        }
    }

    @Test func dueVerificationRetryIsAskedForOnce() {
        var store = ReducerTestStore(F.state())
        let entry = [
            PendingPayment(
                transactionId: "2000000000000013", productId: F.gems, quantity: 1, state: .purchased, since: F.now,
                reason: .awaitingVerification(
                    attempts: 1, lastError: "down", nextAttempt: F.now.addingTimeInterval(0.15)))
        ]
        store.arrange { $0.pending = entry }
        store.send(.tick(F.now.addingTimeInterval(0.1))) {
            $0.now = F.now.addingTimeInterval(0.1)
            $0.spinner = 1
        }
        store.send(.tick(F.now.addingTimeInterval(0.2)), effects: [.retryVerification(account: "alice")]) {
            $0.now = F.now.addingTimeInterval(0.2)
            $0.spinner = 2
        }
        store.send(.tick(F.now.addingTimeInterval(0.3))) {
            $0.now = F.now.addingTimeInterval(0.3)
            $0.spinner = 3
        }
    }

    /// A purchase whose verification was put off, then finished by the app's server (Finish
    /// Transaction): the queue no longer offers it, so the app verifies it from its ledger at the
    /// next refresh instead of waiting for a retry the queue would have brought.
    @Test func aPurchaseTheServerFinishedIsVerifiedOutsideTheQueue() {
        var state = F.state(TerminalSize(columns: 120, rows: 40))
        let gems = F.transaction("2000000000000001", F.gems, .purchased)
        F.send(
            &state, .transactionUpdate(TransactionUpdate(transaction: gems, receipt: "receipt")),
            .appSteps([
                .delivered(transactionId: gems.id, firstTime: true),
                .verificationDeferred(
                    transactionId: gems.id, reason: "the verification server is unreachable",
                    nextAttempt: F.now.addingTimeInterval(30)),
            ]))
        #expect(Golden.text(state).contains("not verified yet"))
        var finished = gems
        finished.finished = true
        finished.finishedBy = .server
        let effects = F.send(
            &state,
            .snapshot(
                StoreSnapshot(
                    history: [finished], pending: [], balances: ["gems": 100], entitlements: [],
                    controls: state.controls)))
        #expect(effects == [.retryVerification(account: "alice")])
        F.send(&state, .appSteps([.verified(transactionId: gems.id), .finished(transactionId: gems.id)]))
        let text = Golden.text(state)
        #expect(text.contains("verified ✓ finished") && !text.contains("not verified yet"), "\(text)")
    }
}
