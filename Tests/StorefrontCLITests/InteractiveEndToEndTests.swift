import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The real binary in tmux, driven by keys alone, as a QA person would.
@Suite(.serialized) struct InteractiveEndToEndTests {
    /// A state directory of its own and the command that opens the storefront on it.
    struct App {
        let state = scratchDirectory("storefront-tui")

        func launch(columns: Int = 100, rows: Int = 30, environment: [String: String] = [:]) throws -> TmuxSession {
            let session = try TmuxSession.start(
                command: [Executable.url.path, "--state", state.path], columns: columns, rows: rows,
                environment: environment)
            try session.waitFor(text: "Products 1/12")
            return session
        }
    }

    @Test func buyAConsumableAndSeeTheBalanceChange() throws {
        let app = App()
        let session = try app.launch()
        defer { session.kill() }
        try session.waitFor(text: "Wallet: nothing yet")
        try session.sendKeys("Enter")
        try session.waitFor(text: "Confirm your in-app purchase")
        try session.sendKeys("+", "Enter")
        // Whole frames only: a capture can land while ncurses is still painting one.
        try session.waitUntil("200 gems, verified and finished") {
            $0.contains("Wallet: 200 gems") && $0.contains("verified ✓ finished")
        }
        try session.sendKeys("q")
        let exit = try session.waitForExit()
        #expect(exit.status == 0 && exit.terminalRestored)
    }

    @Test func failWithAChosenErrorCodeAndSeeItsMessage() throws {
        let session = try App().launch()
        defer { session.kill() }
        // Test controls: next purchase steps success → cancel → defer → interrupt → SKError 0, 1, 3, 4.
        try session.sendKeys("t")
        try session.waitFor(text: "Test controls")
        for _ in 0..<7 { try session.sendKeys("Right") }
        try session.waitFor(text: "SKError 4 paymentNotAllowed")
        try session.sendKeys("Escape", "Enter")
        try session.waitFor(text: "Confirm your in-app purchase")
        try session.sendKeys("Enter")
        try session.waitUntil("the error sheet for SKError 4") {
            $0.contains("Purchase failed") && $0.contains("SKError 4 · paymentNotAllowed")
                && $0.contains("Purchases aren't allowed on this device.")
        }
        try session.sendKeys("Escape")
        try session.waitUntil("the sheet closed") { !$0.contains("Purchase failed") }
    }

