import Foundation
import TestSupport
import Testing

/// The store's rules in the real terminal: a free trial bought, then refunded through StoreKit's
/// own sheets, and an owned product that is not sold twice.
@Suite(.serialized) struct StoreRulesTmuxTests {
    typealias App = InteractiveEndToEndTests.App

    @Test func aFreeTrialThenARefundThroughTheSheets() throws {
        let session = try App().launch()
        defer { session.kill() }
        try session.sendKeys("/")
        try session.type("premium monthly")
        try session.sendKeys("Enter")
        try session.waitFor(text: "> Premium Monthly")
        try session.sendKeys("Enter")
        try session.waitUntil("the sheet says what the trial costs and what follows") {
            $0.contains("Do you want to subscribe to Premium Monthly?")
                && $0.contains("Free for 1 week, then $4.99/month")
        }
        try session.sendKeys("Enter")
        try session.waitUntil("subscribed, nothing charged") {
            $0.contains("Subscribed") && $0.contains("verified ✓ finished")
        }
        try session.sendKeys("u")
        try session.waitFor(text: "Premium Monthly renews in 7 d")
        try session.sendKeys("f")
        try session.waitFor(text: "Request a refund of Premium Monthly ($0.00)?")
        // Esc then drops the filter, whose line would cover the status.
        try session.sendKeys("Down", "Enter", "Escape")
        // It waits for the App Store's decision, which the transaction manager gives.
        try session.waitFor(text: "it waits for the App Store")
        try session.sendKeys("m", "Y", "Escape")
        try session.waitUntil("the transaction reads refunded and the subscription is gone") {
            $0.contains("refunded") && !$0.contains("Subscribed")
        }
    }

    @Test func anOwnedProductIsOfferedForFreeNotSoldAgain() throws {
        let session = try App().launch()
        defer { session.kill() }
        try session.sendKeys("/")
        try session.type("remove")
        try session.sendKeys("Enter", "Enter", "Enter")
        try session.waitUntil("Remove Ads is owned") {
            $0.contains("Owned: Remove Ads") && $0.contains("verified ✓ finished")
        }
        try session.sendKeys("Enter")
        try session.waitFor(text: "You've already purchased Remove Ads. It will be restored for free.")
        try session.waitFor(text: "Total       $0.00")
    }

    @Test func aBillingRetryThenAnOfferCodeInTheTerminal() throws {
        let app = App()
        // Renewals every 2 s that cannot bill: set headless on the same state, as a QA lead would.
        _ = try Executable.run(["manage", "set", "time-rate", "2s", "--state", app.state.path])
        _ = try Executable.run(["manage", "set", "billing-issues", "on", "--state", app.state.path])
        let session = try app.launch()
        defer { session.kill() }
        try session.sendKeys("/")
        try session.type("premium monthly")
        try session.sendKeys("Enter", "Enter", "Enter")
        try session.waitFor(text: "Billing Problem")
        try session.sendKeys("Escape")
        try session.waitUntil("the free week ends in 2 s and its renewal cannot bill") {
            $0.contains("in billing retry (no access)")
        }
        try session.sendKeys("u")
        try session.waitFor(text: "Premium Monthly in billing retry (no access)")
        try session.sendKeys("Escape", "Escape", "c")
        try session.waitFor(text: "Type the offer code:")
        try session.type("STOREFRONT2026")
        try session.sendKeys("Enter")
        // The code's offer and its terms, before it is redeemed.
        try session.waitFor(text: "Code STOREFRONT2026: Premium Monthly")
        try session.sendKeys("Enter")
        try session.waitUntil("the code's free month replaced the plan in billing retry") {
            $0.contains("Subscribed") && !$0.contains("billing retry")
        }
    }

    @Test func aLapsedSubscriberTakesAPromotionalOfferFromTheSheet() throws {
        let app = App()
        // Subscribed once, then expired: eligible for the promotional offer.
        let bought = try Executable.run(["buy", ProductID.monthly, "--json", "--state", app.state.path])
        let id = try #require(bought.stdout.firstMatch(of: /"transactionId":"(\d{16})"/)?.1).description
        _ = try Executable.run(["manage", "expire", id, "--state", app.state.path])
        let session = try app.launch()
        defer { session.kill() }
        // Lapsed, the account may win the subscription back: StoreKit's win-back sheet comes first.
        try session.waitFor(text: "Win-Back Offer")
        try session.sendKeys("Escape")
        try session.sendKeys("/")
        try session.type("premium monthly")
        try session.sendKeys("Enter", "Enter", "o")
        try session.waitUntil("the sheet shows the offer and its first payment") {
            $0.contains("Promotional offer: $2.50/month for 3 months, then $4.99/month")
                && $0.contains("Total       $2.50")
        }
        try session.sendKeys("Enter")
        try session.waitUntil("subscribed at the offer") {
            $0.contains("Subscribed") && $0.contains("verified ✓ finished")
        }
        let listed = try Executable.run(["transactions", "--json", "--state", app.state.path])
        #expect(listed.stdout.contains(#""offerType":"promotional""#), "\(listed.stdout)")
    }
}
