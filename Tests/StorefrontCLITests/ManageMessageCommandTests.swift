import Foundation
import Testing

/// `storefront manage message generic --account A` and `manage purchase-intent PRODUCT [--offer ID]
/// --account A`: what the App Store sends an account's apps, kept in the store until one takes it;
/// and `manage set win-back-messages`, the sandbox's switch for the win-back message.
@Suite struct ManageMessageCommandTests {
    static let comeback = "com.example.storefront.premium.comeback"

    /// The rows waiting in the store's tables, read as another program would.
    static func waiting(_ state: StateDir, _ table: String) throws -> [String] {
        let column = table == "store_messages" ? "reason" : "product_id || ' ' || COALESCE(offer_id, '-')"
        let script = """
            import sqlite3, sys
            db = sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True)
            for account, value in db.execute("SELECT account, \(column) FROM \(table) WHERE delivered_at IS NULL ORDER BY seq"):
                print(account, value)
            """
        return try Python.run(script, arguments: [state.storeDatabase]).split(separator: "\n").map(String.init)
    }

    @Test func aGenericMessageWaitsForTheAccountsApp() throws {
        let state = try StateDir()
        let sent = try state.manage("message", "generic", "--account", "kenji")
        #expect(sent.stdout == "message generic: done\n")
        _ = try state.manage("message", "generic")
        #expect(try Self.waiting(state, "store_messages") == ["kenji generic", "alice generic"])

        let refused = try state.run(["manage", "message", "billingIssue"])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("expected generic"), "\(refused.stderr)")
        let unknown = try state.run(["manage", "message", "generic", "--account", "mallory"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("mallory"), "\(unknown.stderr)")
    }

    @Test func aPurchaseIntentWaitsWithItsOffer() throws {
        let state = try StateDir()
        let promoted = try state.manage("purchase-intent", ProductID.removeAds, "--account", "alice")
        #expect(promoted.stdout == "purchase-intent \(ProductID.removeAds): done\n")
        // The win-back offer is the App Store's to show only to an account that may take it.
        let ineligible = try state.run(["manage", "purchase-intent", ProductID.monthly, "--offer", Self.comeback])
        #expect(ineligible.status == 1)
        #expect(ineligible.stderr.contains("not eligible"), "\(ineligible.stderr)")
        let id = try state.buy(ProductID.monthly).transactionId()
        _ = try state.manage("auto-renew", "off", id)
        _ = try state.manage("expire", id)
        let redeemed = try state.manage("purchase-intent", ProductID.monthly, "--offer", Self.comeback)
        #expect(redeemed.stdout == "purchase-intent \(ProductID.monthly) --offer \(Self.comeback): done\n")
        #expect(
            try Self.waiting(state, "purchase_intents") == [
                "alice \(ProductID.removeAds) -", "alice \(ProductID.monthly) \(Self.comeback)",
            ])
        let unknown = try state.run(["manage", "purchase-intent", "com.example.nothing"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("no product com.example.nothing"), "\(unknown.stderr)")
    }

    @Test func theWinBackMessageSwitchIsAControl() throws {
        let state = try StateDir()
        #expect(try state.manage("set", "win-back-messages", "off").stdout == "set win-back-messages off\n")
        let help = try state.run(["manage", "set", "--help"])
        #expect(help.stdout.contains("win-back-messages"), "\(help.stdout)")
        let refused = try state.run(["manage", "set", "win-back-messages", "maybe"])
        #expect(refused.status == 2)
    }
}
