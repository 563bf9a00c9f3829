import CellGrid
import Foundation
import StoreCore
import StoreKitModel
import Testing

@testable import StorefrontUI

/// The transaction manager as Xcode's: each row's true status, the inspector of every field,
/// a confirmation or a reason for every action, and every account's requests for a parent.
@Suite struct TransactionManagerTests {
    typealias F = UIFixture
    static let small = TerminalSize(columns: 80, rows: 24)
    static let large = TerminalSize(columns: 120, rows: 40)
    static let theme = "com.example.storefront.theme.dark"
    static let yearly = "com.example.storefront.premium.yearly"

    static func status(_ text: String, _ level: StatusMessage.Level = .info) -> StatusMessage {
        StatusMessage(text: text, level: level, expires: F.now.addingTimeInterval(Reducer.statusSeconds))
    }

    static func transaction(
        _ number: Int, _ productId: String, _ state: TransactionState = .purchased, account: String = "alice",
        original: Int? = nil, minutesAgo: Double = 10, terms: TransactionTerms? = nil
    ) -> Transaction {
        let id = String(2_000_000_000_000_000 + number)
        let payment = Payment(productId: productId, applicationUsername: "order-\(id)", account: account)
        return Transaction(
            id: id, originalId: original.map { String(2_000_000_000_000_000 + $0) } ?? id, payment: payment,
            state: state, purchaseDate: F.now.addingTimeInterval(-minutesAgo * 60), finished: state != .deferred,
            terms: terms)
    }

    static func terms(
        _ price: String = "4.99", expires: Double? = nil, revoked: Bool = false, shared: Bool = false,
        upgraded: Bool = false, renewal: Bool = false
    ) -> TransactionTerms {
        TransactionTerms(
            price: Decimal(string: price) ?? 0, currency: "USD",
            expirationDate: expires.map { F.now.addingTimeInterval($0 * 60) },
            revocation: revoked ? Revocation(date: F.now.addingTimeInterval(-60), reason: .other) : nil,
            upgrade: upgraded ? Upgrade(date: F.now.addingTimeInterval(-120), refund: 2.5) : nil, isRenewal: renewal,
            ownership: shared ? .familyShared : .purchased, billingPlan: expires == nil ? nil : .upFront)
    }

    /// Alice's history with a transaction in every status the manager names.
    static func history(graceUntil: Date? = nil) -> (transactions: [Transaction], entitlements: [Entitlement]) {
        var interrupted = transaction(9, F.gems, .failed, minutesAgo: 1)
        interrupted.error = .storeKit(.unknown)
        interrupted.failureContext = .interrupted
        let transactions = [
            interrupted,
            transaction(8, F.removeAds, .deferred, minutesAgo: 2),
            // A monthly subscription in billing retry (its latest period ended), renewed once before.
            transaction(7, F.monthly, original: 5, minutesAgo: 3, terms: terms(expires: -1, renewal: true)),
            transaction(6, F.plusMonthly, minutesAgo: 4, terms: terms("9.99", expires: -2)),
            transaction(5, F.monthly, minutesAgo: 40, terms: terms(expires: -3)),
            transaction(4, yearly, minutesAgo: 50, terms: terms("49.99", expires: 60, upgraded: true)),
            transaction(3, theme, minutesAgo: 60, terms: terms("0", revoked: true, shared: true)),
            transaction(2, F.gems, minutesAgo: 70, terms: terms("0.99", revoked: true)),
            transaction(1, F.removeAds, minutesAgo: 80, terms: terms("1.99")),
        ]
        let retry = Entitlement(
            productId: F.monthly, type: .autoRenewable, transactionId: "2000000000000007",
            originalTransactionId: "2000000000000005", purchaseDate: F.now.addingTimeInterval(-180),
            expiresDate: F.now.addingTimeInterval(-60), willAutoRenew: true,
            renewal: RenewalInfo(
                willAutoRenew: true, autoRenewProductId: F.monthly, isInBillingRetry: true,
                gracePeriodExpirationDate: graceUntil))
        return (transactions, [retry])
    }

    static func managerState(_ size: TerminalSize = small, language: Language = .english) -> AppState {
        var state = F.state(size, language: language)
        let (transactions, entitlements) = history()
        state.history = transactions
        state.entitlements = entitlements
        F.keys(&state, .character("m"))
        return state
    }

