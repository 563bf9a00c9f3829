import Foundation
import StoreCore
import StoreEngine
import StoreKitModel
import TestSupport
import Testing

/// Xcode's per-API simulated errors: each StoreKit call fails as set until turned off, while
/// the next-outcome control still applies to one payment only.
@Suite struct SimulatedAPIErrorTests {
    func set(_ fixture: StoreFixture, _ api: String, _ token: String) async throws {
        var controls = try await fixture.store.controls()
        try controls.setAPIError(api, token)
        try await fixture.store.setControls(controls)
    }

    @Test func theProductsRequestFailsUntilTurnedOff() async throws {
        let fixture = try StoreFixture()
        try await set(fixture, "load-products", "network:-1009")
        for _ in 0..<2 {
            await #expect(throws: StoreError.network(.notConnectedToInternet)) {
                try await fixture.store.products(ids: [StoreFixture.gems], storefront: nil)
            }
        }
        try await set(fixture, "load-products", "none")
        #expect(try await fixture.store.products(ids: [StoreFixture.gems], storefront: nil).products.count == 1)
    }

    @Test func everyPaymentFailsWhileOnAndTheNextOutcomeComesFirst() async throws {
        let fixture = try StoreFixture()
        try await set(fixture, "purchase", "fail:4")
        // Set for one payment, the next outcome decides it (and a forced outcome, which reaches a
        // server this way, acts as in process); the simulated error decides every other one.
        try await fixture.setControls { $0.nextOutcome = .deferred }
        #expect(try await fixture.buy(StoreFixture.gems).transaction.state == .deferred)
        for _ in 0..<2 {
            let failed = try await fixture.buy(StoreFixture.gems)
            #expect(failed.transaction.state == .failed)
            #expect(failed.transaction.error == .storeKit(.paymentNotAllowed))
        }
        try await set(fixture, "purchase", "none")
        #expect(try await fixture.buy(StoreFixture.gems).transaction.state == .purchased)
    }

    @Test func verificationAndRestoreFailAsSet() async throws {
        let fixture = try StoreFixture()
        let bought = try await fixture.buy(StoreFixture.removeAds)
        try await set(fixture, "verification", "fail:0")
        let result = try await fixture.store.verify(
            receipt: try #require(bought.receipt), transactionId: bought.transaction.id,
            productId: StoreFixture.removeAds, claim: "a")
        guard case .rejected(nil, let reason) = result else {
            Issue.record("verification was not refused: \(result)")
            return
        }
        #expect(reason.contains("simulated SKErrorDomain 0 unknown"))
        try await set(fixture, "app-store-sync", "cancel")
        for _ in 0..<2 {
            await #expect(throws: StoreError.storeKit(.paymentCancelled)) {
                try await fixture.store.restore(account: "alice")
            }
        }
    }

    @Test func badNamesAndErrorsAreRefusedWithWhatIsAccepted() throws {
        var controls = TestControls()
        #expect(throws: ControlProblem.self) { try controls.setAPIError("purchases", "fail:0") }
        #expect(throws: ControlProblem.self) { try controls.setAPIError("purchase", "deferred") }
        do {
            try controls.setAPIError("in-app-messages", "fail:0")
            Issue.record("an API Storefront has no call for was accepted")
        } catch {
            #expect(error.message.contains("expected one of load-products, purchase"))
        }
        #expect(controls.apiErrors.isEmpty)
    }

    /// A `.storekit` file's `_storeKitErrors` seed exactly the APIs the store can fail.
    @Test func theStoreKitImportKnowsWhichAPIsCanFail() throws {
        var object = try #require(
            try JSONSerialization.jsonObject(with: Data(#"{"products": [], "settings": {"_storeKitErrors": []}}"#.utf8))
                as? [String: Any])
        let names = [
            "Load Products", "Purchase", "Verification", "App Store Sync", "Subscription Status", "App Transaction",
            "Manage Subscriptions Sheet", "Refund Request Sheet", "Offer Code Redeem Sheet",
        ]
        object["settings"] = ["_storeKitErrors": names.map { ["name": $0, "enabled": true] }]
        object["products"] = [
            [
                "productID": "a.b", "type": "Consumable", "displayPrice": "0.99",
                "localizations": [["locale": "en_US", "displayName": "A"]],
            ]
        ]
        let catalog = try CatalogLoader.decode(
            [UInt8](try JSONSerialization.data(withJSONObject: object)), source: "all.storekit")
        #expect(Set(TestControls(seed: catalog.settings).apiErrors.keys) == Set(SimulatedAPI.allCases))
        #expect(catalog.settings.apiErrors.count == SimulatedAPI.allCases.count)
    }
}

extension TestControls {
    /// `manage set api-error API ERROR|none`, through the table's row; it reads no catalog.
    mutating func setAPIError(_ name: String, _ token: String) throws(ControlProblem) {
        let catalog = Catalog(
            bundleId: "", languages: [], defaultStorefront: "", storefronts: [], accounts: [], subscriptionGroups: [],
            products: [])
        try ControlSetting("api-error")!.apply([name, token], to: &self, catalog: catalog)
    }
}
