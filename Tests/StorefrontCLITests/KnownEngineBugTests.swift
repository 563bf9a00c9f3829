import Foundation
import Testing

/// Engine bugs these command tests found, each reproduced minimally and recorded as a known issue
/// (as the repository records source bugs): the expectations state the contract, so each test starts
/// failing ("known issue was not recorded") once its bug is fixed, and the block can then go.
@Suite struct KnownEngineBugTests {
    /// Issue 3: "buying an owned non-consumable again yields a transaction with no new charge".
    /// `complete` sets `stored.price = 0` (SimulatedStore+Payments.swift line 91), but
    /// `StoredTransaction.update` (StoreDatabase+Rows.swift lines 48–57) does not write `price`,
    /// so the row keeps the full price. Same for an approved Ask to Buy repurchase.
    @Test func repurchaseOfAnOwnedNonConsumableIsStoredWithItsFullPrice() throws {
        let state = try StateDir()
        _ = try state.buy(ProductID.removeAds)
        _ = try state.buy(ProductID.removeAds)
        let prices = try state.query(state.storeDatabase, "SELECT price FROM transactions ORDER BY seq").map { $0["price"] as? String }
        withKnownIssue("the second purchase's price 0 is never written (StoredTransaction.update omits price): both rows say 2.99") {
            #expect(prices == ["2.99", "0"])
        }
    }

    /// A forced restore failure is meant to be one-shot (`nextOutcome` reset to success), but
    /// `restore` saves the reset and then throws inside the same `guardedWrite`
    /// (SimulatedStore+Manage.swift lines 58–75), so the write rolls back: every later restore fails
    /// the same way, until a purchase consumes the outcome (and fails with it).
    @Test func aFailedRestoreDoesNotConsumeTheForcedOutcome() throws {
        let state = try StateDir()
        try state.manage("set", "next-outcome", "network")
        #expect(try state.run(["restore", "--json"]).status == 3)
        let second = try state.run(["restore", "--json"])
        let result = second.lines.last?["result"] as? String
        let stored = try state.query(state.storeDatabase, "SELECT value FROM settings WHERE key = 'controls.next'").first?["value"] as? String
        withKnownIssue("the reset of nextOutcome is rolled back with the thrown error: it stays network:-1009") {
            #expect(second.status == 0, "\(second)")
            #expect(result == "nothing")
            #expect(stored == "success")
        }
    }

    /// With `drop-order-id on` the app matches a transaction to "the oldest open order of the same
    /// account and product" (AppLedger+Delivery.swift lines 59–74). Orders are only closed by
    /// `recordAndDeliver`; a failed or cancelled payment never closes its order
    /// (PurchaseObserver.swift lines 49–53), so the next purchase is matched to the failed one's order.
    @Test func aFailedPaymentLeavesItsOrderOpenForTheNextPurchaseToMatch() throws {
        let state = try StateDir()
        try state.manage("set", "drop-order-id", "on")
        #expect(try state.buy(ProductID.gems, "--order", "order-cancelled", "--outcome", "cancel").status == 3)
        let buy = try state.buy(ProductID.gems, "--order", "order-paid")
        #expect(buy.status == 0, "\(buy)")
        let matched = buy.steps("orderMatched").first?["orderId"] as? String
        withKnownIssue("the cancelled payment's order is still open and the oldest: it matches order-cancelled") {
            #expect(matched == "order-paid")
        }
    }

    /// Every store command's `open()` runs `SimulatedStore.resume()` (StoreOptions.swift line 29,
    /// SimulatedStore.swift lines 30–36), which completes EVERY `purchasing` transaction — including
    /// one that another live process has just added and will process after its latency. That
    /// process's `process(id)` then finds the transaction no longer purchasing and publishes nothing
    /// (SimulatedStore+Payments.swift line 58), and `buy` waits forever in `for await update in updates`
    /// (BuyCommand.swift line 60). With latency 0 the window is a few milliseconds, and two parallel
    /// buy loops hit it now and then (StateLockTests); a latency makes it certain.
    @Test func aSecondProcessCompletingAnInFlightPurchaseLeavesTheBuyerWaitingForever() throws {
        let state = try StateDir()
        let latency = 6.0
        try state.manage("set", "latency", String(Int(latency * 1000)))
        let buyer = try state.start(["buy", ProductID.gems, "--json"])
        defer { buyer.kill() }

        // The buyer prints its "purchasing" line once the payment is added, then waits out the
        // latency. Another process starts meanwhile: any store command will do.
        try #require(buyer.waitForOutput(timeout: 30) && buyer.process.isRunning)
        let listed = try state.transactions()
        let id = try #require(listed.history.first?.transactionId)
        let exited = buyer.wait(timeout: latency + 6)
        withKnownIssue("the other process's resume() completes the live buyer's purchase; the buyer never gets its update and hangs") {
            #expect(listed.history.first?.state == "purchasing", "the second process must leave a live process's purchase alone")
            #expect(exited, "buy did not exit within \(Int(latency + 6)) s of adding its payment")
        }
        buyer.kill()
        if exited {
            #expect(StateLockTests.lastLine(try buyer.stdout())?["result"] as? String == "purchased")
        }

        // Either way nothing is lost or doubled: after one more run the purchase is delivered once.
        let restore = try state.run(["restore", "--json"])
        #expect(restore.status == 0, "\(restore)")
        #expect(try state.deliveries().map(\.transactionId) == [id])
        #expect(try state.wallet().balances == ["gems": 100])
        #expect(try state.transactions().unfinished.isEmpty)
    }

    /// Two first runs at once on a new state directory: GRDB's `DatabaseMigrator.migrate` reads which
    /// migrations are applied, then runs each one in its own transaction, so two processes can both
    /// decide to run "v1" (StoreDatabase.swift line 14, AppLedger.swift line 16). The loser exits 1
    /// with a raw SQLite error ("table ledger already exists", "duplicate column name:
    /// next_attempt_at", "table transactions already exists"), about one pair in seven here. The
    /// files stay sound and the next run works. Intermittent by nature.
    @Test func twoFirstRunsOnAFreshDirectoryRaceTheirMigrations() throws {
        var failures: [String] = []
        for _ in 0..<12 {
            let state = try StateDir()
            let pair = try (0..<2).map { _ in try state.start(["transactions", "--json"]) }
            for child in pair {
                #expect(child.wait(timeout: 30))
                if child.status != 0 { failures.append(try child.stderr()) }
            }
            // Whatever happened, the directory is usable afterwards.
            #expect(try state.transactions().history.isEmpty)
        }
        withKnownIssue("concurrent migrations of a new state directory", isIntermittent: true) {
            #expect(failures.isEmpty, "\(failures)")
        }
    }
}
