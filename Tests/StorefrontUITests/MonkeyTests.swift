import CellGrid
import Foundation
import StoreCore
import StoreKitModel
import StorefrontUI
import SyntheticData
import Testing

/// Random keys, resizes and store events against the reducer and the view, with the invariants
/// checked after every step. `MONKEY_KEYS=100000 swift test --filter MonkeyTests` for the long run.
@Suite struct MonkeyTests {
    typealias F = UIFixture

    static let keys: [Key] =
        KeyBindings.table.flatMap(\.keys) + [
            .character("x"), .character("é"), .character("宝"), .character("1"), .character(" "), .backspace, .tab,
            .backTab,
            .delete, .function(5), .control("l"), .control("z"), .left, .right, .enter, .escape, .enter, .escape,
        ]

    static var steps: Int { ProcessInfo.processInfo.environment["MONKEY_KEYS"].flatMap(Int.init) ?? 1_500 }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func randomInputNeverBreaksAnInvariant(seed: UInt64) {
        var random = SplitMix64(state: seed)
        var state = F.state()
        let ids = (1...8).map { String(2_000_000_000_000_000 + $0) }
        let products = F.catalog.allProductIds
        for step in 0..<Self.steps {
            let action = Self.action(&random, ids: ids, products: products, step: step)
            _ = Reducer.reduce(&state, action)
            state.quitting = false  // keep going past quit: the runner would stop here
            Self.check(state, after: action, step: step, seed: seed)
        }
    }

    static func action(_ random: inout SplitMix64, ids: [String], products: [String], step: Int) -> Action {
        switch random.below(100) {
        case 0..<70:
            return .key(random.pick(keys))
        case 70..<76:
            return .resized(TerminalSize(columns: 1 + random.below(300), rows: 1 + random.below(100)))
        case 76..<80:
            return .tick(F.now.addingTimeInterval(Double(step) * 0.25))
        case 80..<88:
            let states: [TransactionState] = [.purchasing, .purchased, .failed, .deferred, .restored]
            let state = random.pick(states)
            let transaction = F.transaction(
                random.pick(ids), random.pick(products), state,
                error: state == .failed
                    ? random.pick([.storeKit(.paymentCancelled), .storeKit(.unknown), .network(.timedOut)]) : nil,
                account: random.below(10) == 0 ? "kenji" : "alice")
            return random.below(4) == 0
                ? .paymentAdded(transaction)
                : .transactionUpdate(TransactionUpdate(transaction: transaction, receipt: "r"))
        case 88..<93:
            let id = random.pick(ids)
            let steps: [AppStep] = [
                .delivered(transactionId: id, firstTime: true), .verified(transactionId: id),
                .finished(transactionId: id),
                .verificationDeferred(transactionId: id, reason: "down", nextAttempt: nil),
                .verificationRejected(transactionId: id, reason: "21003"), .waitingForApproval(transactionId: id),
                .orderMatched(transactionId: id, orderId: "o"),
            ]
            return .appSteps([random.pick(steps)])
        case 93..<97:
            let history = ids.prefix(random.below(ids.count + 1)).map {
                F.transaction($0, random.pick(products), random.pick([.purchased, .deferred, .failed]))
            }
            return .snapshot(
                StoreSnapshot(
                    history: history, pending: F.pending(history),
                    balances: ["gems": random.below(1000)], entitlements: [], controls: TestControls()))
        case 97:
            return .productsFailed("HTTP 503")
        case 98:
            return .restoreFinished(
                random.pick([.nothing, .restored(products), .failed(.network(.notConnectedToInternet))]))
        default:
            let storefront = random.pick(F.catalog.storefronts)
            return .productsLoaded(F.catalog.request(ids: products, storefront: storefront))
        }
    }

    static func check(_ state: AppState, after action: Action, step: Int, seed: UInt64) {
        let context = "seed \(seed) step \(step) after \(action)"
        let list = state.list
        #expect(
            list.visible.isEmpty ? list.selection == 0 : list.visible.indices.contains(list.selection), "\(context)")
        #expect(list.scroll >= 0 && list.scroll <= max(0, list.visible.count - 1), "\(context)")
        if state.layout.fits && !list.visible.isEmpty {
            #expect(
                list.selection >= list.scroll && list.selection < list.scroll + state.layout.listRows,
                "selection off screen: \(context)")
        }
        switch state.sheet {
        case .storefrontPicker(let selection)?: #expect(F.catalog.storefronts.indices.contains(selection), "\(context)")
        case .accountPicker(let selection)?: #expect(F.catalog.accounts.indices.contains(selection), "\(context)")
        case .testControls(let selection)?: #expect(ControlRow.allCases.indices.contains(selection), "\(context)")
        case .transactionManager(let selection)?:
            // The all-accounts view adds the other accounts' transactions to the signed-in one's.
            let others = state.managerView.everyAccount.filter { $0.payment.account != state.account.name }
            let rows = state.history.count + (state.managerView.allAccounts ? others.count : 0)
            #expect(selection >= 0 && selection < max(1, rows), "\(context)")
        default: break
        }
        let grid = View.render(state)
        #expect(grid.size == state.size, "\(context)")
        for row in grid.rows {
            #expect(CellWidth.of(row) == grid.size.columns, "row wider or narrower than the grid: \(context)")
        }
    }
}
