import Foundation
import TestSupport
import Testing

/// Apple's own `AppStoreServerAPIClient` and `SignedDataVerifier` (app-store-server-library,
/// installed by `.ci/run`), pointed at a real `storefront serve` started with `--api-key`, as a
/// backend developer would point their unchanged code.
@Suite struct AppleServerAPIClientTests {
    static let issuer = "57246542-96fe-1a63-e053-0824d011072a"
    static let keyId = "2X9R4HXF34"
    static let adminToken = "api-admin-token-0123"

    @Test func applesClientReadsAndChangesWhatTheServerHolds() async throws {
        let root = scratchDirectory("apple-api-client")
        let (server, keyFile) = try ServeProcess.startWithAPIKey(
            root: root, issuer: Self.issuer, keyId: Self.keyId, adminToken: Self.adminToken)
        defer { server.stop() }
        var first: String?
        // An upgrade, then a downgrade that waits for the renewal: still one subscription.
        for product in ["removeads", "premium.monthly", "gems.100", "premiumplus.monthly", "premium.monthly"] {
            let bought = try Executable.run(
                [
                    "buy", "com.example.storefront.\(product)", "--account", "alice", "--state",
                    root.appendingPathComponent("device").path, "--json",
                ],
                environment: ["STOREFRONT_STORE": server.baseURL])
            #expect(bought.status == 0, "\(bought.stderr)")
            let last = bought.stdout.split(separator: "\n").last.map { Data($0.utf8) }
            first =
                first ?? last.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }?[
                    "transactionId"] as? String
        }
        let script = Executable.repositoryRoot.appendingPathComponent("Tests/Python/server_api_client.py")
        let result = try Executable.run(python: [
            script.path, server.baseURL, keyFile.path, Self.issuer, Self.keyId, "com.example.storefront.demo",
            Self.adminToken, try #require(first, "the first purchase's id"),
        ])
        #expect(
            result.status == 0 && result.stdout.contains("all checks passed"),
            "\(result.stdout)\n\(result.stderr)\n\(server.stderr)")
    }

    /// Ask to Buy as Apple describes it, read with Apple's client: duplicate requests are one
    /// purchase and one ONE_TIME_CHARGE, and a decline sends the device and servers nothing.
    @Test func applesLibrarySeesOnePurchaseForDuplicateRequestsAndNothingOfADecline() async throws {
        try Self.runChecks("ask_to_buy.py", scratch: "apple-ask-to-buy")
    }

    /// A monthly plan with a 12-month commitment, checked with Apple's models: the JWS fields, the
    /// renewal info mid-commitment, the DID_RENEW notifications and verifyReceipt.
    @Test func applesLibraryReadsAMonthlyCommitment() async throws {
        try Self.runChecks("commitment_plan.py", scratch: "apple-commitment")
    }

    /// Every field Apple documents as present in renewal info, through a subscription's life:
    /// in force, auto-renew off, a declined price increase, refunded, expired, billing retry
    /// given up; in Get All Subscription Statuses and in EXPIRED notifications.
    @Test func applesLibraryFindsEveryRenewalInfoField() async throws {
        try Self.runChecks("renewal_info_fields.py", scratch: "apple-renewal-info")
    }

    /// Every field Apple documents as present in a signed transaction, for every kind a client
    /// can fetch (each product type, a renewal, a plan change's copy, a family member's copy, a
    /// refund), through Get Transaction Info and Get Transaction History.
    @Test func applesLibraryFindsEveryTransactionField() async throws {
        try Self.runChecks("transaction_fields.py", scratch: "apple-transaction-fields")
    }

    /// A transaction made outside the device (`POST /admin/transactions`), read with Apple's
    /// client: Get Transaction History holds it and its renewals with Apple's documented fields;
    /// the statuses and the notifications are what the App Store would have sent.
    @Test func applesLibraryReadsATransactionMadeOutsideTheDevice() async throws {
        try Self.runChecks("created_transaction.py", scratch: "apple-created-transaction")
    }

    /// Runs `Tests/Python/SCRIPT` against a server that takes tokens of a key made here, with the
    /// arguments every such script reads (URL, key, issuer, key id, bundle id, admin token, root).
    static func runChecks(_ script: String, scratch: String) throws {
        let root = scratchDirectory(scratch)
        let (server, keyFile) = try ServeProcess.startWithAPIKey(
            root: root, issuer: issuer, keyId: keyId, adminToken: adminToken)
        defer { server.stop() }
        let path = Executable.repositoryRoot.appendingPathComponent("Tests/Python/\(script)").path
        let result = try Executable.run(python: [
            path, server.baseURL, keyFile.path, issuer, keyId, "com.example.storefront.demo", adminToken, root.path,
        ])
        #expect(
            result.status == 0 && result.stdout.contains("all checks passed"),
            "\(result.stdout)\n\(result.stderr)\n\(server.stderr)")
    }
}
