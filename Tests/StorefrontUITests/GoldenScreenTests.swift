import CellGrid
import Foundation
import StoreCore
import StoreKitModel
import StorefrontUI
import Testing

/// The screens as text at 80×24, 120×40 and below the minimum, checked in under Golden/; where
/// colour carries the meaning (an error, the selection, a warning), their styles too.
@Suite struct GoldenScreenTests {
    typealias F = UIFixture
    static let small = TerminalSize(columns: 80, rows: 24)
    static let large = TerminalSize(columns: 120, rows: 40)
    static let sizes = [("80x24", small), ("120x40", large)]

    /// A history with a transaction in every state and app step.
    static func busy(_ size: TerminalSize, language: Language = .english) -> AppState {
        var state = F.state(size, language: language)
        let rows: [(Transaction, PurchaseProgress?)] = [
            (F.transaction("2000000000000006", F.gems, .purchasing), .purchasing),
            (F.transaction("2000000000000005", F.removeAds, .deferred), .deferred),
            (F.transaction("2000000000000004", F.monthly, .purchased), .delivered),
            (F.transaction("2000000000000003", F.gems, .purchased, quantity: 3), .unverified("server unreachable")),
            (
                F.transaction(
                    "2000000000000002", F.gems, .failed, error: .storeKit(.paymentNotAllowed), finished: true), nil
            ),
            (F.transaction("2000000000000001", F.removeAds, .purchased, finished: true), .finished),
        ]
        let pending = F.pending(rows.map(\.0).filter { !$0.finished })
        F.send(
            &state,
            .snapshot(
                StoreSnapshot(
                    history: rows.map(\.0), pending: pending, balances: ["gems": 300],
                    entitlements: [
                        Entitlement(
                            productId: F.removeAds, type: .nonConsumable, transactionId: "2000000000000001",
                            originalTransactionId: "2000000000000001", purchaseDate: F.now, expiresDate: nil,
                            willAutoRenew: false),
                        Entitlement(
                            productId: F.monthly, type: .autoRenewable, transactionId: "2000000000000004",
                            originalTransactionId: "2000000000000004", purchaseDate: F.now,
                            expiresDate: F.now.addingTimeInterval(95), willAutoRenew: true),
                    ],
                    controls: TestControls())))
        for (transaction, progress) in rows { state.progress[transaction.id] = progress }
        state.inFlight = ["2000000000000006"]
        return state
    }

    @Test(arguments: sizes) func catalogInEnglish(name: String, size: TerminalSize) {
        Golden.check("catalog-en-\(name)", F.state(size), styles: size == Self.small)
    }

    @Test(arguments: sizes) func catalogInChinese(name: String, size: TerminalSize) {
        Golden.check("catalog-zh-\(name)", F.state(size, language: .simplifiedChinese))
    }

    @Test func catalogInJapanStorefrontWithChineseTitles() {
        var state = F.state(Self.large, language: .simplifiedChinese, account: "kenji")
        F.keys(&state, .character("G"))
        Golden.check("catalog-zh-JPN-120x40", state)
    }

    @Test func loadingAndFailedProductsRequest() {
        var state = F.state(Self.small, loaded: false)
        Golden.check("catalog-loading-80x24", state)
        F.send(&state, .productsFailed("HTTP 503 from http://127.0.0.1:8080/v1/products"))
        Golden.check("catalog-failed-80x24", state)
    }

    @Test func filtering() {
        var state = F.state(Self.small)
        F.keys(&state, .character("/"), .character("p"), .character("r"), .character("e"))
        Golden.check("filter-80x24", state)
    }

    @Test(arguments: sizes) func everyTransactionStateWithThePendingBanner(name: String, size: TerminalSize) {
        Golden.check("transactions-\(name)", Self.busy(size), styles: size == Self.small)
    }

    @Test func transactionStatesInChinese() {
        Golden.check("transactions-zh-120x40", Self.busy(Self.large, language: .simplifiedChinese))
    }

    @Test(arguments: sizes) func confirmationSheet(name: String, size: TerminalSize) {
        var state = F.state(size)
        F.keys(&state, .enter, .character("+"), .character("+"))
        Golden.check("confirm-\(name)", state)
    }

    @Test func confirmationNamingAPendingPayment() {
        var state = Self.busy(Self.small)
        F.keys(&state, .enter, .enter)
        Golden.check("confirm-pending-80x24", state, styles: true)
    }

