import CellGrid
import Foundation
import StoreCore
import StoreKitModel
import StorefrontUI
import Testing

/// Every screen and sheet at the four sizes a QA lead uses (60×16, the minimum, to 200×60), in
/// English and Chinese, and in English on an ASCII-only terminal (LANG=C, TERM=dumb), checked in
/// under Golden/matrix/. Each screen is built by keys and store messages, as a user gets there.
@Suite struct ScreenMatrixTests {
    typealias F = UIFixture

    struct Variant: Sendable, CustomTestStringConvertible {
        let size: TerminalSize
        let language: Language
        let ascii: Bool

        var name: String { "\(ascii ? "ascii" : language == .english ? "en" : "zh")-\(size.columns)x\(size.rows)" }
        var testDescription: String { name }
    }

    static let sizes = [
        TerminalSize(columns: 60, rows: 16), TerminalSize(columns: 80, rows: 24),
        TerminalSize(columns: 120, rows: 40), TerminalSize(columns: 200, rows: 60),
    ]
    static let variants: [Variant] = sizes.flatMap { size in
        [
            Variant(size: size, language: .english, ascii: false),
            Variant(size: size, language: .simplifiedChinese, ascii: false),
            Variant(size: size, language: .english, ascii: true),
        ]
    }

    /// A subscription bought a minute ago and paid, renewing in 29 days.
    static let monthly: Transaction = {
        var monthly = F.transaction("2000000000000002", F.monthly, .purchased, finished: true)
        monthly.terms = TransactionTerms(
            price: 4.99, currency: "USD", expirationDate: F.now.addingTimeInterval(29 * 86_400))
        return monthly
    }()

    /// A history with every state the transaction pane words: purchasing, Ask to Buy, delivered,
    /// unverified, failed, declined (the store's side: the app still waits), interrupted, refunded,
    /// upgraded, finished.
    static func history() -> (history: [Transaction], progress: [String: PurchaseProgress]) {
        var declined = F.transaction("2000000000000009", F.removeAds, .deferred)
        declined.failureContext = .declined
        var interrupted = F.transaction("2000000000000008", F.gems, .failed, error: .storeKit(.unknown), finished: true)
        interrupted.failureContext = .interrupted
        var refunded = F.transaction("2000000000000007", F.gems, .purchased, finished: true)
        refunded.terms = TransactionTerms(
            price: 0.99, currency: "USD", revocation: Revocation(date: F.now, reason: .other))
        var upgraded = F.transaction("2000000000000001", F.plusMonthly, .purchased, finished: true)
        upgraded.terms = TransactionTerms(
            price: 9.99, currency: "USD", expirationDate: F.now,
            upgrade: Upgrade(date: F.now, refund: 3.33))
        var renewed = Transaction(
            id: "2000000000000010", originalId: monthly.id, payment: monthly.payment, state: .purchased,
            purchaseDate: F.now, finished: true)
        renewed.terms = TransactionTerms(
            price: 4.99, currency: "USD", expirationDate: F.now.addingTimeInterval(29 * 86_400), isRenewal: true)
        let rows: [(Transaction, PurchaseProgress?)] = [
            (renewed, .finished),
            (F.transaction("2000000000000006", F.gems, .purchasing), .purchasing),
            (declined, nil), (interrupted, nil),
            (F.transaction("2000000000000005", F.removeAds, .deferred), .deferred),
            (F.transaction("2000000000000004", F.gems, .purchased, quantity: 3), .unverified("server unreachable")),
            (
                F.transaction(
                    "2000000000000003", F.gems, .failed, error: .storeKit(.paymentNotAllowed), finished: true), nil
            ),
            (refunded, nil), (monthly, .finished), (upgraded, nil),
        ]
        return (
            rows.map(\.0), Dictionary(uniqueKeysWithValues: rows.compactMap { row in row.1.map { (row.0.id, $0) } })
        )
    }

