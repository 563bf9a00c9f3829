import Foundation
import GRDB
import StoreCore
import StoreEngine
import StoreKitModel
import TestSupport
import Testing

/// The test controls' keys and values in the settings table, as every version so far has
/// written them: a state directory made before the controls came from one table reads the same,
/// and the controls are still written so.
@Suite(.disabled(if: StoreFixture.onPostgres, "reads and writes the SQLite file's settings table"))
struct ControlStorageFormatTests {
    /// Every control set away from its default, and its settings as stored.
    static let controls: TestControls = {
        var controls = TestControls()
        controls.nextOutcome = .fail(.paymentNotAllowed)
        controls.everyPurchase = true
        controls.autoApproveRefunds = true
        controls.productOutcomes = [StoreFixture.gems: .network(.timedOut), StoreFixture.removeAds: .cancel]
        controls.latencyMilliseconds = 250
        controls.askToBuy = true
        controls.paymentsAllowed = false
        controls.timeRate = .oneRenewalEvery2Seconds
        controls.storefront = "JPN"
        controls.account = "kenji"
        controls.verificationFailure = .status(.notAuthenticated)
        controls.dropOrderIds = true
        controls.billingIssues = true
        controls.gracePeriod = true
        controls.apiErrors = [.purchase: .storeKit(.unknown), .loadProducts: .network(.notConnectedToInternet)]
        return controls
    }()

    static let stored: [String: String] = [
        "controls.saved": "1",
        "controls.next": "fail:4",
        "controls.everyPurchase": "1",
        "controls.autoApproveRefunds": "1",
        "controls.products": "com.example.storefront.gems.100=network:-1001\ncom.example.storefront.removeads=cancel",
        "controls.latency": "250",
        "controls.askToBuy": "1",
        "controls.paymentsAllowed": "0",
        "controls.timeRate": "1005",
        "controls.storefront": "JPN",
        "controls.account": "kenji",
        "controls.verification": "21003",
        "controls.dropOrderIds": "1",
        "controls.billingIssues": "1",
        "controls.gracePeriod": "1",
        "controls.apiErrors": "load-products=network:-1009\npurchase=fail:0",
    ]

    static func settings(_ fixture: StoreFixture) throws -> DatabaseQueue {
        try DatabaseQueue(path: fixture.directory.appendingPathComponent("store.sqlite").path)
    }

    @Test func theControlsAreWrittenWithTheKeysAndValuesOfEveryVersion() async throws {
        let fixture = try StoreFixture()
        try await fixture.store.setControls(Self.controls)
        let rows = try await Self.settings(fixture).read { db in
            try [String: String](
                uniqueKeysWithValues: Row.fetchAll(
                    db, sql: "SELECT key, value FROM settings WHERE key LIKE 'controls.%'"
                )
                .map { ($0["key"], $0["value"]) })
        }
        for (key, value) in Self.stored {
            #expect(rows[key] == value, "\(key)")
        }
    }

    @Test func settingsAnEarlierVersionWroteReadAsTheyDid() async throws {
        let fixture = try StoreFixture()
        // The settings table as a store of an earlier version leaves it, with what a hand edit
        // could leave: an entry without `=`, an unknown API, an unreadable outcome.
        try await fixture.setControls { $0.latencyMilliseconds = 1 }
        try await Self.settings(fixture).write { db in
            try db.execute(sql: "DELETE FROM settings WHERE key LIKE 'controls.%'")
            var stored = Self.stored
            stored["controls.products"]? += "\nbroken\ncom.example.storefront.gems.550=sometimes"
            stored["controls.apiErrors"]? += "\nin-app-messages=fail:0"
            for (key, value) in stored {
                try db.execute(sql: "INSERT INTO settings (key, value) VALUES (?, ?)", arguments: [key, value])
            }
        }
        #expect(try await fixture.store.controls() == Self.controls)

        // Unset or unreadable values read as the defaults, as they always have.
        try await Self.settings(fixture).write { db in
            try db.execute(sql: "DELETE FROM settings WHERE key LIKE 'controls.%' AND key <> 'controls.saved'")
            try db.execute(
                sql:
                    "INSERT INTO settings (key, value) VALUES ('controls.paymentsAllowed', 'x'), ('controls.latency', 'x')"
            )
        }
        #expect(try await fixture.store.controls() == TestControls())
    }
}
