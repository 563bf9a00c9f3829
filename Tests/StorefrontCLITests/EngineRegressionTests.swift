import Foundation
import Testing

/// Engine bugs the command tests found, each reproduced minimally; all fixed, kept as regressions.
@Suite struct EngineRegressionTests {
    /// Buying an owned non-consumable again yields a transaction with no new charge (the price was once never
    /// written back).
    @Test func repurchaseOfAnOwnedNonConsumableChargesNothing() throws {
        let state = try StateDir()
        _ = try state.buy(ProductID.removeAds)
        _ = try state.buy(ProductID.removeAds)
        let prices = try state.query(state.storeDatabase, "SELECT price FROM transactions ORDER BY seq").map {
            $0["price"] as? String
        }
        #expect(prices == ["2.99", "0"])
    }

    /// A forced restore failure is one-shot (its reset was once rolled back with the thrown error).
    @Test func aFailedRestoreConsumesTheForcedOutcome() throws {
        let state = try StateDir()
        try state.manage("set", "next-outcome", "network")
        #expect(try state.run(["restore", "--json"]).status == 3)
        let second = try state.run(["restore", "--json"])
        let result = second.lines.last?["result"] as? String
        let stored =
            try state.query(state.storeDatabase, "SELECT value FROM settings WHERE key = 'controls.next'").first?[
                "value"] as? String
        #expect(second.status == 0, "\(second)")
        #expect(result == "nothing")
        #expect(stored == "success")
    }

    /// With applicationUsername dropped, a failed payment's order is settled, so the next purchase matches its own
    /// order.
    @Test func aFailedPaymentSettlesItsOrder() throws {
        let state = try StateDir()
        try state.manage("set", "drop-order-id", "on")
        #expect(try state.buy(ProductID.gems, "--order", "order-cancelled", "--outcome", "cancel").status == 3)
        let buy = try state.buy(ProductID.gems, "--order", "order-paid")
        #expect(buy.status == 0, "\(buy)")
        let matched = buy.steps("orderMatched").first?["orderId"] as? String
        #expect(matched == "order-paid")
    }

    /// Opening the store completes only purchases whose owner died; a live buyer in its latency wait keeps its
    /// purchase and gets its update.
    @Test func aSecondProcessLeavesALiveProcesssPurchaseAlone() throws {
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
        #expect(
            listed.history.first?.state == "purchasing", "the second process must leave a live process's purchase alone"
        )
        #expect(exited, "buy did not exit within \(Int(latency + 6)) s of adding its payment")
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

    /// Two first runs at once on a new state directory: opening and migrating each database is serialised by its
    /// lock file (they once raced GRDB's migrator).
    @Test func twoFirstRunsOnAFreshDirectoryDoNotRaceTheirMigrations() throws {
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
        #expect(failures.isEmpty, "\(failures)")
    }
}
