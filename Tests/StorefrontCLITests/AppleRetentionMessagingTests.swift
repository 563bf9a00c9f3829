import Foundation
import TestSupport
import Testing

/// Apple's Retention Messaging API client, with a Get Retention Message endpoint that verifies
/// the store's signature with Apple's `SignedDataVerifier`, against a real `storefront serve`.
@Suite struct AppleRetentionMessagingTests {
    /// After an upgrade, `manage auto-renew off` with the original transaction id shows the
    /// message of the plan in force, the one whose renewal it turns off.
    @Test func cancellingAfterAnUpgradeShowsThePlanInForcesMessage() async throws {
        let root = scratchDirectory("apple-retention-upgrade")
        let (server, keyFile) = try ServeProcess.startWithAPIKey(
            root: root, issuer: AppleServerAPIClientTests.issuer, keyId: AppleServerAPIClientTests.keyId,
            adminToken: AppleServerAPIClientTests.adminToken)
        defer { server.stop() }
        let device = root.appendingPathComponent("device").path
        let store = [
            "STOREFRONT_STORE": server.baseURL, "STOREFRONT_ADMIN_TOKEN": AppleServerAPIClientTests.adminToken,
        ]
        func buy(_ product: String) throws -> String {
            let bought = try Executable.run(
                ["buy", product, "--account", "alice", "--state", device, "--json"], environment: store)
            #expect(bought.status == 0, "\(bought.stderr)")
            let last = bought.stdout.split(separator: "\n").last.map { Data($0.utf8) }
            return try #require(
                last.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }?["transactionId"]
                    as? String)
        }
        let original = try buy("com.example.storefront.premium.monthly")
        let upgrade = "com.example.storefront.premiumplus.monthly"
        _ = try buy(upgrade)
        // Messages configured for the plan upgraded to only.
        let script = Executable.repositoryRoot.appendingPathComponent("Tests/Python/retention_messaging.py")
        let result = try Executable.run(python: [
            script.path, server.baseURL, keyFile.path, AppleServerAPIClientTests.issuer,
            AppleServerAPIClientTests.keyId, "com.example.storefront.demo", "alice", upgrade, original,
            AppleServerAPIClientTests.adminToken,
        ])
        #expect(
            result.status == 0 && result.stdout.contains("all checks passed"),
            "\(result.stdout)\n\(result.stderr)\n\(server.stderr)")
        let cancelled = try Executable.run(
            ["manage", "auto-renew", "off", original, "--state", device], environment: store)
        #expect(
            cancelled.status == 0
                && cancelled.stdout.hasPrefix("retention message (default): See you soon?\n  Your lessons stay saved."),
            "\(cancelled.stdout)\n\(cancelled.stderr)")
    }

    @Test func applesClientConfiguresMessagesAndTheRealtimeURL() async throws {
        let root = scratchDirectory("apple-retention")
        let (server, keyFile) = try ServeProcess.startWithAPIKey(
            root: root, issuer: AppleServerAPIClientTests.issuer, keyId: AppleServerAPIClientTests.keyId,
            adminToken: AppleServerAPIClientTests.adminToken)
        defer { server.stop() }
        let product = "com.example.storefront.premium.monthly"
        let bought = try Executable.run(
            ["buy", product, "--account", "alice", "--state", root.appendingPathComponent("device").path, "--json"],
            environment: ["STOREFRONT_STORE": server.baseURL])
        #expect(bought.status == 0, "\(bought.stderr)")
        let last = bought.stdout.split(separator: "\n").last.map { Data($0.utf8) }
        let id = try #require(
            last.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }?["transactionId"] as? String)
        let script = Executable.repositoryRoot.appendingPathComponent("Tests/Python/retention_messaging.py")
        let result = try Executable.run(python: [
            script.path, server.baseURL, keyFile.path, AppleServerAPIClientTests.issuer,
            AppleServerAPIClientTests.keyId, "com.example.storefront.demo", "alice", product, id,
            AppleServerAPIClientTests.adminToken,
        ])
        #expect(
            result.status == 0 && result.stdout.contains("all checks passed"),
            "\(result.stdout)\n\(result.stderr)\n\(server.stderr)")
        let cancelled = try Executable.run(
            ["manage", "auto-renew", "off", id, "--state", root.appendingPathComponent("device").path],
            environment: [
                "STOREFRONT_STORE": server.baseURL, "STOREFRONT_ADMIN_TOKEN": AppleServerAPIClientTests.adminToken,
            ])
        #expect(
            cancelled.status == 0
                && cancelled.stdout.hasPrefix(
                    "retention message (default): See you soon?\n  Your lessons stay saved.\nauto-renew off \(id): done"
                ),
            "\(cancelled.stdout)\n\(cancelled.stderr)")
    }
}