    @Test func everyRowShowsItsTrueStatus() {
        let state = Self.managerState()
        let rows = Presentation.managerRows(state)
        let statuses = Presentation.statuses(state, rows)
        #expect(
            rows.map { statuses[$0.id] }
                == [
                    .interrupted, .queue(.deferred), .billingRetry, .expired, .queue(.purchased), .upgraded, .revoked,
                    .refunded, .queue(.purchased),
                ].map(Optional.some))
        // The subscription's earlier period ended as it renewed: not "expired".
        #expect(statuses["2000000000000005"] != .expired)
        Golden.check("manager-statuses-80x24", state, styles: true)
        Golden.check("manager-statuses-zh-80x24", Self.managerState(language: .simplifiedChinese))
        Golden.check("manager-statuses-120x40", Self.managerState(Self.large))
    }

    @Test func aGracePeriodShowsWhileItLasts() {
        var state = Self.managerState()
        state.entitlements = Self.history(graceUntil: F.now.addingTimeInterval(600)).entitlements
        let rows = Presentation.managerRows(state)
        #expect(Presentation.statuses(state, rows)["2000000000000007"] == .gracePeriod)
        #expect(Golden.text(state).contains("2000000000000007  in grace"))
    }

    /// A code or offer taken on the plan in force waits for the renewal: its period says so.
    @Test func anOfferWaitingForTheRenewalShows() {
        var state = Self.managerState()
        let bought = Self.transaction(10, F.monthly, minutesAgo: 0, terms: Self.terms(expires: 30))
        state.history.insert(bought, at: 0)
        state.entitlements = [
            Entitlement(
                productId: F.monthly, type: .autoRenewable, transactionId: bought.id,
                originalTransactionId: bought.originalId, purchaseDate: F.now,
                expiresDate: F.now.addingTimeInterval(1_800),
                willAutoRenew: true,
                renewal: RenewalInfo(
                    willAutoRenew: true, autoRenewProductId: F.monthly,
                    renewalOffer: TransactionOffer(
                        type: .code, id: "free-month", paymentMode: .freeTrial,
                        period: SubscriptionPeriod(value: 1, unit: .month))))
        ]
        let rows = Presentation.managerRows(state)
        #expect(Presentation.statuses(state, rows)[bought.id] == .offerWaiting)
        #expect(Golden.text(state).contains("\(bought.id)  offer next"))
    }

    @Test func enterInspectsEveryFieldAndEscapeGoesBackToTheRow() {
        var store = ReducerTestStore(Self.managerState())
        store.press(.down) { $0.sheet = .transactionManager(selection: 1) }
        store.press(.down) { $0.sheet = .transactionManager(selection: 2) }
        let inspector = TransactionInspector(transactionId: "2000000000000007", selection: 2)
        store.press(.enter) { $0.sheet = .transactionInspector(inspector) }
        Golden.check("inspector-80x24", store.state)
        let text = Golden.text(store.state)
        for field in ["transactionId", "originalTransactionId", "purchaseDate", "finishedBy", "appStoreOrderId"] {
            #expect(text.contains(field))
        }
        let last = Sheets.inspectorMaxScroll(store.state, inspector.transactionId)
        #expect(last > 0, "taller than the screen: it scrolls")
        store.press(.end) {
            $0.sheet = .transactionInspector(
                TransactionInspector(
                    transactionId: "2000000000000007", selection: 2, scroll: last))
        }
        Golden.check("inspector-end-80x24", store.state)
        store.press(.escape) { $0.sheet = .transactionManager(selection: 2) }
    }

    @Test func theInspectorListsEveryFieldOfTheCLIsJSON() {
        let state = Self.managerState()
        let names = Sheets.transactionFields(Self.history().transactions[2], state).map(\.0)
        let json = [
            "transactionId", "originalTransactionId", "productId", "state", "quantity", "purchaseDate", "finished",
            "finishedBy", "orderId", "appStoreOrderId", "error", "price", "currency", "expirationDate", "offerType",
            "offerId", "offerPaymentMode", "revocationDate", "revocationReason", "transactionReason",
            "failureContext", "isUpgraded", "upgradeRefund", "billingPlanType", "commitmentInfo",
        ]
        #expect(json.allSatisfy(names.contains))
    }

    @Test func theInspectorInChinese() {
        var state = Self.managerState(language: .simplifiedChinese)
        F.keys(&state, .down, .down, .down, .down, .down, .down, .down, .enter)
        Golden.check("inspector-zh-80x24", state)
    }

    @Test func everyActionSaysWhatItDidOrWhyNot() {
        var store = ReducerTestStore(Self.managerState())
        store.send(.managed(.refund("2000000000000001"), .done([]))) {
            $0.status = Self.status("Refunded 2000000000000001.")
        }
        store.send(
            .managed(.refund("2000000000000002"), .refused("transaction 2000000000000002 was already refunded"))
        ) {
            $0.status = Self.status(
                "Could not refund: transaction 2000000000000002 was already refunded", .error)
        }
        var renewed = Self.transaction(10, F.monthly, original: 5, minutesAgo: 0)
        renewed.state = .purchased
        store.send(.managed(.forceRenewal("2000000000000007"), .done([renewed]))) {
            $0.status = Self.status("Renewed Premium Monthly: 2000000000000010.")
        }
        store.send(.managed(.expireSubscription("2000000000000007"), .done([]))) {
            $0.status = Self.status("Expired Premium Monthly (2000000000000007).")
        }
        store.send(.managed(.setAutoRenew("2000000000000007", false), .done([]))) {
            $0.status = Self.status("Auto-renew off for Premium Monthly.")
        }
        store.send(.managed(.priceIncrease("2000000000000007", .request), .done([]))) {
            $0.status = Self.status("Price increase of Premium Monthly asked for: the user consents or declines.")
        }
        store.send(.managed(.resolveIssue("2000000000000009"), .done([renewed]))) {
            $0.status = Self.status("Resolved 2000000000000009: 2000000000000010 purchased.")
        }
        // O and P act on a subscription the account has now: the store is not asked otherwise.
        store.press(.character("O")) {
            $0.status = Self.status(
                "2000000000000009 is not a current subscription of this account: nothing to renew or reprice.",
                .error)
        }
        store.press(.down) { $0.sheet = .transactionManager(selection: 1) }
        store.press(.down) { $0.sheet = .transactionManager(selection: 2) }
        for (key, action) in [
            ("E", ManageAction.expireSubscription("2000000000000007")), ("N", .forceRenewal("2000000000000007")),
            ("O", .setAutoRenew("2000000000000007", false)), ("P", .priceIncrease("2000000000000007", .request)),
            ("I", .resolveIssue("2000000000000007")),
        ] {
            store.press(.character(Character(key)), effects: [.manageAndReport(action), .refresh(account: "alice")])
        }
    }

    @Test func anEmptyManagerSaysThereIsNothingToActOn() {
        var state = F.state()
        F.keys(&state, .character("m"), .character("E"))
        #expect(state.status == Self.status("No transaction to act on.", .error))
    }

    @Test func aParentApprovesTheChildsRequestFromEveryAccountsView() {
        var store = ReducerTestStore(F.state())
        let request = Self.transaction(2, F.removeAds, .deferred, account: "kid", minutesAgo: 1)
        let own = Self.transaction(1, F.gems, account: "alice", minutesAgo: 5, terms: Self.terms("0.99"))
        store.arrange { $0.history = [own] }
        store.press(.character("m")) { $0.sheet = .transactionManager(selection: 0) }
        store.press(.character("A"), effects: [.loadEveryAccount]) {
            $0.managerView.allAccounts = true
            $0.status = Self.status("Every account's transactions: a parent approves a child's requests here.")
        }
        let families = Self.families(store.state)
        store.send(.everyAccountLoaded([request, own], families: families)) {
            $0.managerView.everyAccount = [request, own]
            $0.managerView.families = families
        }
        Golden.check("manager-all-accounts-80x24", store.state)
        var chinese = store.state
        chinese.language = .simplifiedChinese
        chinese.status = nil
        Golden.check("manager-all-accounts-zh-80x24", chinese)
        store.press(.down) { $0.sheet = .transactionManager(selection: 1) }
        store.press(
            .character("Y"),
            effects: [.manageAndReport(.approveAskToBuy(request.id)), .refresh(account: "alice"), .loadEveryAccount])
        // The refresh keeps every account's list fresh while it is shown.
        #expect(Reducer.managerRefresh(store.state) == [.loadEveryAccount])
        store.press(.character("A")) {
            $0.managerView = ManagerView()
            $0.sheet = .transactionManager(selection: 0)
            $0.status = Self.status("alice's transactions only.")
        }
    }

    @Test func onlyAParentOfTheChildsFamilyAnswersItsRequest() {
        var state = F.state(account: "kenji")
        let request = Self.transaction(2, F.removeAds, .deferred, account: "kid", minutesAgo: 1)
        F.keys(&state, .character("m"), .character("A"))
        _ = Reducer.reduce(&state, .everyAccountLoaded([request], families: Self.families(state)))
        #expect(F.keys(&state, .character("Y")).isEmpty)
        #expect(
            state.status == Self.status("Only a parent in kid's family answers its requests: sign in as alice.", .error)
        )
    }

    /// Families edited while the store runs (`manage family add`): the manager reads them with
    /// every account's transactions, so kenji, moved into kid's family, answers its request, and
    /// the headings name the families as they are now.
    @Test func aParentAddedToTheFamilyWhileTheStoreRunsAnswers() {
        var state = F.state(account: "kenji")
        let request = Self.transaction(2, F.removeAds, .deferred, account: "kid", minutesAgo: 1)
        F.keys(&state, .character("m"), .character("A"))
        var families = Self.families(state)
        guard let family = families["kid"] else {
            Issue.record("the fixture's kid is in no family")
            return
        }
        families["kenji"] = family
        _ = Reducer.reduce(&state, .everyAccountLoaded([request], families: families))
        #expect(Golden.text(state).contains("kid · family \(family)"))
        #expect(
            F.keys(&state, .character("Y")) == [
                .manageAndReport(.approveAskToBuy(request.id)), .refresh(account: "kenji"), .loadEveryAccount,
            ])
        families["kid"] = nil
        _ = Reducer.reduce(&state, .everyAccountLoaded([request], families: families))
        #expect(!Golden.text(state).contains("kid · family"), "kid left its family")
        #expect(F.keys(&state, .character("Y")).isEmpty)
        #expect(
            state.status == Self.status("kid has no parent in a family to answer its requests: sign in as kid.", .error)
        )
    }

    /// The catalog's families, as a store that was never edited reports them.
    static func families(_ state: AppState) -> [String: String] {
        Dictionary(
            uniqueKeysWithValues: state.catalog.accounts.compactMap { account in
                account.family.map { (account.name, $0) }
            })
    }

    /// The store may have changed while the manager was closed (erased, another account bought
    /// from the command line): opening it reads every account's transactions again, and shows
    /// none of the old rows meanwhile.
    @Test func openingEveryAccountsViewReadsTheStoreAgain() {
        var store = ReducerTestStore(F.state())
        let erased = Self.transaction(2, F.gems, account: "kenji", terms: Self.terms("0.99"))
        store.arrange { $0.managerView = ManagerView(allAccounts: true, everyAccount: [erased]) }
        store.press(.character("m"), effects: [.loadEveryAccount]) {
            $0.sheet = .transactionManager(selection: 0)
            $0.managerView.everyAccount = []
        }
        let bought = Self.transaction(3, F.gems, account: "lena", terms: Self.terms("0.99"))
        let families = Self.families(store.state)
        store.send(.everyAccountLoaded([bought], families: families)) {
            $0.managerView.everyAccount = [bought]
            $0.managerView.families = families
        }
        let text = Golden.text(store.state)
        #expect(text.contains("lena") && text.contains(bought.id), "\(text)")
        #expect(!text.contains(erased.id), "\(text)")
    }

    /// A refund the customer asked for waits for the App Store: its row and the inspector say
    /// so, with the reason and when it was asked.
    @Test func aWaitingRefundRequestShowsInTheRowAndTheInspector() {
        var state = F.state(Self.large)
        let monthly = Self.transaction(1, F.monthly, terms: Self.terms(expires: 60))
        state.history = [monthly]
        state.sheet = .refundRequest(RefundRequest(transactionId: monthly.id))
        F.keys(&state, .enter, .character("m"))
        var text = Golden.text(state)
        #expect(text.contains("\(monthly.id)  refund asked"), "\(text)")
        Golden.check("manager-refund-requested-120x40", state)
        F.keys(&state, .enter)
        text = Golden.text(state)
        for (name, value) in [
            ("refundRequest", "waiting for the App Store"), ("refundRequestReason", "unintended-purchase"),
            ("refundRequestDate", "2027-01-15T08:00:00Z"),
        ] {
            #expect(text.contains(CellWidth.pad(name, to: Sheets.inspectorKeyColumn) + value), "\(text)")
        }
        // Decided, it is no longer shown as waiting.
        F.keys(&state, .escape, .character("D"))
        #expect(!Golden.text(state).contains("refund asked"))
    }

    /// A restored copy is no order of its own: its row names no App Store order id, as neither
    /// the inspector nor `transactions --json` does.
    @Test func aRestoredRowShowsNoOrderIdOfItsOwn() {
        var state = Self.managerState(Self.large)
        let restored = Self.transaction(10, Self.theme, .restored, original: 1, minutesAgo: 0, terms: Self.terms("0"))
        state.history.insert(restored, at: 0)
        let rows = Golden.text(state).split(separator: "\n")
        let row = rows.first { $0.contains(restored.id) } ?? ""
        #expect(!row.contains("order"), "\(row)")
        #expect(rows.contains { $0.contains("2000000000000001") && $0.contains("order M000000001") })
    }
}
