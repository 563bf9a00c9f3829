import CellGrid
import Foundation
import StoreCore
import StoreKitModel
import Testing
@testable import StorefrontUI

@Suite struct ReducerTests {
    typealias F = UIFixture

    @Test func launchReplaysTheQueueBeforeLoadingTheCatalog() {
        let state = F.state(loaded: false)
        #expect(Reducer.start(state) == [.replayUnfinished(account: "alice"), .loadProducts(storefront: "USA"), .refresh(account: "alice")])
        #expect(state.catalogLoad == .loading)
    }

    @Test func navigationStaysInBounds() {
        var state = F.state()
        let count = state.list.visible.count
        F.keys(&state, .up, .character("k"))
        #expect(state.list.selection == 0)
        F.keys(&state, .character("j"), .down)
        #expect(state.list.selection == 2)
        F.keys(&state, .character("G"))
        #expect(state.list.selection == count - 1)
        F.keys(&state, .pageDown, .down)
        #expect(state.list.selection == count - 1)
        F.keys(&state, .character("g"))
        #expect(state.list.selection == 0 && state.list.scroll == 0)
        F.keys(&state, .pageDown)
        #expect(state.list.selection == min(count - 1, Layout(size: state.size, banner: false).listRows))
    }

    @Test func detailsFollowTheSelectionAndEnterBuysWhatTheyShow() {
        var state = F.state()
        F.keys(&state, .character("i"))
        #expect(state.sheet == .productDetails)
        F.keys(&state, .character("j"), .down)
        #expect(state.sheet == .productDetails && state.list.selection == 2)
        let shown = state.selectedProduct?.id
        F.keys(&state, .enter)
        #expect(state.sheet == .confirmPurchase(ConfirmPurchase(productId: shown ?? "", quantity: 1, pendingIds: [])))
        F.keys(&state, .escape, .character("i"), .escape)
        #expect(state.sheet == nil)
        F.keys(&state, .character("i"), .character("i"))
        #expect(state.sheet == nil)  // i closes what it opened
        F.keys(&state, .character("/"), .character("z"), .character("z"), .character("z"), .enter, .character("i"))
        #expect(state.sheet == nil)  // nothing selected, nothing to show
    }

    /// Only a marker shows the selection, so moving it changes the two marker cells and the
    /// position in the list's title: what the terminal is sent (≤ 1 % of a repaint) follows from this.
    @Test(arguments: [TerminalSize(columns: 80, rows: 24), TerminalSize(columns: 200, rows: 60)])
    func aMoveChangesOnlyTheMarkerAndThePosition(size: TerminalSize) {
        var state = F.state(size)
        F.keys(&state, .down)
        let before = View.render(state)
        F.keys(&state, .down)
        let after = View.render(state)
        var changed: [String] = []
        for row in 0..<size.rows {
            for column in 0..<size.columns where before[row, column] != after[row, column] { changed.append("\(row),\(column)") }
        }
        let top = Layout(size: size, banner: false).listTop
        let counter = CellWidth.of(UIStrings(.english).products + " ")  // the "2" of "Products 2/12"
        #expect(changed == ["\(top - 1),\(counter)", "\(top + 2),0", "\(top + 4),0"])
        #expect(after[top + 4, 0].role == .selected)
    }

    @Test func filterNarrowsAsYouTypeAndEscClearsIt() {
        var state = F.state()
        F.keys(&state, .character("/"), .character("g"), .character("e"), .character("m"))
        #expect(state.list.filtering)
        #expect(state.list.visibleProducts.map(\.id).allSatisfy { $0.contains("gems") })
        #expect(state.list.visible.count == 3)
        F.keys(&state, .backspace, .backspace, .backspace)
        #expect(state.list.visible.count == state.list.products.count)
        F.keys(&state, .character("x"), .character("y"), .character("z"), .character("q"))
        #expect(state.list.visible.isEmpty && !state.quitting)  // q is text while filtering
        F.keys(&state, .escape)
        #expect(!state.list.filtering && state.list.query.isEmpty && state.list.visible.count == state.list.products.count)
    }

