import Foundation
import TestSupport
import Testing

/// What a QA lead walks in a real terminal: the help at the minimum size, a parent's decline
/// (the store's side only),
/// an interrupted purchase resolved in the manager, and terminals without UTF-8 or colour.
@Suite(.serialized) struct QALeadTmuxTests {
    typealias App = InteractiveEndToEndTests.App

    @Test func theHelpScrollsToEveryKeyAtTheMinimumSize() throws {
        let session = try App().launch(columns: 60, rows: 16)
        defer { session.kill() }
        try session.sendKeys("?")
        try session.waitUntil("the first page of keys, and where it is") {
            $0.contains("Main screen") && $0.contains("1–10/")
        }
        try session.sendKeys("End")
        try session.waitUntil("the last keys, in the manager's section") {
            $0.contains("as an organization does (ASSIGNED)") && !$0.contains("1–10/")
        }
        try session.sendKeys("Home")
        try session.waitFor(text: "Main screen")
        try session.sendKeys("Escape")
        try session.waitUntil("closed") { !$0.contains("Main screen") }
    }

    /// The manager says what the store did; the app, told nothing, still waits, as on a device.
    @Test func aParentsDeclineIsTheStoresSideAndTheAppStillWaits() throws {
        let app = App()
        _ = try Executable.run(["manage", "set", "ask-to-buy", "on", "--state", app.state.path])
        let session = try app.launch()
        defer { session.kill() }
        try session.sendKeys("/")
        try session.type("remove ads")
        try session.sendKeys("Enter", "Enter", "Enter")
        try session.waitFor(text: "Ask Permission")
        try session.sendKeys("Enter")
        try session.waitFor(text: "waiting for a parent · not charged")
        try session.sendKeys("m")
        try session.waitFor(text: "Transaction manager")
        try session.sendKeys("D")
        try session.waitUntil("declined on the store's side, and nothing charged") {
            $0.contains("deferred    Remove Ads") && $0.contains("store: declined") && !$0.contains("cancelled")
                && !$0.contains("SKError 2")
        }
        try session.sendKeys("Escape")
        try session.waitUntil("the app still waits for a parent") {
            $0.contains("deferred   Remove Ads") && $0.contains("waiting for a parent · not charged")
                && !$0.contains("declined by a parent ·") && !$0.contains("failed")
        }
    }

    @Test func anInterruptedPurchaseSaysWhatToDoAndResolvesInTheManager() throws {
        let app = App()
        _ = try Executable.run(["manage", "set", "next-outcome", "interrupted", "--state", app.state.path])
        let session = try app.launch(columns: 120, rows: 30)
        defer { session.kill() }
        try session.sendKeys("Enter", "Enter")
        try session.waitUntil("the interrupted sheet, not SKError 0's") {
            $0.contains("Purchase interrupted") && $0.contains("needs the user's action outside the app")
                && !$0.contains("Something went wrong")
        }
        try session.sendKeys("Escape", "m")
        try session.waitFor(text: "interrupted: I resolves")
        try session.sendKeys("I")
        try session.waitUntil("resolved: the purchase completes as a new transaction") {
            $0.contains("Wallet: 100 gems")
        }
    }

    @Test func anASCIIOnlyTerminalShowsISOCodesAndRefusesChinese() throws {
        let session = try App().launch(environment: ["LANG": "C", "LC_ALL": "C"])
        defer { session.kill() }
        try session.waitFor(text: "USD 0.99")
        try session.sendKeys("l")
        try session.waitFor(text: "Chinese needs a UTF-8 locale")
        try session.sendKeys("s")
        try session.waitUntil("every storefront's price in its ISO code") {
            $0.contains("JPY 160") && $0.contains("1,19 EUR")
        }
    }

    /// No alternate screen under TERM=dumb: the last frame stays, footer included, and what the
    /// shell prints next starts on a line of its own instead of over the footer.
    @Test func termDumbLeavesItsLastFrameWhole() throws {
        let app = App()
        let session = try TmuxSession.start(
            command: [
                "sh", "-c", "\"$0\" --state \"$1\"; echo printed-after-exit", Executable.url.path, app.state.path,
            ],
            columns: 100, rows: 30, environment: ["TERM": "dumb"])
        defer { session.kill() }
        try session.waitFor(text: "Products 1/12")
        try session.sendKeys("q")
        _ = try session.waitForExit()
        let screen = try session.capture()
        #expect(screen.contains("q quit  Enter buy") && screen.contains("\nprinted-after-exit"), "\(screen)")
    }

    @Test func termDumbStartsAndStaysUsable() throws {
        let session = try App().launch(environment: ["TERM": "dumb"])
        defer { session.kill() }
        try session.sendKeys("Enter")
        try session.waitUntil("a sheet drawn with ASCII lines") { $0.contains("+- Confirm your in-app purchase") }
        try session.sendKeys("Enter")
        try session.waitFor(text: "Wallet: 100 gems")
        try session.sendKeys("q")
        let exit = try session.waitForExit()
        #expect(exit.status == 0 && exit.terminalRestored)
    }
}
