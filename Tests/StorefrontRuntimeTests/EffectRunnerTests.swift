import AppSide
import CellGrid
import Foundation
import LocalState
import StoreCore
import StoreKitModel
import StorefrontRuntime
import StorefrontUI
import TestSupport
import Testing

/// The runner against a scripted store and a real app ledger in a scratch directory. Waits have no
/// deadline of their own: under a loaded suite the runner's tasks may wait minutes for a thread of
/// the concurrency pool. The time limit is for a runner that never reports.
@Suite(.timeLimit(.minutes(10))) struct EffectRunnerTests {
    let store: ScriptedStore
    let runner: EffectRunner
    let worker: Task<Void, Never>
    /// What the turns reduce into; most tests only take the actions and leave it alone.
    let state: AppState

    init() throws {
        let catalog = try StoreFixture.catalog()
        state = Self.state(catalog)
        store = ScriptedStore(catalog: catalog)
        let ledger = try AppLedger(state: StateDirectory(url: scratchDirectory("runner")))
        runner = EffectRunner(store: store, observer: PurchaseObserver(store: store, ledger: ledger, catalog: catalog))
        worker = runner.start(first: {})
    }

    /// The UI's state at launch, 80×24, on `catalog`.
    static func state(_ catalog: Catalog) -> AppState {
        let account = catalog.defaultAccount
        return AppState(
            catalog: catalog, storeLabel: "simulated store", language: .english, account: account,
            storefront: catalog.storefront(id: account.storefront) ?? catalog.storefronts[0], localeOverride: nil,
            asciiOnly: false, size: TerminalSize(columns: 80, rows: 24), now: Date(timeIntervalSince1970: 1_800_000_000)
        )
    }

    /// Takes what the runner reported until `done` holds for everything taken so far.
    func reports(from runner: EffectRunner? = nil, until done: ([Action]) -> Bool) async throws -> [Action] {
        var taken: [Action] = []
        var state = state
        while !done(taken) {
            _ = (runner ?? self.runner).turn([], state: &state) { _, action in
                taken.append(action)
                return []
            }
            try await Task.sleep(for: .milliseconds(2))
        }
        return taken
    }

    func calls(until count: Int) async throws -> [String] {
        while await store.calls.count < count { try await Task.sleep(for: .milliseconds(2)) }
        return await store.calls
    }

    @Test func effectsRunOneAtATimeInTheOrderAsked() async throws {
        await store.hold("perform")
        runner.submit([
            .manage(.clearAll), .setControls(TestControls()), .replayUnfinished(account: "alice"),
            .restore(account: "alice"),
        ])
        // The first effect is held: nothing after it starts.
        #expect(try await calls(until: 1) == ["perform"])
        try await Task.sleep(for: .milliseconds(50))
        #expect(await store.calls == ["perform"])
        await store.release("perform")
        // Replaying the queue also acts on refunds no update brought (it reads the transactions).
        #expect(try await calls(until: 5) == ["perform", "setControls", "unfinished", "transactions", "restore"])
    }

    @Test func aPaymentIsReportedAddedBeforeAnyUpdateOfItsTransaction() async throws {
        await store.set { $0.publishedDuringAdd = [.purchased] }
        runner.submit([.refresh(account: "alice")])  // the update stream is subscribed before the first effect
        _ = try await reports { $0.contains { if case .snapshot = $0 { true } else { false } } }
        runner.submit([.buy(productId: StoreFixture.gems, quantity: 1, account: "alice")])
        let actions = try await reports { $0.count >= 3 }
        guard case .paymentAdded(let added) = actions.first else {
            Issue.record("the first report was not the payment added: \(actions)")
            return
        }
        #expect(actions.dropFirst().map(\.updateState) == [.purchasing, .purchased])
        #expect(actions.dropFirst().allSatisfy { $0.transactionId == added.id })
    }

    @Test func theBillingPlanChosenTravelsInThePayment() async throws {
        runner.submit([.buy(productId: StoreFixture.yearly, quantity: 1, account: "lena", plan: .monthly)])
        let actions = try await reports { $0.contains { if case .paymentAdded = $0 { true } else { false } } }
        let added = actions.compactMap { if case .paymentAdded(let transaction) = $0 { transaction } else { nil } }
        #expect(added.map(\.payment.billingPlan) == [.monthly])
    }

    @Test func aFailedEffectBecomesAnAction() async throws {
        await store.set {
            $0.failures = ["perform": StoreFailure("disk full"), "products": StoreFailure("store unreachable")]
        }
        runner.submit([.manage(.clearAll), .loadProducts(storefront: "USA")])
        let actions = try await reports { $0.count >= 2 }
        #expect(actions == [.effectFailed("disk full"), .productsFailed("store unreachable")])
    }

    @Test func aFailedRestoreIsItsResultNotAFailure() async throws {
        await store.set { $0.failures = ["restore": StoreError.storeKit(.cloudServiceNetworkConnectionFailed)] }
        runner.submit([.restore(account: "alice")])
        #expect(
            try await reports { !$0.isEmpty } == [
                .restoreFinished(.failed(.storeKit(.cloudServiceNetworkConnectionFailed)))
            ])
    }

    @Test func aFailedBuyStillReleasesTheUpdatesItHeld() async throws {
        await store.set { $0.failures = ["add": StoreFailure("store unreachable")] }
        runner.submit([.refresh(account: "alice")])
        _ = try await reports { !$0.isEmpty }
        runner.submit([.buy(productId: StoreFixture.gems, quantity: 1, account: "alice")])
        #expect(try await reports { !$0.isEmpty } == [.effectFailed("store unreachable")])
        let elsewhere = Transaction(
            id: "2000000000000099", originalId: "2000000000000099",
            payment: Payment(productId: StoreFixture.gems, account: "alice"),
            state: .deferred, error: nil, purchaseDate: Date(timeIntervalSince1970: 0), finished: false)
        await store.publish(TransactionUpdate(transaction: elsewhere, receipt: nil))
        #expect(
            try await reports { !$0.isEmpty } == [
                .transactionUpdate(TransactionUpdate(transaction: elsewhere, receipt: nil))
            ])
    }

    @Test func aSnapshotReadBeforeNewControlsAreWrittenCarriesThem() async throws {
        var changed = TestControls()
        changed.latencyMilliseconds = 5000
        await store.hold("controls")
        runner.submit([.refresh(account: "alice")])
        while await store.waitingCount("controls") == 0 { try await Task.sleep(for: .milliseconds(2)) }
        // The refresh has read everything but the controls; the user changes them now.
        var state = state
        _ = runner.turn([.tick(Date())], state: &state) { _, _ in [.setControls(changed)] }
        await store.release("controls")
        let actions = try await reports { !$0.isEmpty }
        guard case .snapshot(let snapshot) = actions.first else {
            Issue.record("expected a snapshot, got \(actions)")
            return
        }
        #expect(snapshot.controls == changed)
        #expect(try await calls(until: 5) == ["transactions", "unfinished", "entitlements", "controls", "setControls"])
        #expect(await store.storedControls == changed)
    }

    @Test func aTurnReducesReportsBeforeTheLoopsOwnActions() async throws {
        runner.submit([.restore(account: "alice")])
        let tick = Action.tick(Date(timeIntervalSince1970: 1))
        var turn: [Action] = []
        var state = state
        while !turn.contains(.restoreFinished(.nothing)) {
            turn = []
            _ = runner.turn([tick], state: &state) { _, action in
                turn.append(action)
                return []
            }
            try await Task.sleep(for: .milliseconds(2))
        }
        // The report came while the loop held its own action: the report is reduced first.
        #expect(turn == [.restoreFinished(.nothing), tick])
    }

    @Test func cancellingTheWorkerRunsNothingMore() async throws {
        await store.hold("perform")
        runner.submit([.manage(.clearAll), .restore(account: "alice")])
        _ = try await calls(until: 1)
        worker.cancel()
        await store.release("perform")
        await worker.value
        #expect(await store.calls == ["perform"])
    }

    @Test func finishingRunsWhatIsQueuedAndDropsTheRest() async throws {
        await store.hold("perform")
        runner.submit([.manage(.clearAll), .restore(account: "alice")])
        _ = try await calls(until: 1)
        runner.finish()
        runner.submit([.replayUnfinished(account: "alice")])
        await store.release("perform")
        await worker.value
        #expect(await store.calls == ["perform", "restore"])
    }
}

