import Foundation
import Testing

/// `storefront manage create`: a transaction made outside the device, dated in the past.
@Suite struct ManageCreateCommandTests {
    @Test func createWritesThePurchaseAndWhatFollowedFromItsDate() throws {
        let state = try StateDir()
        let date = Date().addingTimeInterval(-40 * 86_400)
        let dateText = ISO8601DateFormatter().string(from: date)
        let created = try state.manage(
            "create", ProductID.monthly, "--account", "kenji", "--date", dateText, "--app-account-token",
            "7e3fb20b-4cdb-47cc-936d-99d65f608138")
        #expect(
            created.stdout.hasPrefix(
                "create \(ProductID.monthly) --account kenji --date \(dateText) --app-account-token 7e3fb20b-4cdb-47cc-936d-99d65f608138: done; "
            ), "\(created.stdout)")
        let output = try state.transactions("--account", "kenji")
        // A week's free trial, a month that ended, and the month in force; none finished yet.
        #expect(output.history.count == 3)
        #expect(output.unfinished.count == 3)
        #expect(Set(output.history.map(\.originalTransactionId)).count == 1)
        let dates = output.history.compactMap { ISO8601DateFormatter().date(from: $0.purchaseDate) }
        #expect(dates.min() == ISO8601DateFormatter().date(from: dateText))

        let off = try state.manage(
            "create", ProductID.removeAds, "--account", "lena", "--date", "1768471200000", "--auto-renew", "off")
        #expect(off.stdout.contains("--date 2026-01-15T10:00:00Z --auto-renew off: done; "), "\(off.stdout)")
    }

    @Test(arguments: [
        (["create", ProductID.gems, "--date", "2026-01-15T10:00:00Z"], 2, "create needs --account"),
        (["create", ProductID.gems, "--account", "kenji", "--date", "soon"], 2, "--date soon: expected an ISO 8601"),
        (["create", ProductID.gems, "--account", "kenji", "--date", "2999-01-01T00:00:00Z"], 1, "is in the future"),
        (["create", "com.example.nope", "--account", "kenji", "--date", "2026-01-15T10:00:00Z"], 1, "no product"),
    ])
    func refusalsSayWhatWentWrong(words: [String], status: Int32, message: String) throws {
        let state = try StateDir()
        let result = try state.run(["manage"] + words)
        #expect(result.status == status, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(try state.transactions("--account", "kenji").history.isEmpty)
    }
}
