import Foundation
import StoreKitModel
import SyntheticData
import Testing

/// The crash test: `storefront buy` killed with SIGKILL at random points of many purchases,
/// then one more run; zero transactions lost and zero double deliveries.
@Suite struct CrashRecoveryTests {
    /// How one killed (or not) run was started and how far it got.
    struct Attempt {
        let index: Int
        let outcome: String
        let killed: Bool
        let status: Int32
        let lines: [[String: Any]]
        /// Where its own transaction stood in the files right after the run ended (see `Snapshot`).
        let stage: String
        let transactionIds: [String]

        /// The state the store must keep for this run's own transaction.
        var expectedState: String {
            switch outcome {
            case "success": "purchased"
            case "deferred": "deferred"
            default: "failed"
            }
        }
    }

    static let seed: UInt64 = 0x5EED_0003_C0DE_F00D
    static let iterations = 40
    static let outcomes = [
        "success", "success", "success", "success", "success", "deferred", "interrupted", "fail:0", "cancel", "network",
    ]

    @Test func sigkillAtRandomPointsLosesNothingAndDeliversEachPurchaseOnce() throws {
        let state = try StateDir()
        var random = SplitMix64(state: Self.seed)

        // How long an uninterrupted buy takes here, and when it starts printing (the purchase itself
        // is a short stretch at the end; before it the process is loading). Two runs: the first also
        // creates the files.
        var attempts: [Attempt] = []
        var seq = 0
        var typical: TimeInterval = 0
        var firstOutput: TimeInterval = 0
        for index in 0..<2 {
            let started = Date()
            let child = try state.start(["buy", ProductID.gems, "--json"])
            _ = child.waitForOutput(timeout: 30)
            firstOutput = Date().timeIntervalSince(started)
            #expect(child.wait(timeout: 30))
            typical = Date().timeIntervalSince(started)
            #expect(child.status == 0)
            let snapshot = try Snapshot(state, after: seq)
            seq = snapshot.maxSeq
            attempts.append(
                Attempt(
                    index: index - 2, outcome: "success", killed: false, status: child.status,
                    lines: try Self.lines(child), stage: snapshot.stage, transactionIds: snapshot.ids))
        }

        // Where kills land: about a third at a random time from the start (0 to a quarter beyond a
        // typical run: while loading, during the purchase, or not at all); the rest at a random time
        // after the run's first line, inside the short stretch where the purchase happens. Anchoring
        // on the first line keeps kills spread over the purchase even when parallel tests slow runs down.
        let activeSpan = max(0.005, typical - firstOutput)
        for index in 0..<Self.iterations {
            let quantity = Int.random(in: 1...3, using: &random)
            let outcome = Self.outcomes.randomElement(using: &random) ?? "success"
            let noFinish = outcome == "success" && Int.random(in: 0..<5, using: &random) == 0
            let fromStart = Int.random(in: 0..<3, using: &random) == 0
            let delay =
                fromStart
                ? Double.random(in: 0...(typical * 1.25), using: &random)
                : Double.random(in: 0...(activeSpan * 2 + 0.005), using: &random)
            var arguments = ["buy", ProductID.gems, "--json", "--quantity", String(quantity), "--outcome", outcome]
            if noFinish { arguments.append("--no-finish") }

            let child = try state.start(arguments)
            if !fromStart { #expect(child.waitForOutput(timeout: 30), "run \(index) printed nothing in 30 s") }
            let exited = child.wait(timeout: delay)  // polls; returns early when the run ends by itself
            if !exited { child.kill() }
            let snapshot = try Snapshot(state, after: seq)
            seq = snapshot.maxSeq
            let attempt = Attempt(
                index: index, outcome: outcome, killed: child.wasKilled, status: child.status,
                lines: try Self.lines(child), stage: snapshot.stage, transactionIds: snapshot.ids)
            #expect(attempt.transactionIds.count <= 1, "run \(index) added \(attempt.transactionIds)")
            if !attempt.killed {
                let stderr = try child.stderr()
                #expect(
                    attempt.status == (outcome == "success" || outcome == "deferred" ? 0 : 3),
                    "run \(index) (\(outcome)) exited \(attempt.status): \(stderr)")
            }
            attempts.append(attempt)
        }

        // The recovery run: restore runs the observer over every unfinished transaction first.
        let recovery = try state.run(["restore", "--json"])
        // 3 only when a killed run left a forced outcome behind for restore to fail with (see below).
        #expect(recovery.status == 0 || recovery.status == 3, "\(recovery)")
        let redelivered = recovery.steps("delivered")

        // --- Reconcile the store, the app's ledger and the wallet.
        let rows = try state.query(
            state.storeDatabase, "SELECT id, state, quantity, finished, product_id FROM transactions ORDER BY seq")
        let stateNames = [0: "purchasing", 1: "purchased", 2: "failed", 3: "restored", 4: "deferred"]
        let store = rows.map { row in
            (
                id: row["id"] as? String ?? "", state: stateNames[row["state"] as? Int ?? -1] ?? "?",
                quantity: row["quantity"] as? Int ?? 0, finished: row["finished"] as? Int == 1,
                product: row["product_id"] as? String ?? ""
            )
        }
        #expect(store.allSatisfy { $0.product == ProductID.gems })
        #expect(Set(store.map(\.id)).count == store.count)
        #expect(store.filter { $0.state == "purchasing" }.isEmpty, "stuck in purchasing after recovery")

        // Every purchased transaction delivered exactly once, and nothing else delivered.
        let purchased = store.filter { $0.state == "purchased" }
        let deliveries = try state.deliveries()
        let deliveredIds = deliveries.map(\.transactionId)
        #expect(Set(deliveredIds).count == deliveredIds.count, "a transaction id delivered twice")
        #expect(Set(deliveredIds) == Set(purchased.map(\.id)), "delivered ≠ purchased")
        for delivery in deliveries {
            #expect(delivery.quantity == purchased.first { $0.id == delivery.transactionId }?.quantity)
        }
        // The balance is credited once per transaction (the deliveries key alone would not show a double credit).
        let expectedGems = 100 * purchased.map(\.quantity).reduce(0, +)
        let wallet = try state.wallet()
        #expect(wallet.balances == ["gems": expectedGems], "balance for \(purchased.count) purchases")

        // Nothing left half done: purchased and failed transactions are finished; only Ask to Buy waits.
        #expect(store.filter { !$0.finished }.allSatisfy { $0.state == "deferred" })
        #expect(wallet.pending.allSatisfy { $0.state == "deferred" })
        let listed = try state.transactions()
        #expect(listed.history.count == store.count)
        #expect(listed.unfinished.map(\.transactionId).sorted() == store.filter { !$0.finished }.map(\.id).sorted())

        // No purchase a run had started is missing; every run that printed its result reported what the store kept.
        let storeIds = Set(store.map(\.id))
        for attempt in attempts {
            for id in attempt.transactionIds { #expect(storeIds.contains(id), "run \(attempt.index)'s \(id) is gone") }
            if let printed = attempt.lines.first(where: { $0["state"] as? String == "purchasing" })?["transactionId"]
                as? String
            {
                // A second Ask to Buy request for a product already waiting is that request (the App
                // Store consolidates them): it adds no transaction of its own.
                let consolidated =
                    attempt.outcome == "deferred" && attempt.transactionIds.isEmpty && storeIds.contains(printed)
                #expect(attempt.transactionIds == [printed] || consolidated)
            }
            guard let last = attempt.lines.last, let result = last["result"] as? String else { continue }
            let kept = store.first { $0.id == last["transactionId"] as? String }?.state
            #expect(
                kept == (result == "cancelled" ? "failed" : result),
                "run \(attempt.index): result \(result) but the store has \(kept ?? "-")")
        }
        // The recovery run delivered only what had been left unverified or undelivered, each once.
        let redeliveredIds = redelivered.compactMap { $0["transactionId"] as? String }
        #expect(Set(redeliveredIds).count == redeliveredIds.count)

        // The ledger keeps every delivery. An entry can stay "verified" when a kill fell between the
        // store's finish and the ledger's own "finished" mark: harmless, the store no longer offers it.
        let ledger = try state.query(state.appDatabase, "SELECT transaction_id, status FROM ledger")
        #expect(Set(ledger.compactMap { $0["transaction_id"] as? String }) == Set(purchased.map(\.id)))
        let ledgerStatuses = Dictionary(grouping: ledger.compactMap { $0["status"] as? String }, by: { $0 }).mapValues(
            \.count)
        #expect(Set(ledgerStatuses.keys).isSubset(of: ["finished", "verified"]), "\(ledgerStatuses)")

        // `buy --outcome` is recorded with the payment in one commit: no kill can hand it to another payment.
        let handedOver = attempts.filter { attempt in
            guard let id = attempt.transactionIds.first, let kept = store.first(where: { $0.id == id })?.state else {
                return false
            }
            return kept != attempt.expectedState
        }
        #expect(handedOver.isEmpty, "\(handedOver.map { "run \($0.index) asked for \($0.outcome)" })")

        let killed = attempts.filter(\.killed)
        let stages = Dictionary(grouping: killed, by: \.stage).mapValues(\.count).sorted { $0.key < $1.key }
            .map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        print(
            """
            crash test (seed \(String(Self.seed, radix: 16)), \(Self.iterations) runs + 2 calibration runs, \
            typical run \(Int(typical * 1000)) ms, first output at \(Int(firstOutput * 1000)) ms: \
            \(killed.count) killed, \(attempts.count - killed.count) ran to the end. Killed with its transaction: \(stages). \
            Store: \(store.count) transactions (\(purchased.count) purchased, \(store.filter { $0.state == "failed" }.count) failed, \
            \(store.filter { $0.state == "deferred" }.count) deferred, 0 purchasing). Delivered: \(deliveries.count), each once; \
            \(redelivered.count) handled by the recovery run (\(redelivered.filter { $0["firstTime"] as? Bool == true }.count) first-time). \
            gems \(wallet.balances["gems"] ?? 0) = 100 × \(expectedGems / 100). Ledger: \(ledgerStatuses). \
            Outcome hand-overs: \(handedOver.count).
            """)
    }