extension Action {
    var updateState: TransactionState? {
        if case .transactionUpdate(let update) = self { update.transaction.state } else { nil }
    }

    var transactionId: String? {
        if case .transactionUpdate(let update) = self { update.transaction.id } else { nil }
    }
}

extension EffectRunnerTests {
    @Test func aBuyTheStoreNeverAnsweredIsReportedUnconfirmedWithItsOrder() async throws {
        await store.set {
            $0.failures = ["add": StoreFailure("store unreachable at http://127.0.0.1:9", kind: .unavailable)]
        }
        runner.submit([.buy(productId: StoreFixture.gems, quantity: 2, account: "alice")])
        let actions = try await reports { !$0.isEmpty }
        guard case .paymentUnconfirmed(let product, let quantity, let orderId, let reason)? = actions.first else {
            Issue.record("expected an unconfirmed payment, got \(actions)")
            return
        }
        #expect(product == StoreFixture.gems && quantity == 2 && reason == "store unreachable at http://127.0.0.1:9")
        #expect(UUID(uuidString: orderId) != nil)
    }

    /// Ctrl+S then Esc in one turn: the file holds the help as Ctrl+S found it, not the screen
    /// the turn ended on, and the runner drew it from the state, as the reducer only asked.
    @Test func aScreenshotIsOfTheStateTheActionThatAskedLeft() async throws {
        let directory = scratchDirectory("runner-screens")
        let saving = EffectRunner(
            store: store, observer: runner.observer, screens: ScreenFiles(directory: directory, title: "Storefront"))
        let worker = saving.start(first: {})
        defer { worker.cancel() }
        var state = state
        var shown = state
        for key in [Key.character("?"), .control("s")] { _ = Reducer.reduce(&shown, .key(key)) }
        _ = saving.turn([.key(.character("?")), .key(.control("s")), .key(.escape)], state: &state) {
            Reducer.reduce(&$0, $1)
        }
        #expect(state.sheet == nil)
        let actions = try await reports(from: saving) { !$0.isEmpty }
        guard case .screenSaved(let path)? = actions.first else {
            Issue.record("expected the screen saved, got \(actions)")
            return
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(
            files.count == 3 && files.allSatisfy { path.hasSuffix(($0 as NSString).deletingPathExtension) },
            "\(files) for \(path)")
        let text = try String(
            contentsOf: directory.appendingPathComponent(files.first { $0.hasSuffix(".txt") } ?? ""), encoding: .utf8)
        #expect(text == View.render(shown).text + "\n")
        #expect(text != View.render(state).text + "\n")
    }

    @Test func aScreenshotAskedForOutsideATurnIsNotSaved() async throws {
        runner.submit([.saveScreen])
        #expect(try await reports { !$0.isEmpty } == [.screenNotSaved("no screen was drawn to save")])
    }
}

@Suite struct ScreenFilesTests {
    static func grid() -> Grid {
        var grid = Grid(size: TerminalSize(columns: 12, rows: 2))
        grid.write("Storefront", row: 0, column: 0, role: .title)
        grid.write("$0.99", row: 1, column: 0, role: .price)
        return grid
    }

