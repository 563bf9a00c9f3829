import Foundation
import StoreClient
import StoreCore
import StoreKitModel
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A client waits for its store within `$STOREFRONT_RETRY_SECONDS`, whatever the server does.
/// Before, `buy` whose payment had been accepted waited silently for as long as the server was
/// stopped (153 s in a tester's run), and one request to a silent server took its whole request
/// timeout (10 s) whatever the budget. The bounds below are safety margins, far above the budgets
/// tested.
@Suite(.serialized) struct PaymentDeadlineTests {
    static let token = "deadline-admin-token-0123456789"
    static let gems = "com.example.storefront.gems.100"

    /// Reads `file` until `condition` holds of it or `seconds` pass.
    func waitFor(_ file: URL, seconds: TimeInterval, _ condition: (String) -> Bool) async throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var text = ""
        while Date() < deadline {
            text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            if condition(text) { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        return text
    }

    @Test func buyGivesUpOnAStoppedServerAndReportsThePaymentUnconfirmed() async throws {
        let root = scratchDirectory("storefront-deadline")
        let server = try ServeProcess.start(
            db: root.appendingPathComponent("server"), arguments: ["--admin-token", Self.token])
        defer {
            _ = kill(server.process.processIdentifier, SIGCONT)
            server.stop()
        }
        // The payment stays purchasing for the store's longest latency, ten minutes: on a busy
        // machine this test may not run again for over a minute after the payment is accepted.
        let slow = try Executable.run(
            [
                "manage", "set", "latency", "\(TestControls.latencyLimit)", "--store", server.baseURL, "--state",
                root.appendingPathComponent("admin").path,
            ],
            environment: ["STOREFRONT_ADMIN_TOKEN": Self.token])
        try #require(slow.status == 0, "\(slow.stderr)")

        let output = root.appendingPathComponent("buy.out")
        let errors = root.appendingPathComponent("buy.err")
        for file in [output, errors] { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
        let buyer = try SpawnedProcess(
            executable: Executable.url.path,
            arguments: [
                "buy", Self.gems, "--account", "alice", "--store", server.baseURL, "--state",
                root.appendingPathComponent("device").path,
            ],
            environment: ProcessInfo.processInfo.environment.merging(["STOREFRONT_RETRY_SECONDS": "10"]) { _, new in
                new
            },
            directory: Executable.repositoryRoot, output: output.path, errors: errors.path)
        defer { if buyer.isRunning { _ = kill(buyer.processIdentifier, SIGKILL) } }

        // A budget of 10 s, not less: on a busy machine the purchase itself may take seconds.
        // A safety bound, not a wait: on a machine running several builds beside the tests the
        // buyer took more than 120 s to start and be answered.
        let accepted = try await waitFor(output, seconds: 300) { $0.contains("purchasing") }
        try #require(
            accepted.contains("purchasing"),
            "\(accepted)\n\((try? String(contentsOf: errors, encoding: .utf8)) ?? "")")
        #expect(kill(server.process.processIdentifier, SIGSTOP) == 0)
        let stopped = Date()
        while buyer.isRunning, Date().timeIntervalSince(stopped) < 45 { try await Task.sleep(for: .milliseconds(50)) }
        let waited = Date().timeIntervalSince(stopped)
        #expect(!buyer.isRunning, "buy still waits \(Int(waited)) s after its server stopped")
        guard !buyer.isRunning else { return }
        buyer.waitUntilExit()
        let stderr = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        let stdout = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        #expect(buyer.terminationStatus == 1)
        #expect(stderr.contains("storefront: store unreachable at \(server.baseURL)"), "\(stderr)")
        #expect(stderr.contains("(tried for 10 s; STOREFRONT_RETRY_SECONDS sets how long)"), "\(stderr)")
        #expect(stderr.contains("was accepted, but its outcome is unconfirmed"), "\(stderr)")
        #expect(stdout.contains("result: unconfirmed"), "\(stdout)")
        #expect(waited < 30, "gave up \(waited) s after the server stopped")
    }

    /// One request may take the policy's request timeout, but never past the call's budget: the
    /// TUI's refresh, run with a short budget, says "store unreachable" when it ends.
    @Test func aSilentServerIsUnreachableWhenTheBudgetEndsNotTheRequestTimeout() async throws {
        let server = try DeadlineTests.BadServer("silent")
        try #require(server.port > 0)
        let catalog = try CatalogLoader.decode(
            Array(try Data(contentsOf: Executable.repositoryRoot.appendingPathComponent("products.json"))),
            source: "products.json")
        let store = RemoteStore(
            url: "http://127.0.0.1:\(server.port)", catalog: catalog,
            policy: RetryPolicy(requestTimeout: .seconds(60), budget: .seconds(1)))
        let start = ContinuousClock.now
        await #expect {
            _ = try await store.transactions(account: "alice")
        } throws: { error in
            guard let failure = error as? StoreFailure else { return false }
            return failure.kind == .unavailable && failure.message.contains("store unreachable")
                && failure.message.contains("tried for 1 s")
        }
        let waited = ContinuousClock.now - start
        #expect(waited < .seconds(30), "\(waited)")
    }
}
