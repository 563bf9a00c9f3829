import Foundation
import TestSupport
import Testing

/// Apple's own `.storekit` files, used the way a team would use theirs: subscribe (with the
/// file's introductory offer), upgrade within the group, buy and refund a one-off product,
/// headless and in the terminal.
@Suite struct RealStoreKitFileTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let file: String
        let subscription: String
        let title: String
        /// What the first subscription charges, and the offer's payment mode when one applies.
        let price: String
        let offerMode: String?
        /// A higher level of the same group, when the file has one.
        let higher: String?
        let oneOff: String
        let oneOffPrice: String

        var path: String { "Tests/StoreKitModelTests/Fixtures/\(file)" }
        var testDescription: String { file }
    }

    static let cases = [
        Case(
            file: "SKDemo-Products.storekit", subscription: "plus.standard", title: "SKDemo+ Standard Plan",
            price: "2.99", offerMode: nil,
            higher: "plus.pro", oneOff: "nonconsumable.pickuptruck", oneOffPrice: "4.99"),
        Case(
            file: "BackyardBirds-Store.storekit", subscription: "pass.individual", title: "Individual", price: "0",
            offerMode: "freeTrial",
            higher: "pass.premium", oneOff: "pellet.box", oneOffPrice: "3.99"),
        Case(
            file: "FoodTruck-Products.storekit", subscription: "socialfeedplus.monthly",
            title: "Social Feed+ Monthly Plan", price: "2.49",
            offerMode: "payAsYouGo", higher: nil, oneOff: "feature.annualhistory", oneOffPrice: "0.99"),
    ]

    @Test(arguments: cases) func subscribeUpgradeAndRefundHeadless(_ file: Case) throws {
        let state = try StateDir()
        let catalog = ["--catalog", file.path]
        let subscribed = try state.run(["buy", file.subscription, "--json"] + catalog).transactionId()
        var listed = try state.run(["transactions", "--json"] + catalog).decode(TransactionsOutput.self)
        let first = try #require(listed.transaction(subscribed))
        #expect(first.price == file.price)
        #expect(first.offerPaymentMode == file.offerMode)
        #expect(first.expirationDate != nil)

        if let higher = file.higher {
            let upgraded = try state.run(["buy", higher, "--json"] + catalog).transactionId()
            listed = try state.run(["transactions", "--json"] + catalog).decode(TransactionsOutput.self)
            #expect(listed.transaction(subscribed)?.isUpgraded == true)
            #expect(listed.transaction(upgraded)?.isUpgraded == nil)
            let wallet = try state.run(["wallet", "--json"] + catalog).decode(WalletOutput.self)
            #expect(wallet.subscriptions.filter(\.active).map(\.productId) == [higher], "one plan per group")
        }

        let oneOff = try state.run(["buy", file.oneOff, "--json"] + catalog).transactionId()
        #expect(
            try state.run(["transactions", "--json"] + catalog).decode(TransactionsOutput.self).transaction(oneOff)?
                .price == file.oneOffPrice)
        let refund = try state.run(["manage", "refund", oneOff] + catalog)
        #expect(refund.status == 0, "\(refund)")
        let refunded = try #require(
            try state.run(["transactions", "--json"] + catalog).decode(TransactionsOutput.self).transaction(oneOff))
        #expect(refunded.revocationReason == "other")
    }
}

/// The same files in the terminal: the sheet quotes the file's offer and the list marks the plan.
@Suite(.serialized) struct RealStoreKitFileTmuxTests {
    @Test(arguments: RealStoreKitFileTests.cases) func subscribeInTheTerminal(_ file: RealStoreKitFileTests.Case) throws
    {
        let state = scratchDirectory("storefront-real-file")
        let session = try TmuxSession.start(
            command: [Executable.url.path, "--catalog", file.path, "--state", state.path],
            columns: 100, rows: 30, environment: [:])
        defer { session.kill() }
        try session.waitFor(text: "Products 1/")
        try session.sendKeys("/")
        try session.type(file.subscription)
        try session.sendKeys("Enter")
        try session.waitFor(text: "> \(file.title)")
        try session.sendKeys("Enter")
        try session.waitUntil("the sheet quotes what \(file.subscription) costs now") { screen in
            screen.contains("Confirm your in-app purchase") && (file.offerMode == nil || screen.contains(", then $"))
        }
        try session.sendKeys("Enter")
        try session.waitUntil("subscribed") { $0.contains("Subscribed") && $0.contains("verified ✓ finished") }
    }
}