    @Test func askToBuyIsApprovedInTheTransactionManagerAndDelivered() throws {
        let session = try App().launch()
        defer { session.kill() }
        try session.sendKeys("t", "Down", "Down", "Down", "Down", "Enter")
        try session.waitUntil("Ask to Buy is on") {
            $0.contains("Ask to Buy") && $0.range(of: #"Ask to Buy\s+on"#, options: .regularExpression) != nil
        }
        try session.sendKeys("Escape", "j", "j", "j", "j")
        try session.waitFor(text: "> Remove Ads")
        // Bought from its details sheet: Enter there opens the confirmation as on the list.
        try session.sendKeys("i")
        try session.waitFor(text: "Product ID  com.example.storefront.removeads")
        try session.sendKeys("Enter")
        try session.waitFor(text: "Confirm your in-app purchase")
        try session.sendKeys("Enter")
        // The child asks first, as StoreKit's Ask Permission sheet has it; only then is the request sent.
        try session.waitFor(text: "Ask your parent to buy Remove Ads ($2.99)?")
        try session.sendKeys("Enter")
        try session.waitFor(text: "waiting for a parent · not charged")
        try session.waitFor(text: "1 Ask to Buy request waiting for a parent — not charged")
        try session.sendKeys("m")
        try session.waitFor(text: "Transaction manager")
        try session.sendKeys("Y")
        // Delivered, verified and finished: owned, and no payment pending any more.
        try session.waitUntil("Remove Ads is owned and nothing is pending") {
            $0.contains("Owned: Remove Ads") && !$0.contains("waiting for a parent")
        }
    }

    @Test func killedMidPurchaseTheRelaunchShowsThePendingBannerAndCompletesIt() throws {
        let app = App()
        var session = try app.launch()
        defer { session.kill() }
        // Latency 5 s and an unreachable verification server: the purchase is still in flight when killed.
        try session.sendKeys("t", "Down", "Down", "Down")
        for _ in 0..<5 { try session.sendKeys("Right") }
        try session.waitFor(text: "5000 ms")
        for _ in 0..<4 { try session.sendKeys("Down") }
        try session.sendKeys("Right")
        try session.waitFor(text: "server unreachable")
        try session.sendKeys("Escape", "Enter", "Enter")
        try session.waitFor(text: "purchasing")
        try session.send(signal: SIGKILL)
        _ = try session.waitForExit()
        session.kill()

        session = try app.launch()
        // The store completes the orphaned purchase, the app delivers it, the server cannot confirm it yet.
        try session.waitFor(text: "1 payment is still being confirmed")
        try session.waitFor(text: "Wallet: 100 gems")
        try session.sendKeys("p")
        try session.waitUntil("the pending view says what the app waits for") {
            $0.contains("Pending payments") && $0.contains("waiting for the server to confirm the receipt")
        }
        // The server comes back: verification succeeds, the transaction is finished, the banner goes.
        try session.sendKeys("Escape", "t")
        for _ in 0..<7 { try session.sendKeys("Down") }
        try session.sendKeys("Left")
        try session.waitFor(text: "succeeds")
        try session.sendKeys("Escape", "R")
        try session.waitUntil("the banner is gone") {
            !$0.contains("still being confirmed") && $0.contains("verified ✓ finished")
                && $0.contains("Wallet: 100 gems")
        }
    }

    @Test func switchingToJapanShowsYenPrices() throws {
        let session = try App().launch()
        defer { session.kill() }
        try session.sendKeys("s")
        try session.waitFor(text: "JPN  JPY")
        try session.sendKeys("Down", "Enter")
        try session.waitUntil("yen prices") {
            $0.contains("alice (JPN)") && $0.contains("¥160") && $0.contains("¥800/month")
        }
        try session.sendKeys("l")
        try session.waitFor(text: "100 颗宝石")
    }

    @Test func resizingToTwentyByFiveAndBackKeepsWorking() throws {
        let session = try App().launch(columns: 80, rows: 24)
        defer { session.kill() }
        try session.resize(columns: 20, rows: 5)
        try session.waitFor(text: "need 60×16 · q quits")
        try session.resize(columns: 1, rows: 1)
        try session.resize(columns: 80, rows: 24)
        try session.waitFor(text: "Products 1/12")
        try session.sendKeys("j")
        try session.waitFor(text: "Products 2/12")
    }

    /// SIGSEGV stands for a crash: it takes the same handler path as a real one (checked by hand
    /// with a forced trap too); the backtracer must not wait for a key on the terminal.
    @Test(arguments: [("q", nil as Int32?), ("C-c", nil), ("TERM", SIGTERM), ("HUP", SIGHUP), ("SEGV", SIGSEGV)])
    func theTerminalIsRestoredHoweverItEnds(key: String, signal: Int32?) throws {
        let session = try App().launch(columns: 80, rows: 24, environment: ["SWIFT_BACKTRACE": "interactive=no"])
        defer { session.kill() }
        if let signal {
            try session.send(signal: signal)
        } else {
            try session.sendKeys(key)
        }
        let exit = try session.waitForExit()
        #expect(exit.terminalRestored, "stty before \(exit.sttyBefore) after \(exit.sttyAfter)")
        #expect(signal.map { exit.signal == $0 } ?? (exit.status == 0), "exit status \(exit.status)")
    }

    @Test func withoutATerminalItPointsToTheHeadlessCommands() throws {
        let result = try Executable.run(["--state", App().state.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("needs a terminal") && result.stderr.contains("storefront products | buy"))
    }
}
