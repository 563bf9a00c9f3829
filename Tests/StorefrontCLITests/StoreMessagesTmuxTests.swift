import Foundation
import TestSupport
import Testing

/// StoreKit's own messages and the controls' resets in the real terminal: the price-increase
/// consent sheet at launch, the billing-issue message, a refund request the App Store decides,
/// and `Z` against erasing the store.
@Suite(.serialized) struct StoreMessagesTmuxTests {
    typealias App = InteractiveEndToEndTests.App

    /// The storefront on `app`'s state, without waiting for the list: a message may cover it.
    static func start(_ app: App) throws -> TmuxSession {
        try TmuxSession.start(
            command: [Executable.url.path, "--state", app.state.path], columns: 100, rows: 30, environment: [:])
    }

    @Test func aPriceIncreaseWaitingForConsentShowsItsSheetAtLaunch() throws {
        let app = App()
        let bought = try Executable.run(["buy", ProductID.monthly, "--json", "--state", app.state.path])
        let id = try #require(bought.stdout.firstMatch(of: /"transactionId":"(\d{16})"/)?.1).description
        _ = try Executable.run([
            "manage", "price-increase", "request", id, "--price", "5.99", "--state", app.state.path,
        ])
        let session = try Self.start(app)
        defer { session.kill() }
        try session.waitUntil("the consent sheet with the new price") {
            $0.contains("Subscription Price Increase")
                && $0.contains("The price rises from $4.99/month to $5.99/month.")
        }
        try session.sendKeys("Enter")
        try session.waitFor(text: "You agreed to the new price of Premium Monthly.")
        try session.waitUntil("the store has the consent") { _ in
            let wallet = try? Executable.run(["wallet", "--json", "--state", app.state.path])
            return wallet?.stdout.contains(#""priceIncreaseStatus":"agreed""#) == true
        }
    }

    @Test func aBillingIssueShowsStoreKitsMessageWhichResolvesIt() throws {
        let app = App()
        _ = try Executable.run(["manage", "set", "time-rate", "2s", "--state", app.state.path])
        _ = try Executable.run(["manage", "set", "billing-issues", "on", "--state", app.state.path])
        let session = try app.launch()
        defer { session.kill() }
        try session.sendKeys("/")
        try session.type("premium monthly")
        try session.sendKeys("Enter", "Enter", "Enter")
        try session.waitUntil("the renewal cannot bill and StoreKit says so") {
            $0.contains("Billing Problem") && $0.contains("We couldn't renew Premium Monthly")
        }
        try session.sendKeys("Enter")
        try session.waitFor(text: "Payment method updated; Premium Monthly renews.")
    }

    @Test func aRefundRequestWaitsThenTheManagerDeclinesOrApprovesIt() throws {
        let app = App()
        _ = try Executable.run(["buy", ProductID.removeAds, "--state", app.state.path])
        let session = try app.launch()
        defer { session.kill() }
        try session.sendKeys("/")
        try session.type("remove ads")
        try session.sendKeys("Enter", "f")
        try session.waitFor(text: "Request a refund of Remove Ads ($2.99)?")
        // Esc then drops the filter, whose line would cover the status.
        try session.sendKeys("Enter", "Escape")
        try session.waitFor(text: "it waits for the App Store")
        try session.sendKeys("m", "D")
        try session.waitFor(text: "The App Store declined the refund of Remove Ads; the purchase stays.")
        try session.sendKeys("Escape", "/")
        try session.type("remove ads")
        try session.sendKeys("Enter", "f")
        try session.waitFor(text: "Request a refund of Remove Ads ($2.99)?")
        try session.sendKeys("Enter", "Escape", "m", "Y")
        try session.waitFor(text: "The App Store approved the refund of Remove Ads.")
        try session.sendKeys("Escape")
        try session.waitUntil("refunded and taken back") { !$0.contains("Owned: Remove Ads") }
    }

    @Test func zResetsTheControlsAndOnlyEPressedTwiceErasesTheStore() throws {
        let app = App()
        _ = try Executable.run(["buy", ProductID.gems, "--state", app.state.path])
        let session = try app.launch()
        defer { session.kill() }
        try session.waitFor(text: "verified ✓ finished")
        try session.sendKeys("t", "Right")
        try session.waitFor(text: "controls: Purchase outcome: cancel")
        try session.sendKeys("Z")
        try session.waitUntil("the controls reset, the store kept") {
            $0.contains("Test controls reset to the catalog's defaults; the store is unchanged.")
                && !$0.contains("controls: Purchase outcome")
        }
        try session.sendKeys("E")
        try session.waitFor(text: "Press E again to erase the store")
        try session.sendKeys("E", "Escape")
        try session.waitUntil("the store's transactions are gone") { !$0.contains("verified ✓ finished") }
    }
}