    static func busy(_ variant: Variant) -> AppState {
        var state = F.state(variant.size, language: variant.language)
        if variant.ascii { Reducer.useASCII(&state) }
        let (history, progress) = history()
        F.send(
            &state,
            .snapshot(
                StoreSnapshot(
                    history: history, pending: F.pending(history.filter { !$0.finished }), balances: ["gems": 300],
                    entitlements: [
                        Entitlement(
                            productId: F.monthly, type: .autoRenewable, transactionId: monthly.id,
                            originalTransactionId: monthly.id,
                            purchaseDate: monthly.purchaseDate, expiresDate: monthly.terms?.expirationDate,
                            willAutoRenew: true,
                            renewal: RenewalInfo(
                                willAutoRenew: true, autoRenewProductId: F.monthly, priceIncreaseStatus: .pending))
                    ],
                    controls: TestControls())))
        state.progress.merge(progress) { _, new in new }
        state.status = nil
        // The pending price increase's consent sheet opened over it: its own screen below.
        state.sheet = nil
        return state
    }

    /// What the store holds in `state`, with `entitlements`.
    static func snapshot(_ state: AppState, _ entitlements: [Entitlement]) -> StoreSnapshot {
        StoreSnapshot(
            history: state.history, pending: state.pending, balances: state.balances, entitlements: entitlements,
            controls: state.controls)
    }

    /// The busy screen's monthly subscription with `renewal`.
    static func subscribed(_ renewal: RenewalInfo) -> Entitlement {
        Entitlement(
            productId: F.monthly, type: .autoRenewable, transactionId: monthly.id, originalTransactionId: monthly.id,
            purchaseDate: monthly.purchaseDate, expiresDate: monthly.terms?.expirationDate, willAutoRenew: true,
            renewal: renewal)
    }

