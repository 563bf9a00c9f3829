import Foundation
import Scenarios
import StoreCore
import Testing

/// A scenario's `create PRODUCT --account A --date DATE …`: a transaction made outside the device.
@Suite struct CreateStepTests {
    @Test func theWordsOfManageCreateMakeTheCreation() throws {
        let step = try ManageStep.parse([
            "create", "com.example.storefront.premium.monthly", "--account", "kenji", "--date", "2026-01-15T10:00:00Z",
            "--app-account-token", "7E3FB20B-4CDB-47CC-936D-99D65F608138", "--offer", "comeback", "--auto-renew", "off",
        ]).get()
        let expected = TransactionCreation(
            productId: "com.example.storefront.premium.monthly", account: "kenji",
            purchaseDate: Date(timeIntervalSince1970: 1_768_471_200),
            appAccountToken: UUID(uuidString: "7e3fb20b-4cdb-47cc-936d-99d65f608138"), offerId: "comeback",
            autoRenew: false)
        #expect(step.verb == .create && step.creation == expected && step.transaction == nil)
        #expect(step.action(on: "") == .createTransaction(expected))
        // The words it is shown with read back as the same step; milliseconds read as the same date.
        #expect(try ManageStep.parse(expected.words).get() == step)
        let inMilliseconds = try ManageStep.parse([
            "create", "com.example.storefront.gems.100", "--date", "1768471200000", "--account", "kenji",
        ]).get()
        #expect(inMilliseconds.creation?.purchaseDate == expected.purchaseDate)
        #expect(inMilliseconds.creation?.autoRenew == true)
    }

    @Test(arguments: [
        (["create"], "create takes a product first"),
        (["create", "p", "--date", "2026-01-15T10:00:00Z"], "create needs --account"),
        (["create", "p", "--account", "kenji"], "create needs --date"),
        (["create", "p", "--account", "kenji", "--date", "yesterday"], "--date \"yesterday\": expected an ISO 8601"),
        (
            ["create", "p", "--account", "kenji", "--date", "1", "--auto-renew", "maybe"],
            "--auto-renew takes on or off"
        ),
        (["create", "p", "--account", "kenji", "--date", "1", "--app-account-token", "x"], "expected a UUID"),
        (["create", "p", "--account", "kenji", "--account", "lena", "--date", "1"], "each once"),
        (["create", "p", "--account"], "--account takes a value"),
    ])
    func wrongWordsSayWhatCreateTakes(words: [String], message: String) {
        guard case .failure(let problem) = ManageStep.parse(words) else {
            Issue.record("\(words) was read")
            return
        }
        #expect(problem.message.contains(message), "\(problem.message)")
    }
}
