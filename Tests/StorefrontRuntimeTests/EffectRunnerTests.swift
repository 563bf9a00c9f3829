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

/// The runner against a scripted store and a real app ledger in a scratch directory. Nothing
/// sleeps: a test awaits the runner's reports (`reported()`) and the store's calls, and what must
/// not happen is ruled out by the order of events or by the worker having ended. Waits have no
/// deadline of their own: under a loaded suite the runner's tasks may wait minutes for a thread
/// of the concurrency pool. The time limit is for a runner that never reports.
@Suite(.timeLimit(.minutes(10))) struct EffectRunnerTests {
    let store: ScriptedStore
    let runner: EffectRunner
    let worker: Task<Void, Never>
    /// Every report of `runner`, subscribed before anything is submitted.
    let reported: AsyncStream<Action>
    /// What the turns reduce into; most tests only take the actions and leave it alone.
    let state: AppState

    init() throws {
        let catalog = try StoreFixture.catalog()
        state = Self.state(catalog)
        store = ScriptedStore(catalog: catalog)
        let ledger = try AppLedger(state: StateDirectory(url: scratchDirectory("runner")))
        runner = EffectRunner(
            store: store, observer: PurchaseObserver(store: store, ledger: ledger, catalog: catalog),
            clock: ManualClock())
        reported = runner.reported()
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

    /// Takes what `runner` reported, a turn at a time, until `done` holds for everything taken so
    /// far; between turns it waits for the next report. `reported` must be `runner`'s stream.
    static func reports(
        from runner: EffectRunner, _ reported: AsyncStream<Action>, state: AppState, until done: ([Action]) -> Bool
    ) async -> [Action] {
        var taken: [Action] = []
        var state = state
        var arrivals = reported.makeAsyncIterator()
        while true {
            _ = runner.turn([], state: &state) { _, action in
                taken.append(action)
                return []
            }
            if done(taken) { return taken }
            // A report made since the turn is waiting in the stream; one the turn already took
            // only costs an empty turn.
            guard await arrivals.next() != nil else { return taken }
        }
    }

    func reports(until done: ([Action]) -> Bool) async -> [Action] {
        await Self.reports(from: runner, reported, state: state, until: done)
    }

    @Test func effectsRunOneAtATimeInTheOrderAsked() async throws {
        await store.hold("perform")
        runner.submit([
            .manage(.clearAll), .setControls(TestControls()), .replayUnfinished(account: "alice"),
            .restore(account: "alice"),
        ])
        // Nothing else is queued: once the worker ends, every call the runner makes has been made.
        runner.finish()
        await store.held("perform")
        await store.release("perform")
        await worker.value
        // The first effect was held until the release: every later call comes after it, however
        // long the hold lasted. Replaying the queue also acts on refunds no update brought (it reads
        // the transactions).
        #expect(
            await store.events == [
                "perform", "release perform", "setControls", "unfinished", "transactions", "restore",
            ])
    }

    @Test func aPaymentIsReportedAddedBeforeAnyUpdateOfItsTransaction() async throws {
        await store.set { $0.publishedDuringAdd = [.purchased] }
        runner.submit([.refresh(account: "alice")])  // the update stream is subscribed before the first effect
        _ = await reports { $0.contains { if case .snapshot = $0 { true } else { false } } }
        runner.submit([.buy(productId: StoreFixture.gems, quantity: 1, account: "alice")])
        let actions = await reports { $0.count >= 3 }
        guard case .paymentAdded(let added) = actions.first else {
            Issue.record("the first report was not the payment added: \(actions)")
            return
        }
        #expect(actions.dropFirst().map(\.updateState) == [.purchasing, .purchased])
        #expect(actions.dropFirst().allSatisfy { $0.transactionId == added.id })
    }

    @Test func theBillingPlanChosenTravelsInThePayment() async throws {
        runner.submit([.buy(productId: StoreFixture.yearly, quantity: 1, account: "lena", plan: .monthly)])
        let actions = await reports { $0.contains { if case .paymentAdded = $0 { true } else { false } } }
        let added = actions.compactMap { if case .paymentAdded(let transaction) = $0 { transaction } else { nil } }
        #expect(added.map(\.payment.billingPlan) == [.monthly])
    }

    @Test func aFailedEffectBecomesAnAction() async throws {
        await store.set {
            $0.failures = ["perform": StoreFailure("disk full"), "products": StoreFailure("store unreachable")]
        }
        runner.submit([.manage(.clearAll), .loadProducts(storefront: "USA")])
        let actions = await reports { $0.count >= 2 }
        #expect(actions == [.effectFailed("disk full"), .productsFailed("store unreachable")])
    }

    @Test func aFailedRestoreIsItsResultNotAFailure() async throws {
        await store.set { $0.failures = ["restore": StoreError.storeKit(.cloudServiceNetworkConnectionFailed)] }
        runner.submit([.restore(account: "alice")])
        #expect(
            await reports { !$0.isEmpty } == [
                .restoreFinished(.failed(.storeKit(.cloudServiceNetworkConnectionFailed)))
            ])
    }

    @Test func aFailedBuyStillReleasesTheUpdatesItHeld() async throws {
        await store.set { $0.failures = ["add": StoreFailure("store unreachable")] }
        runner.submit([.refresh(account: "alice")])
        _ = await reports { !$0.isEmpty }
        runner.submit([.buy(productId: StoreFixture.gems, quantity: 1, account: "alice")])
        #expect(await reports { !$0.isEmpty } == [.effectFailed("store unreachable")])
        let elsewhere = Transaction(
            id: "2000000000000099", originalId: "2000000000000099",
            payment: Payment(productId: StoreFixture.gems, account: "alice"),
            state: .deferred, error: nil, purchaseDate: Date(timeIntervalSince1970: 0), finished: false)
        await store.publish(TransactionUpdate(transaction: elsewhere, receipt: nil))
        #expect(
            await reports { !$0.isEmpty } == [
                .transactionUpdate(TransactionUpdate(transaction: elsewhere, receipt: nil))
            ])
    }

    @Test func aSnapshotReadBeforeNewControlsAreWrittenCarriesThem() async throws {
        var changed = TestControls()
        changed.latencyMilliseconds = 5000
        await store.hold("controls")
        runner.submit([.refresh(account: "alice")])
        await store.held("controls")
        // The refresh has read everything but the controls; the user changes them now.
        var state = state
        _ = runner.turn([.tick(Date())], state: &state) { _, _ in [.setControls(changed)] }
        runner.finish()
        await store.release("controls")
        let actions = await reports { !$0.isEmpty }
        guard case .snapshot(let snapshot) = actions.first else {
            Issue.record("expected a snapshot, got \(actions)")
            return
        }
        #expect(snapshot.controls == changed)
        await worker.value
        // The write waited for the refresh that read the old controls.
        #expect(
            await store.events == [
                "transactions", "unfinished", "entitlements", "controls", "release controls", "takeMessages",
                "takePurchaseIntents", "setControls",
            ])
        #expect(await store.storedControls == changed)
    }

    @Test func aTurnReducesReportsBeforeTheLoopsOwnActions() async throws {
        var arrivals = reported.makeAsyncIterator()
        runner.submit([.restore(account: "alice")])
        #expect(await arrivals.next() == .restoreFinished(.nothing))
        // The report came while the loop held its own action: the report is reduced first.
        let tick = Action.tick(Date(timeIntervalSince1970: 1))
        var turn: [Action] = []
        var state = state
        _ = runner.turn([tick], state: &state) { _, action in
            turn.append(action)
            return []
        }
        #expect(turn == [.restoreFinished(.nothing), tick])
    }

    @Test func cancellingTheWorkerRunsNothingMore() async throws {
        await store.hold("perform")
        runner.submit([.manage(.clearAll), .restore(account: "alice")])
        await store.held("perform")
        worker.cancel()
        await store.release("perform")
        await worker.value
        #expect(await store.calls == ["perform"])
    }

    @Test func finishingRunsWhatIsQueuedAndDropsTheRest() async throws {
        await store.hold("perform")
        runner.submit([.manage(.clearAll), .restore(account: "alice")])
        await store.held("perform")
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
        let actions = await reports { !$0.isEmpty }
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
            store: store, observer: runner.observer, screens: ScreenFiles(directory: directory, title: "Storefront"),
            clock: ManualClock())
        let savedReports = saving.reported()
        let worker = saving.start(first: {})
        defer { worker.cancel() }
        var state = state
        var shown = state
        for key in [Key.character("?"), .control("s")] { _ = Reducer.reduce(&shown, .key(key)) }
        _ = saving.turn([.key(.character("?")), .key(.control("s")), .key(.escape)], state: &state) {
            Reducer.reduce(&$0, $1)
        }
        #expect(state.sheet == nil)
        let actions = await Self.reports(from: saving, savedReports, state: self.state) { !$0.isEmpty }
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
        #expect(await reports { !$0.isEmpty } == [.screenNotSaved("no screen was drawn to save")])
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