    @Test func savesTextANSIAndSVGAndNeverOverwrites() throws {
        let directory = scratchDirectory("screens").appendingPathComponent("nested")
        let files = ScreenFiles(directory: directory, title: "Storefront — test")
        let moment = Date(timeIntervalSince1970: 1_795_586_712)  // 2026-11-25 06:05:12 UTC
        let first = try files.save(Self.grid(), at: moment)
        let second = try files.save(Self.grid(), at: moment)
        #expect(first == directory.appendingPathComponent("screen-20261125-060512").path)
        #expect(second == first + "-2")
        #expect(try String(contentsOfFile: first + ".txt", encoding: .utf8) == "Storefront\n$0.99\n")
        #expect(try String(contentsOfFile: first + ".ansi", encoding: .utf8).contains("\u{1B}[0;32m$0.99"))
        let svg = try String(contentsOfFile: first + ".svg", encoding: .utf8)
        #expect(svg.contains("<title>Storefront — test (12×2)</title>") && svg.contains(#"data-columns="12""#))
    }

    @Test func aDirectoryThatCannotBeMadeIsAnErrorNotACrash() throws {
        let parent = scratchDirectory("screens-file")
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        let file = parent.appendingPathComponent("plain")
        try Data("x".utf8).write(to: file)
        #expect(throws: (any Error).self) { try ScreenFiles(directory: file, title: "").save(Self.grid(), at: Date()) }
    }
}

/// `--slow-motion`: each purchase step reaches the UI a hold after the one before, in order.
@Suite(.timeLimit(.minutes(10))) struct SlowMotionTests {
    @Test func purchaseStepsArriveOneHoldApartInTheirOrder() async throws {
        let catalog = try StoreFixture.catalog()
        let store = ScriptedStore(catalog: catalog)
        await store.set { $0.publishedDuringAdd = [.purchased] }
        let ledger = try AppLedger(state: StateDirectory(url: scratchDirectory("slow-motion")))
        let hold = Duration.milliseconds(300)
        let runner = EffectRunner(
            store: store, observer: PurchaseObserver(store: store, ledger: ledger, catalog: catalog), slowMotion: hold)
        let worker = runner.start(first: {})
        defer { worker.cancel() }
        runner.submit([.refresh(account: "alice"), .buy(productId: StoreFixture.gems, quantity: 1, account: "alice")])
        var steps: [(Action, ContinuousClock.Instant)] = []
        var handled = false
        var state = EffectRunnerTests.state(catalog)
        // Added, purchased, delivered, verified, finished: five steps (six with a purchasing
        // update), or the end of a minute, which a runner that never reports ends.
        // A turn after the deadline too: woken late by a starved thread pool, the test must not end
        // without reading what the runner reported meanwhile.
        let deadline = ContinuousClock.now + .seconds(60)
        let finished = { (steps: [(Action, ContinuousClock.Instant)]) in
            steps.contains(where: {
                if case .appSteps(let done) = $0.0 {
                    done.contains { if case .finished = $0 { true } else { false } }
                } else {
                    false
                }
            })
        }
        while true {
            _ = runner.turn([], state: &state) { _, action in
                switch action {
                case .paymentAdded, .transactionUpdate, .appSteps: steps.append((action, .now))
                default: break
                }
                // The purchased update goes to the app, as the reducer would ask.
                if case .transactionUpdate(let update) = action, update.transaction.state == .purchased, !handled {
                    handled = true
                    return [.handle(update)]
                }
                return []
            }
            if finished(steps) || ContinuousClock.now >= deadline { break }
            try await Task.sleep(for: .milliseconds(5))
        }
        let names = steps.map { action, _ -> String in
            switch action {
            case .paymentAdded: "added"
            case .transactionUpdate(let update): "\(update.transaction.state.name)"
            case .appSteps(let appSteps):
                appSteps.count == 1 ? "\(appSteps[0])".components(separatedBy: "(")[0] : "batch"
            default: "other"
            }
        }
        #expect(
            names.prefix(3) == ["added", "purchasing", "purchased"] || names.prefix(2) == ["added", "purchased"],
            "\(names)")
        #expect(!names.contains("batch"), "a batch of app steps arrives a step at a time: \(names)")
        // A purchasing update is not a step of its own: the payment added already showed it.
        let purchaseSteps = steps.filter { step in
            if case .transactionUpdate(let update) = step.0 { return update.transaction.state != .purchasing }
            return true
        }
        for (earlier, later) in zip(purchaseSteps, purchaseSteps.dropFirst()) {
            #expect(later.1 - earlier.1 >= hold, "\(names)")
        }
    }
}