    @Test func confirmationInChinese() {
        var state = F.state(Self.small, language: .simplifiedChinese, account: "wei")
        F.keys(&state, .enter)
        Golden.check("confirm-zh-80x24", state)
    }

    @Test(arguments: [
        ("skerror", ErrorSheet.Kind.store(.storeKit(.paymentNotAllowed))),
        ("network", .store(.network(.notConnectedToInternet))),
        (
            "verification",
            .verification(
                reason:
                    "the receipt's transaction 2000000000000003 is for com.example.storefront.gems.550, not com.example.storefront.gems.100"
            )
        ),
    ])
    func errorSheets(name: String, kind: ErrorSheet.Kind) {
        var state = F.state(Self.small)
        state.sheet = .error(ErrorSheet(kind: kind, productId: F.gems))
        Golden.check("error-\(name)-80x24", state, styles: name == "skerror")
        state.language = .simplifiedChinese
        state.size = Self.large
        Golden.check("error-\(name)-zh-120x40", state)
    }

    /// A payment the store never answered: the banner, the warning in the status line, and the
    /// store's absence, which the status line shows once the warning has gone.
    @Test func statusLineWarningAndTheStoreAway() {
        var state = F.state(Self.small)
        F.send(
            &state,
            .paymentUnconfirmed(
                productId: F.gems, quantity: 1, orderId: "order-1", reason: "store unreachable at http://127.0.0.1:9"))
        Golden.check("status-warning-80x24", state, styles: true)
        F.send(&state, .tick(F.now.addingTimeInterval(5)))
        Golden.check("status-store-away-80x24", state, styles: true)
    }

    @Test func pendingPaymentsView() {
        var state = Self.busy(Self.large)
        F.keys(&state, .character("p"))
        Golden.check("pending-120x40", state)
    }

    @Test(arguments: sizes) func help(name: String, size: TerminalSize) {
        var state = F.state(size)
        F.keys(&state, .character("?"))
        Golden.check("help-\(name)", state)
    }

    @Test(arguments: sizes) func testControls(name: String, size: TerminalSize) {
        var state = F.state(size)
        F.keys(&state, .character("t"), .down, .down)
        state.controls.nextOutcome = .fail(.paymentNotAllowed)
        state.controls.timeRate = .oneRenewalEvery2Seconds
        state.controls.verificationFailure = .status(.notAuthenticated)
        Golden.check("controls-\(name)", state, styles: size == Self.small)
    }

    @Test(arguments: sizes) func transactionManager(name: String, size: TerminalSize) {
        var state = Self.busy(size)
        F.keys(&state, .character("m"), .down)
        Golden.check("manager-\(name)", state)
    }

    /// A subscription with an intro offer and a group: every field the list has no room for.
    @Test func productDetails() {
        var state = F.state(Self.large)
        F.keys(&state, .character("/"), .character("m"), .character("o"), .character("n"), .enter, .character("i"))
        Golden.check("details-120x40", state)
        var chinese = F.state(Self.small, language: .simplifiedChinese)
        F.keys(&chinese, .character("G"), .character("i"))
        Golden.check("details-zh-80x24", chinese)
    }

    @Test func storefrontPickerShowsThePriceInEach() {
        var state = F.state(Self.small)
        F.keys(&state, .character("s"))
        Golden.check("storefronts-80x24", state)
    }

    @Test func belowTheMinimum() {
        Golden.check("too-small-50x10", F.state(TerminalSize(columns: 50, rows: 10)))
        Golden.check("too-small-40x10", F.state(TerminalSize(columns: 40, rows: 10)))
        Golden.check("too-small-zh-40x10", F.state(TerminalSize(columns: 40, rows: 10), language: .simplifiedChinese))
        Golden.check("too-small-20x5", F.state(TerminalSize(columns: 20, rows: 5)))
        Golden.check("too-small-1x1", F.state(TerminalSize(columns: 1, rows: 1)))
    }

    @Test func asciiFallbackUsesNoBoxDrawing() {
        var state = Self.busy(Self.small)
        state.asciiOnly = true
        F.keys(&state, .character("m"))
        let text = View.render(state).text
        #expect(!text.contains("┌") && !text.contains("│") && !text.contains("⚠") && !text.contains("✓"))
        Golden.check("ascii-manager-80x24", state)
    }
}