    /// Each screen: a name and the steps from the busy main screen to it.
    static let screens: [(String, @Sendable (inout AppState) -> Void)] = [
        ("main", { _ in }),
        (
            "controls-line",
            { state in
                state.controls.latencyMilliseconds = 5_000
                state.controls.verificationFailure = .unreachable
            }
        ),
        ("transactions-failures", { F.keys(&$0, .character("v"), .character("v")) }),
        ("help", { F.keys(&$0, .character("?")) }),
        ("help-end", { F.keys(&$0, .character("?"), .end) }),
        ("confirm-quantity", { F.keys(&$0, .enter, .character("+")) }),
        (
            "confirm-owned",
            { state in
                F.send(
                    &state,
                    .snapshot(
                        StoreSnapshot(
                            history: [], pending: [], balances: [:],
                            entitlements: [
                                Entitlement(
                                    productId: F.removeAds, type: .nonConsumable, transactionId: "2000000000000001",
                                    originalTransactionId: "2000000000000001",
                                    purchaseDate: F.now, expiresDate: nil, willAutoRenew: false)
                            ], controls: TestControls())))
                filter(&state, "remove ads")
                F.keys(&state, .enter)
            }
        ),
        (
            "confirm-trial",
            { state in
                F.send(
                    &state,
                    .snapshot(
                        StoreSnapshot(
                            history: [], pending: [], balances: [:], entitlements: [], controls: TestControls())))
                filter(&state, "premium monthly")
                F.keys(&state, .enter)
            }
        ),
        (
            "confirm-subscribed",
            {
                filter(&$0, "premium monthly")
                F.keys(&$0, .enter)
            }
        ),
        (
            "confirm-upgrade",
            {
                filter(&$0, "premium plus")
                F.keys(&$0, .enter)
            }
        ),
        (
            "confirm-offer",
            {
                filter(&$0, "premium monthly")
                F.keys(&$0, .enter, .character("o"), .enter)
            }
        ),
        (
            "details",
            {
                filter(&$0, "premium monthly")
                F.keys(&$0, .character("i"))
            }
        ),
        (
            "error-skerror",
            { $0.sheet = .error(ErrorSheet(kind: .store(.storeKit(.paymentNotAllowed)), productId: F.gems)) }
        ),
        (
            "error-interrupted",
            { $0.sheet = .error(ErrorSheet(kind: .interrupted(.storeKit(.unknown)), productId: F.gems)) }
        ),
        ("pending", { F.keys(&$0, .character("p")) }),
        ("test-controls", { F.keys(&$0, .character("t")) }),
        ("manager", { F.keys(&$0, .character("m"), .down, .character("X")) }),
        ("subscriptions", { F.keys(&$0, .character("u")) }),
        (
            "billing-retry-and-grace",
            { state in
                // One subscription in billing retry with its grace period running, one lapsed into retry.
                let grace = RenewalInfo(
                    willAutoRenew: true, autoRenewProductId: F.monthly, isInBillingRetry: true,
                    gracePeriodExpirationDate: F.now.addingTimeInterval(5 * 86_400))
                let retry = RenewalInfo(willAutoRenew: true, autoRenewProductId: F.plusMonthly, isInBillingRetry: true)
                F.send(
                    &state,
                    .snapshot(
                        StoreSnapshot(
                            history: state.history, pending: state.pending, balances: state.balances,
                            entitlements: [
                                Entitlement(
                                    productId: F.monthly, type: .autoRenewable, transactionId: monthly.id,
                                    originalTransactionId: monthly.id,
                                    purchaseDate: F.now, expiresDate: F.now.addingTimeInterval(-60),
                                    willAutoRenew: true, renewal: grace),
                                Entitlement(
                                    productId: F.plusMonthly, type: .autoRenewable, transactionId: "2000000000000001",
                                    originalTransactionId: "2000000000000001",
                                    purchaseDate: F.now, expiresDate: F.now.addingTimeInterval(-60),
                                    willAutoRenew: true, renewal: retry),
                            ], controls: state.controls)))
                state.sheet = nil  // the billing-issue message: its own screen below
                F.keys(&state, .character("u"))
            }
        ),
        ("refund-request", { F.keys(&$0, .character("u"), .character("f")) }),
        (
            "price-increase-message",
            { state in
                let renewal = RenewalInfo(
                    willAutoRenew: true, autoRenewProductId: F.monthly, priceIncreaseStatus: .pending,
                    renewalPrice: Decimal(string: "5.49"))
                state.messagesShown = []
                F.send(&state, .snapshot(snapshot(state, [subscribed(renewal)])))
            }
        ),
        (
            "billing-issue-message",
            { state in
                let renewal = RenewalInfo(
                    willAutoRenew: true, autoRenewProductId: F.monthly, isInBillingRetry: true,
                    gracePeriodExpirationDate: F.now.addingTimeInterval(5 * 86_400))
                state.messagesShown = []
                F.send(&state, .snapshot(snapshot(state, [subscribed(renewal)])))
            }
        ),
        (
            "ask-permission",
            { $0.sheet = .askPermission(ConfirmPurchase(productId: F.removeAds, quantity: 1, pendingIds: [])) }
        ),
        ("win-back-message", { $0.sheet = .sentMessage(SentMessageTests.winBack) }),
        ("generic-message", { $0.sheet = .sentMessage(SentMessageTests.generic) }),
        ("promoted-purchase", { $0.sheet = .promotedPurchase(SentMessageTests.redeemed) }),
        (
            "redeem-code",
            { F.keys(&$0, .character("c"), .character("F"), .character("R"), .character("E"), .character("E")) }
        ),
        // The manager's form of a transaction made outside the device, on its date field.
        ("create-transaction", { F.keys(&$0, .character("m"), .character("B"), .down) }),
        ("storefronts", { F.keys(&$0, .character("s")) }),
        ("accounts", { F.keys(&$0, .character("a")) }),
        (
            "quit-question",
            { state in
                state.inFlight = ["2000000000000006"]
                F.keys(&state, .character("q"))
            }
        ),
    ]

    static func filter(_ state: inout AppState, _ query: String) {
        F.keys(&state, .character("/"))
        for character in query { F.keys(&state, .character(character)) }
        F.keys(&state, .enter)
    }

    @Test(arguments: variants) func everyScreen(_ variant: Variant) {
        for (name, steps) in Self.screens {
            var state = Self.busy(variant)
            steps(&state)
            Golden.check("matrix/\(name)-\(variant.name)", state)
            if variant.ascii {
                let unshown = Golden.text(state).filter { !TerminalText.asciiStandIn(for: $0).isASCII }
                #expect(unshown.isEmpty, "\(name): \(unshown) would show as ? on an ASCII terminal")
            }
        }
    }
}