    @Test func filterMatchesChineseTitles() {
        var state = F.state(language: .simplifiedChinese)
        F.keys(&state, .character("/"), .character("宝"), .character("石"), .enter)
        #expect(state.list.visible.count == 3 && !state.list.filtering && state.list.query == "宝石")
    }

    @Test func buyingAsksForConfirmationWithQuantity() {
        var state = F.state()
        #expect(F.keys(&state, .enter).isEmpty)
        #expect(state.sheet == .confirmPurchase(ConfirmPurchase(productId: F.gems, quantity: 1, pendingIds: [])))
        F.keys(&state, .character("+"), .character("+"), .character("-"))
        #expect(state.sheet == .confirmPurchase(ConfirmPurchase(productId: F.gems, quantity: 2, pendingIds: [])))
        for _ in 0..<20 { F.keys(&state, .character("+")) }
        if case .confirmPurchase(let confirm)? = state.sheet { #expect(confirm.quantity == 10) }
        for _ in 0..<20 { F.keys(&state, .left) }
        if case .confirmPurchase(let confirm)? = state.sheet { #expect(confirm.quantity == 1) }
        #expect(F.keys(&state, .enter) == [.buy(productId: F.gems, quantity: 1, account: "alice")])
        #expect(state.sheet == nil)
    }

    @Test func escapeCancelsTheConfirmation() {
        var state = F.state()
        #expect(F.keys(&state, .enter, .escape).isEmpty)
        #expect(state.sheet == nil)
    }

    @Test func secondPurchaseWhilePendingAsksAgainAndNamesThePayment() {
        var state = F.state()
        let pending = F.pending([F.transaction("2000000000000007", F.gems, .deferred)])
        F.send(&state, .snapshot(StoreSnapshot(history: [], pending: pending, balances: [:], entitlements: [], controls: TestControls())))
        F.keys(&state, .enter)
        #expect(state.sheet == .confirmPurchase(ConfirmPurchase(productId: F.gems, quantity: 1, pendingIds: ["2000000000000007"])))
        #expect(F.keys(&state, .enter).isEmpty)  // first Enter only acknowledges the warning
        #expect(View.render(state).text.contains("Press Enter again to pay anyway"))
        #expect(F.keys(&state, .enter) == [.buy(productId: F.gems, quantity: 1, account: "alice")])
    }

    @Test func purchaseGoesThroughEveryStepToFinished() {
        var state = F.state()
        let purchasing = F.transaction("2000000000000001", F.gems, .purchasing)
        F.added(&state, purchasing)
        #expect(state.progress[purchasing.id] == .purchasing && state.inFlight == [purchasing.id])
        var purchased = purchasing
        purchased.state = .purchased
        let update = TransactionUpdate(transaction: purchased, receipt: "r")
        #expect(F.send(&state, .transactionUpdate(update)) == [.handle(update)])
        #expect(state.progress[purchased.id] == .verifying)
        F.send(&state, .appSteps([.delivered(transactionId: purchased.id, firstTime: true)]))
        #expect(state.progress[purchased.id] == .delivered)
        let effects = F.send(&state, .appSteps([.verified(transactionId: purchased.id), .finished(transactionId: purchased.id)]))
        #expect(effects == [.refresh(account: "alice")])
        #expect(state.progress[purchased.id] == .finished && state.inFlight.isEmpty)
        #expect(state.history.first?.finished == true)
        #expect(state.status?.text == "100 Gems: delivered, verified and finished.")
    }

    @Test func aFailureOfThisSessionsPaymentShowsTheSheet() {
        var state = F.state()
        F.keys(&state, .enter, .enter)  // confirmed: the buy effect is on its way
        let failed = F.transaction("2000000000000014", F.gems, .failed, error: .storeKit(.clientInvalid))
        F.send(&state, .paymentAdded(F.transaction("2000000000000014", F.gems, .purchasing)),
               .transactionUpdate(TransactionUpdate(transaction: failed, receipt: nil)))
        #expect(state.sheet == .error(ErrorSheet(kind: .store(.storeKit(.clientInvalid)), productId: F.gems)))
        F.send(&state, .appSteps([.finished(transactionId: failed.id)]))
        #expect(state.inFlight.isEmpty)
        #expect(state.history.first?.state == .failed)
    }

    @Test func failureInThisSessionShowsTheErrorSheet() {
        var state = F.state()
        let failed = F.transaction("2000000000000002", F.gems, .failed, error: .storeKit(.paymentNotAllowed))
        F.added(&state, F.transaction("2000000000000002", F.gems, .purchasing))
        let update = TransactionUpdate(transaction: failed, receipt: nil)
        #expect(F.send(&state, .transactionUpdate(update)) == [.handle(update)])
        #expect(state.sheet == .error(ErrorSheet(kind: .store(.storeKit(.paymentNotAllowed)), productId: F.gems)))
        F.keys(&state, .escape)
        #expect(state.sheet == nil)
    }

    @Test func cancellationIsOnlyAQuietStatusLine() {
        var state = F.state()
        F.added(&state, F.transaction("2000000000000003", F.gems, .purchasing))
        F.send(&state, .transactionUpdate(TransactionUpdate(transaction: F.transaction("2000000000000003", F.gems, .failed, error: .storeKit(.paymentCancelled)), receipt: nil)))
        #expect(state.sheet == nil)
        #expect(state.status?.level == .info && state.status?.text.contains("cancelled") == true)
    }

    @Test func deferredWaitsAndIsHandedToTheObserver() {
        var state = F.state()
        let update = TransactionUpdate(transaction: F.transaction("2000000000000004", F.removeAds, .deferred), receipt: nil)
        #expect(F.send(&state, .transactionUpdate(update)) == [.handle(update), .refresh(account: "alice")])
        #expect(state.progress["2000000000000004"] == .deferred && state.status?.level == .warning)
    }

    @Test func anotherAccountsUpdateIsLeftForThatAccount() {
        var state = F.state()
        let update = TransactionUpdate(transaction: F.transaction("2000000000000005", F.gems, .purchased, account: "kenji"), receipt: "r")
        #expect(F.send(&state, .transactionUpdate(update)).isEmpty)
        #expect(state.history.isEmpty)
    }

    @Test func unverifiedPurchaseStaysPendingWithAWarning() {
        var state = F.state()
        F.added(&state, F.transaction("2000000000000006", F.gems, .purchasing))
        F.send(&state, .appSteps([.verificationDeferred(transactionId: "2000000000000006", reason: "the verification server is unreachable", nextAttempt: nil)]))
        #expect(state.progress["2000000000000006"] == .unverified("the verification server is unreachable"))
        #expect(state.inFlight.isEmpty && state.status?.level == .warning)
    }

    @Test func snapshotWithAnUnhandledApprovalReplaysTheQueue() {
        var state = F.state()
        let approved = F.transaction("2000000000000008", F.removeAds, .purchased)
        let pending = F.pending([approved])
        let effects = F.send(&state, .snapshot(StoreSnapshot(history: [approved], pending: pending, balances: [:], entitlements: [], controls: TestControls())))
        #expect(effects == [.replayUnfinished(account: "alice")])
        state.progress[approved.id] = .verifying
        #expect(F.send(&state, .snapshot(StoreSnapshot(history: [approved], pending: pending, balances: [:], entitlements: [], controls: TestControls()))).isEmpty)
    }

    @Test func switchingStorefrontReformatsPricesAtOnce() {
        var state = F.state()
        #expect(state.displayPrice(try! #require(state.selectedProduct)) == "$0.99")
        F.keys(&state, .character("s"))
        #expect(state.sheet == .storefrontPicker(selection: 0))
        let effects = F.keys(&state, .down, .enter)
        #expect(state.storefront.id == "JPN" && state.sheet == nil)
        #expect(state.displayPrice(try! #require(state.selectedProduct)) == "¥160")
        var controls = TestControls()
        controls.storefront = "JPN"
        #expect(effects == [.setControls(controls), .loadProducts(storefront: "JPN"), .refresh(account: "alice")])
        F.keys(&state, .character("s"), .down, .enter)
        #expect(state.displayPrice(try! #require(state.selectedProduct)) == "1,19\u{A0}€")
    }

    /// The list's prices are formatted once per storefront, locale and language; every way of
    /// changing one reformats them, and a frame drawn from them is the frame drawn without them.
    @Test func listPricesFollowEverySwitch() {
        func fresh(_ state: AppState) -> AppState {
            var uncached = state
            uncached.list.pricing = nil  // the frame formats each row's price itself
            return uncached
        }
        var state = F.state(TerminalSize(columns: 120, rows: 40))
        #expect(state.list.pricing == state.pricing)
        let steps: [[Key]] = [[.character("s"), .down, .enter], [.character("l")], [.character("a"), .down, .enter],
                              [.character("l")], [.character("s"), .down, .down, .enter]]
        var firstRows: [String] = []
        for keys in steps {
            keys.forEach { F.keys(&state, $0) }
            #expect(state.list.pricing == state.pricing)
            let frame = View.render(state)
            #expect(frame == View.render(fresh(state)))
            firstRows.append(frame.rows[2])
        }
        #expect(firstRows[0].contains("100 Gems") && firstRows[0].contains("¥160"))
        #expect(firstRows[1].contains("100 颗宝石") && firstRows[1].contains("¥160"))
        #expect(firstRows[4].contains("100 Gems") && !firstRows[4].contains("¥160"))
        #expect(state.list.displayPrices.count == state.list.products.count)
    }

    @Test func switchingAccountReplaysThatAccountsQueue() {
        var state = F.state()
        F.send(&state, .snapshot(StoreSnapshot(history: [F.transaction("2000000000000009", F.gems, .purchased)], pending: [], balances: ["gems": 100], entitlements: [], controls: TestControls())))
        let effects = F.keys(&state, .character("a"), .down, .enter)
        #expect(state.account.name == "kenji" && state.storefront.id == "JPN")
        #expect(state.history.isEmpty && state.balances.isEmpty)
        #expect(effects.contains(.replayUnfinished(account: "kenji")) && effects.contains(.loadProducts(storefront: "JPN")))
    }

    @Test func languageSwitchRelabelsAndKeepsTheFilter() {
        var state = F.state()
        F.keys(&state, .character("l"))
        #expect(state.language == .simplifiedChinese)
        #expect(View.render(state).text.contains("商品"))
        F.keys(&state, .character("l"))
        #expect(state.language == .english)
    }

    @Test func testControlsChangeOneSettingAtATime() {
        var state = F.state()
        F.keys(&state, .character("t"))
        #expect(state.sheet == .testControls(selection: 0))
        var expected = TestControls()
        expected.nextOutcome = .cancel
        #expect(F.keys(&state, .right) == [.setControls(expected)])
        expected.nextOutcome = .success
        #expect(F.keys(&state, .left) == [.setControls(expected)])
        expected.askToBuy = true
        #expect(F.keys(&state, .down, .down, .enter) == [.setControls(expected)])
        #expect(F.keys(&state, .character("Z")).isEmpty)  // armed
        #expect(F.keys(&state, .character("Z")) == [.manage(.resetToDefaults), .refresh(account: "alice")])
        F.keys(&state, .escape)
        #expect(state.sheet == nil)
    }

    @Test func anUnreachableStoreIsALineNotASheetAndClearsWhenItAnswers() {
        var state = F.state()
        F.send(&state, .refreshFailed("store unreachable at http://127.0.0.1:9/"))
        #expect(state.sheet == nil && state.storeProblem != nil)
        #expect(View.render(state).text.contains("store unreachable (store unreachable at http://127.0.0.1:9/) — retrying"))
        F.send(&state, .snapshot(StoreSnapshot(history: [], pending: [], balances: [:], entitlements: [], controls: TestControls())))
        #expect(state.storeProblem == nil)
    }

    @Test func everyOutcomeAndVerificationFailureCanBeChosen() {
        #expect(ControlRow.allCases.count == 9)
        var controls = TestControls()
        var seen: Set<String> = []
        for _ in 0..<60 {
            var state = F.state()
            state.controls = controls
            state.sheet = .testControls(selection: 0)
            if case .setControls(let next)? = F.keys(&state, .right).first { controls = next }
            seen.insert(controls.nextOutcome.token)
        }
        for code in SKErrorCode.allCases where code != .paymentCancelled { #expect(seen.contains("fail:\(code.rawValue)")) }
        #expect(seen.isSuperset(of: ["success", "cancel", "deferred", "interrupted", "network:-1009"]))
    }

    @Test func transactionManagerActsOnTheSelectedTransaction() {
        var state = F.state()
        let deferred = F.transaction("2000000000000010", F.removeAds, .deferred)
        let bought = F.transaction("2000000000000011", F.gems, .purchased, finished: true)
        F.send(&state, .snapshot(StoreSnapshot(history: [deferred, bought], pending: [], balances: [:], entitlements: [], controls: TestControls())))
        F.keys(&state, .character("m"))
        #expect(F.keys(&state, .character("A")) == [.manage(.approveAskToBuy(deferred.id)), .refresh(account: "alice")])
        #expect(F.keys(&state, .down, .character("F")) == [.manage(.refund(bought.id)), .refresh(account: "alice")])
        for (key, action) in [("D", ManageAction.declineAskToBuy(bought.id)), ("I", .resolveIssue(bought.id)), ("E", .expireSubscription(bought.id)),
                              ("N", .forceRenewal(bought.id)), ("X", .delete(bought.id))] {
            #expect(F.keys(&state, .character(Character(key))).first == .manage(action))
        }
        #expect(F.keys(&state, .character("C")).isEmpty)
        #expect(F.keys(&state, .character("C")).first == .manage(.clearAll))
    }

    @Test func quitAsksWhileAPurchaseIsInFlight() {
        var state = F.state()
        #expect(F.keys(&state, .character("q")) == [.quit] && state.quitting)
        state = F.state()
        F.added(&state, F.transaction("2000000000000012", F.gems, .purchasing))
        #expect(F.keys(&state, .character("q")).isEmpty && state.sheet == .quitConfirm)
        F.keys(&state, .character("n"))
        #expect(state.sheet == nil && !state.quitting)
        #expect(F.keys(&state, .control("c"), .character("y")) == [.quit] && state.quitting)
    }

    @Test func belowTheMinimumOnlyQuitWorks() {
        var state = F.state(TerminalSize(columns: 20, rows: 5))
        #expect(F.keys(&state, .enter, .character("t"), .character("/")).isEmpty)
        #expect(state.sheet == nil && !state.list.filtering)
        #expect(F.keys(&state, .character("q")) == [.quit])
    }

    @Test func helpListsEveryBindingOfTheDispatchTable() {
        var state = F.state(TerminalSize(columns: 120, rows: 60))
        F.keys(&state, .character("?"))
        #expect(state.sheet == .help)
        let screen = View.render(state).text
        for binding in KeyBindings.table { #expect(screen.contains(binding.help.en), "help misses \(binding.help.en)") }
    }

    @Test func restoreReportsItsResult() {
        var state = F.state()
        #expect(F.keys(&state, .character("r")) == [.restore(account: "alice")])
        F.send(&state, .restoreFinished(.nothing))
        #expect(state.sheet == .restoreResult(.nothing))
        #expect(View.render(state).text.contains("Nothing to restore"))
    }

    @Test func statusClearsAfterAFewSecondsAndTheStoreIsReread() {
        var state = F.state()
        F.keys(&state, .character("r"))
        #expect(state.status != nil)
        let effects = F.send(&state, .tick(F.now.addingTimeInterval(5)))
        #expect(state.status == nil)
        #expect(effects.contains(.refresh(account: "alice")))
    }

    @Test func dueVerificationRetryIsAskedForOnce() {
        var state = F.state()
        let entry = [PendingPayment(transactionId: "2000000000000013", productId: F.gems, quantity: 1, state: .purchased, since: F.now,
                                    reason: .awaitingVerification(attempts: 1, lastError: "down", nextAttempt: F.now.addingTimeInterval(0.15)))]
        state.pending = entry
        #expect(!F.send(&state, .tick(F.now.addingTimeInterval(0.1))).contains(.retryVerification(account: "alice")))
        #expect(F.send(&state, .tick(F.now.addingTimeInterval(0.2))).contains(.retryVerification(account: "alice")))
        #expect(!F.send(&state, .tick(F.now.addingTimeInterval(0.3))).contains(.retryVerification(account: "alice")))
    }
}
