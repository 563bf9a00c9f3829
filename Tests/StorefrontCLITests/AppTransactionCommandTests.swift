import Foundation
import Testing

/// `storefront app-transaction`: the account's AppTransaction, the same on every ask.
@Suite struct AppTransactionCommandTests {
    @Test func theAppTransactionIsTheAccountsAndKept() throws {
        let state = try StateDir()
        _ = try state.buy(ProductID.gems)
        let first = try state.run(["app-transaction", "--json"]).object()
        #expect(first["account"] as? String == "alice")
        #expect(first["bundleId"] as? String == "com.example.storefront.demo")
        #expect(first["environment"] as? String == "Xcode")
        #expect((first["appTransactionId"] as? String)?.allSatisfy(\.isNumber) == true)
        let purchased = try #require(state.transactions().history.first?.purchaseDate)
        #expect(first["originalPurchaseDate"] as? String == purchased, "the first purchase dates the app")
        _ = try state.buy(ProductID.gems)
        let again = try state.run(["app-transaction", "--json"]).object()
        #expect(again["originalPurchaseDate"] as? String == first["originalPurchaseDate"] as? String)
        #expect(again["appTransactionId"] as? String == first["appTransactionId"] as? String)
        let other = try state.run(["app-transaction", "--json", "--account", "kenji"]).object()
        #expect(other["appTransactionId"] as? String != first["appTransactionId"] as? String, "one per account")
        #expect(try state.run(["app-transaction"]).stdout.contains("appTransactionId:"))
    }
}