    static func lines(_ child: Child) throws -> [[String: Any]] {
        try child.stdout().split(separator: "\n").map { line in
            // One write per line: a killed run never leaves half a line.
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object != nil, "a partial line: \(line)")
            return object ?? [:]
        }
    }
}

/// The files right after a run ended: the transactions it added, and how far the app got with them.
struct Snapshot {
    let maxSeq: Int
    let ids: [String]
    let stage: String

    init(_ state: StateDir, after seq: Int) throws {
        let script = """
            import json, sqlite3, sys
            store = sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True)
            app = sqlite3.connect("file:" + sys.argv[2] + "?mode=ro", uri=True)
            after = int(sys.argv[3])
            one = lambda db, sql, *args: db.execute(sql, args).fetchone()
            rows = []
            for seq, tid, state, finished in store.execute("SELECT seq, id, state, finished FROM transactions WHERE seq > ? ORDER BY seq", (after,)):
                ledger = one(app, "SELECT status FROM ledger WHERE transaction_id = ?", tid)
                rows.append({"id": tid, "state": state, "finished": finished,
                             "delivered": one(app, "SELECT COUNT(*) FROM deliveries WHERE transaction_id = ?", tid)[0],
                             "ledger": ledger[0] if ledger else None,
                             "consumed": one(store, "SELECT COUNT(*) FROM consumed WHERE transaction_id = ?", tid)[0]})
            print(json.dumps({"maxSeq": one(store, "SELECT COALESCE(MAX(seq), 0) FROM transactions")[0],
                              "openOrders": one(app, "SELECT COUNT(*) FROM orders WHERE transaction_id IS NULL")[0], "rows": rows}))
            """
        let output = try Python.run(script, arguments: [state.storeDatabase, state.appDatabase, String(seq)])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        maxSeq = object["maxSeq"] as? Int ?? seq
        let rows = object["rows"] as? [[String: Any]] ?? []
        ids = rows.compactMap { $0["id"] as? String }
        guard let row = rows.last else {
            stage = "not added yet"
            return
        }
        let finished = row["finished"] as? Int == 1
        let ledger = row["ledger"] as? String
        switch row["state"] as? Int {
        case 0: stage = "purchasing"
        case 2: stage = finished ? "failed, finished" : "failed, not finished"
        case 4: stage = "deferred"
        case 1:
            if row["delivered"] as? Int == 0 {
                stage = "purchased, not delivered"
            } else if ledger == "unverified" {
                stage =
                    row["consumed"] as? Int == 1 ? "verified by the server, not recorded" : "delivered, not verified"
            } else if !finished {
                stage = "verified, not finished"
            } else {
                stage = ledger == "finished" ? "finished" : "finished in the store, not in the ledger"
            }
        default: stage = "state \(row["state"] ?? "?")"
        }
    }
}
