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
        // products.json's app section: the build running now and the one every account first got.
        #expect(
            first["applicationVersion"] as? String == "3.2" && first["originalApplicationVersion"] as? String == "1.0")
        #expect(first["preorderDate"] == nil, "only a pre-ordered app has a preorderDate")
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

    /// A catalog that dates the app gives every account its dates, pre-order included.
    @Test func theCatalogsAppSectionDatesEveryAccount() throws {
        let state = try StateDir()
        let catalog = try state.writeCatalog { root in
            root["app"] = [
                "version": "4", "originalVersion": "2.1.7", "purchaseDate": "2025-01-15T09:00:00Z",
                "preorderDate": "2025-01-02",
            ]
        }
        let record = try state.run(["app-transaction", "--json", "--catalog", catalog.path]).object()
        #expect(record["originalPurchaseDate"] as? String == "2025-01-15T09:00:00Z", "\(record)")
        #expect(record["preorderDate"] as? String == "2025-01-02T00:00:00Z", "\(record)")
        #expect(
            record["applicationVersion"] as? String == "4" && record["originalApplicationVersion"] as? String == "2.1.7"
        )
        let bad = try state.writeCatalog { root in root["app"] = ["version": "3.x", "preorderDate": "soon"] }
        let refused = try state.run(["app-transaction", "--catalog", bad.path])
        #expect(refused.status != 0 && refused.stderr.contains("app.version"), "\(refused.stderr)")
        #expect(refused.stderr.contains("app.preorderDate"), "\(refused.stderr)")
    }

    /// Xcode's App Transaction error: the app's call fails, the server's route still answers.
    @Test func aSimulatedErrorFailsTheAppsCall() throws {
        let state = try StateDir()
        try state.manage("set", "api-error", "app-transaction", "fail:0")
        let failed = try state.run(["app-transaction"])
        #expect(
            failed.status == 1 && failed.stderr.contains("AppTransaction.shared failed: SKErrorDomain 0"), "\(failed)")
        try state.manage("set", "api-error", "app-transaction", "none")
        #expect(try state.run(["app-transaction"]).status == 0)
    }
}