/// `--slow-motion`: each purchase step reaches the UI a hold after the one before, in order, on a
/// clock the test moves.
@Suite(.timeLimit(.minutes(10))) struct SlowMotionTests {
    /// How many purchase steps a report brings: a purchasing update is none (the payment added
    /// already showed it), and a batch of app steps is one step each.
    static func steps(in action: Action) -> Int {
        switch action {
        case .paymentAdded: 1
        case .transactionUpdate(let update): update.transaction.state == .purchasing ? 0 : 1
        case .appSteps(let steps): steps.count
        default: 0
        }
    }

    static func name(_ action: Action) -> String? {
        switch action {
        case .paymentAdded: "added"
        case .transactionUpdate(let update): "\(update.transaction.state.name)"
        case .appSteps(let steps): steps.count == 1 ? "\(steps[0])".components(separatedBy: "(")[0] : "batch"
        default: nil
        }
    }

    @Test func purchaseStepsArriveOneHoldApartInTheirOrder() async throws {
        let catalog = try StoreFixture.catalog()
        let store = ScriptedStore(catalog: catalog)
        await store.set { $0.publishedDuringAdd = [.purchased] }
        let ledger = try AppLedger(state: StateDirectory(url: scratchDirectory("slow-motion")))
        let clock = ManualClock()
        // A quarter of a second and a 1/1024 s tick: exact in binary, so the clock lands on the
        // step's moment to the bit.
        let hold = Duration.milliseconds(250)
        let tick = 1.0 / 1024
        let runner = EffectRunner(
            store: store, observer: PurchaseObserver(store: store, ledger: ledger, catalog: catalog), slowMotion: hold,
            clock: clock)
        var arrivals = runner.reported().makeAsyncIterator()
        let worker = runner.start(first: {})
        defer { worker.cancel() }
        runner.submit([.refresh(account: "alice"), .buy(productId: StoreFixture.gems, quantity: 1, account: "alice")])
        var state = EffectRunnerTests.state(catalog)
        var names: [String] = []
        var handled = false
        /// One turn: the names of the purchase steps it let through (a purchasing update is none).
        func turn() -> [String] {
            var seen: [String] = []
            _ = runner.turn([], state: &state) { _, action in
                if let name = Self.name(action) { seen.append(name) }
                // The purchased update goes to the app, as the reducer would ask.
                if case .transactionUpdate(let update) = action, update.transaction.state == .purchased, !handled {
                    handled = true
                    return [.handle(update)]
                }
                return []
            }
            names += seen
            return seen.filter { $0 != "purchasing" }
        }
        var made = 0
        var shown = 0
        // Added, purchased, delivered, verified, finished: five steps, the last one the finish.
        while names.last != "finished" {
            // Wait until the runner has made the next step, so each turn below has one to hold back.
            while made == shown, let report = await arrivals.next() { made += Self.steps(in: report) }
            if shown > 0 {
                // The step is ready, and its hold has not passed until the last tick of it.
                let early = turn()
                #expect(early.isEmpty, "a step before its hold: \(names)")
                clock.advance(by: 0.25 - tick)
                let almost = turn()
                #expect(almost.isEmpty, "a step before its hold: \(names)")
                clock.advance(by: tick)
            }
            let due = turn()
            #expect(due.count == 1, "one step a turn once its hold has passed: \(names)")
            if due.isEmpty { break }
            shown += 1
        }
        #expect(names == ["added", "purchasing", "purchased", "delivered", "verified", "finished"])
    }
}
