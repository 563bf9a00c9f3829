import Foundation
import Scenarios
import TestSupport
import Testing

/// Every built-in scenario opens in a real terminal showing what its description promises.
@Suite(.serialized) struct ScenarioTmuxTests {
    /// What a scenario promises, as the screen shows it: keys to press after launch, then text
    /// that must all be on one frame.
    struct Promise: Sendable, CustomTestStringConvertible {
        let name: String
        var keys: [String] = []
        let shows: [String]
        var testDescription: String { name }
    }

    static let promises: [Promise] = [
        // Paid and never delivered: the launch delivers, verifies and finishes it.
        Promise(
            name: "lost-order", shows: ["scenario lost-order", "550 Gems", "verified ✓ finished", "Wallet: 550 gems"]),
        Promise(
            name: "verification-down",
            shows: [
                "delivered · not verified yet", "Owned: Remove Ads", "1 payment is still being confirmed",
                "Receipt verification: server unreachable",
            ]),
        Promise(
            name: "unfinished-at-launch",
            shows: ["it was delivered before, so nothing is credited twice", "Wallet: 100 gems", "verified ✓ finished"]),
        Promise(
            name: "crash-loop",
            shows: [
                "The app crashed", "Delivering 1,200 Gems (transaction 2000000000000001) crashed the app: crash 1.",
                "app crashed delivering · unfinished",
            ]),
        Promise(
            name: "ask-to-buy-pending",
            shows: ["kid (USA)", "waiting for a parent · not charged", "1 Ask to Buy request waiting for a parent"]),
        Promise(name: "interrupted-purchase", shows: ["failed", "Remove Ads", "interrupted · needs the user"]),
        Promise(
            name: "order-id-dropped",
            shows: [
                "applicationUsername came back empty; matched order", "Wallet: 100 gems",
                "Drop applicationUsername: on",
            ]),
        Promise(
            name: "replayed-receipt",
            shows: ["100 Gems was delivered on another device of this account", "Wallet: 0 gems"]),
        // StoreKit's own messages open at launch over what the scenario set up.
        Promise(
            name: "billing-retry",
            shows: ["Billing Problem", "We couldn't renew Premium Monthly", "Billing retry on renewal: on"]),
        Promise(
            name: "grace-period",
            shows: ["Billing Problem", "You keep access for 15 d while you update it.", "Billing grace period: on"]),
        Promise(
            name: "price-increase",
            shows: ["Subscription Price Increase", "The price rises from $4.99/month to $5.49/month."]),
        Promise(
            name: "just-refunded", shows: ["550 Gems was refunded; 550 gems taken back.", "Wallet: 0 gems", "refunded"]),
        // The server finished it: the launch confirms the delivery from the app's own record.
        Promise(
            name: "server-finished", keys: ["m"],
            shows: ["Owned: Remove Ads", "finished by the app's server"]),
        // Cancelled at payment 3: the months left are still billed, and the wallet says when it ends.
        Promise(
            name: "commitment-cancelled",
            shows: ["lena (DEU)", "payment 3 of 12", "ends after payment 12 of 12"]),
        Promise(
            name: "family-sharing-stopped",
            shows: [
                "kid (USA)", "Dark Theme is no longer shared with you by your family", "no longer shared by the family",
                "Wallet: nothing yet",
            ]),
        Promise(
            name: "win-back-offer",
            shows: ["Win-Back Offer", "Come back to Premium Monthly with a special offer.", "Enter subscribe"]),
        // The promoted purchase waits for the message before it: only the message is promised.
        Promise(name: "promoted-purchase", shows: ["The App Store has a message for your account.", "Enter OK"]),
        Promise(
            name: "restricted-account", keys: ["Enter", "Enter"],
            shows: ["restricted (USA)", "SKError 4 · paymentNotAllowed"]),
        Promise(
            name: "not-sold-here",
            shows: ["wei (CHN)", "invalid product identifiers: com.example.storefront.pro.lifetime"]),
    ]

    @Test func everyBuiltInScenarioHasAPromiseChecked() {
        #expect(Self.promises.map(\.name) == BuiltInScenarios.names)
    }

    @Test(arguments: promises) func theScenarioOpensOnWhatItPromises(_ promise: Promise) throws {
        let home = scratchDirectory("scenario-\(promise.name)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let session = try TmuxSession.start(
            command: [Executable.url.path, "--scenario", promise.name], columns: 110, rows: 32,
            environment: ["STOREFRONT_HOME": home.path])
        defer { session.kill() }
        try session.waitFor(text: "Products 1/", timeout: .seconds(60))
        for key in promise.keys {
            try session.sendKeys(key)
            Thread.sleep(forTimeInterval: 0.5)
        }
        try session.waitUntil(promise.shows.joined(separator: " · "), timeout: .seconds(30)) { screen in
            promise.shows.allSatisfy(screen.contains)
        }
        #expect(
            FileManager.default.fileExists(
                atPath: home.appendingPathComponent("scenarios/\(promise.name)/store.sqlite").path))
    }

    /// The loop across real launches: the second process meets the same transaction and crashes
    /// again (its count goes on), and the fixed build delivers it once and finishes it.
    @Test func theCrashLoopGoesOnAcrossLaunchesUntilTheFixedBuild() throws {
        let home = scratchDirectory("scenario-crash-loop")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let first = try TmuxSession.start(
            command: [Executable.url.path, "--scenario", "crash-loop"], columns: 110, rows: 32,
            environment: ["STOREFRONT_HOME": home.path])
        defer { first.kill() }
        try first.waitFor(text: "crashed the app: crash 1.", timeout: .seconds(60))
        try first.sendKeys("Enter")
        try first.waitFor(text: "crashed the app: crash 2.")
        try first.sendKeys("q")
        #expect(try first.waitForExit().status == 0)

        let state = home.appendingPathComponent("scenarios/crash-loop").path
        let second = try TmuxSession.start(command: [Executable.url.path, "--state", state], columns: 110, rows: 32)
        defer { second.kill() }
        try second.waitFor(text: "crashed the app: crash 3.", timeout: .seconds(60))
        try second.sendKeys("x")
        try second.waitUntil("delivered once and finished") { screen in
            screen.contains("Wallet: 1,200 gems") && screen.contains("verified ✓ finished")
                && !screen.contains("The app crashed")
        }
    }
}

extension ScenarioTmuxTests {
    /// A scenario open in one terminal is not emptied by a second start; quitting names where it is.
    @Test func aSecondStartOfAnOpenScenarioIsRefused() throws {
        let home = scratchDirectory("scenario-twice")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        // What each says on stderr goes to a file: a pane that has ended is not read reliably.
        func command(_ errors: URL) -> [String] {
            ["/bin/sh", "-c", "exec \"$0\" --scenario lost-order 2> \"$1\"", Executable.url.path, errors.path]
        }
        let (firstErrors, secondErrors) = (
            home.appendingPathComponent("first.err"), home.appendingPathComponent("second.err")
        )
        let first = try TmuxSession.start(
            command: command(firstErrors), columns: 110, rows: 32, environment: ["STOREFRONT_HOME": home.path])
        defer { first.kill() }
        try first.waitFor(text: "Wallet: 550 gems", timeout: .seconds(60))
        let second = try TmuxSession.start(
            command: command(secondErrors), columns: 110, rows: 32, environment: ["STOREFRONT_HOME": home.path])
        defer { second.kill() }
        #expect(try second.waitForExit(timeout: .seconds(60)).status == 1)
        #expect(
            try String(contentsOf: secondErrors, encoding: .utf8).contains(
                "scenario lost-order is open in another storefront"))
        try first.sendKeys("q")
        #expect(try first.waitForExit().status == 0)
        let state = home.appendingPathComponent("scenarios/lost-order").path
        #expect(
            try String(contentsOf: firstErrors, encoding: .utf8).contains(
                "scenario lost-order is in \(state); storefront --state \(state) goes on"))
    }
}
