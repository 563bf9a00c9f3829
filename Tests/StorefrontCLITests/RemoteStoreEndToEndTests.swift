import Foundation
import TestSupport
import Testing

/// Clients (`storefront … --store URL`, each with its own state directory, like separate devices)
/// against the real `storefront serve`.
@Suite(.serialized) struct RemoteStoreEndToEndTests {
    static let token = "e2e-admin-token-0123456789"
    static let gems = "com.example.storefront.gems.100"
    static let removeAds = "com.example.storefront.removeads"

    /// Runs a client command against `server`, with its own state directory (its app ledger).
    func client(_ arguments: [String], server: ServeProcess, state: URL, admin: Bool = false) throws
        -> Executable.Result
    {
        var environment = ["STOREFRONT_STORE": server.baseURL]
        if admin { environment["STOREFRONT_ADMIN_TOKEN"] = Self.token }
        return try Executable.run(arguments + ["--state", state.path], environment: environment)
    }

    func lines(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// `manage create --store URL` goes through `POST /admin/transactions`: the served store makes
    /// the past-dated purchase, and a device's `transactions` reads it from there.
    @Test func aTransactionMadeOutsideTheDeviceIsCreatedOnTheServedStore() async throws {
        let root = scratchDirectory("storefront-create")
        let server = try ServeProcess.start(
            db: root.appendingPathComponent("db"), arguments: ["--admin-token", Self.token])
        defer { server.stop() }
        let device = root.appendingPathComponent("device")
        let created = try client(
            ["manage", "create", Self.removeAds, "--account", "kenji", "--date", "2026-01-15T10:00:00Z"],
            server: server, state: device, admin: true)
        #expect(created.status == 0, "\(created.stderr)")
        #expect(
            created.stdout.hasPrefix("create \(Self.removeAds) --account kenji --date 2026-01-15T10:00:00Z: done; "))
        let again = try client(
            ["manage", "create", Self.removeAds, "--account", "kenji", "--date", "2026-02-15T10:00:00Z"],
            server: server, state: device, admin: true)
        #expect(again.status == 1 && again.stderr.contains("already owns"), "\(again.stderr)")
        let listed = try client(["transactions", "--account", "kenji", "--json"], server: server, state: device)
        #expect(listed.stdout.contains(Self.removeAds), "\(listed.stdout)")
    }

    /// A device used with the simulated store, then with a fresh server, then with another fresh
    /// server: each store is a store of its own (the ids may even repeat), and each store's purchase
    /// is credited.
    @Test func aDeviceMovingBetweenStoresIsCreditedForEveryPurchase() async throws {
        let root = scratchDirectory("storefront-move")
        let device = root.appendingPathComponent("device")
        let local = try Executable.run(["buy", Self.gems, "--account", "alice", "--json", "--state", device.path])
        #expect(local.status == 0, "\(local.stderr)")
        var ids = [try #require(lines(local.stdout).last?["transactionId"] as? String)]
        for name in ["first", "second"] {
            let server = try ServeProcess.start(
                db: root.appendingPathComponent(name), arguments: ["--admin-token", Self.token])
            defer { server.stop() }
            let bought = try client(["buy", Self.gems, "--account", "alice", "--json"], server: server, state: device)
            #expect(bought.status == 0, "\(bought.stderr)")
            let steps = lines(bought.stdout)
            ids.append(try #require(steps.last?["transactionId"] as? String))
            #expect(
                steps.contains { $0["step"] as? String == "delivered" && $0["firstTime"] as? Bool == true },
                "\(bought.stdout)")
            #expect(
                bought.stderr.contains("storefront: note: this device's purchases were recorded with store"),
                "\(bought.stderr)")
            let again = try client(["wallet", "--account", "alice", "--json"], server: server, state: device)
            #expect(!again.stderr.contains("note:"), "the change is said once: \(again.stderr)")
            let balances =
                (try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])?["balances"]
                as? [String: Int]
            #expect(balances == ["gems": 100 * ids.count])
        }
        #expect(ids.count == 3, "\(ids)")
    }

    @Test func twoClientsOnOneAccountSeeTheSameTransactionsAndTheSecondRestores() async throws {
        let root = scratchDirectory("storefront-e2e")
        let server = try ServeProcess.start(
            db: root.appendingPathComponent("server"), arguments: ["--admin-token", Self.token])
        defer { server.stop() }
        let phone = root.appendingPathComponent("phone")
        let tablet = root.appendingPathComponent("tablet")

        let bought = try client(["buy", Self.removeAds, "--account", "alice", "--json"], server: server, state: phone)
        #expect(bought.status == 0, "\(bought.stderr)")
        let result = try #require(lines(bought.stdout).last)
        #expect(result["result"] as? String == "purchased")
        #expect(result["finished"] as? Bool == true)
        let id = try #require(result["transactionId"] as? String)

        // The tablet sees the phone's purchase: one store.
        let listed = try client(["transactions", "--account", "alice", "--json"], server: server, state: tablet)
        #expect(listed.status == 0, "\(listed.stderr)")
        let history = try #require(
            (try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any])?["history"]
                as? [[String: Any]])
        #expect(history.map { $0["transactionId"] as? String } == [id])
        #expect(history.first?["finished"] as? Bool == true)

        // Restore on the tablet: a new restored transaction pointing at the phone's, delivered there once.
        let restored = try client(["restore", "--account", "alice", "--json"], server: server, state: tablet)
        #expect(restored.status == 0, "\(restored.stderr)")
        let steps = lines(restored.stdout)
        let update = try #require(steps.first { $0["state"] as? String == "restored" })
        #expect(update["productId"] as? String == Self.removeAds)
        #expect(steps.contains { $0["step"] as? String == "delivered" && $0["firstTime"] as? Bool == true })
        #expect(steps.contains { $0["step"] as? String == "verified" })
        #expect(steps.last?["result"] as? String == "restored")
        let all = try await HTTP.send("GET", server.baseURL + "/v1/accounts/alice/transactions")
        let transactions = try #require(all.json["transactions"] as? [[String: Any]])
        #expect(transactions.count == 2)
        #expect(transactions.first?["originalTransactionId"] as? String == id)
        // The phone's wallet shows what the store says the account owns.
        let wallet = try client(["wallet", "--account", "alice", "--json"], server: server, state: phone)
        let owned =
            (try JSONSerialization.jsonObject(with: Data(wallet.stdout.utf8)) as? [String: Any])?["owned"]
            as? [[String: Any]]
        #expect(owned?.map { $0["productId"] as? String } == [Self.removeAds])
    }

    @Test func askToBuyApprovedByAThirdClient() async throws {
        let root = scratchDirectory("storefront-e2e")
        let server = try ServeProcess.start(
            db: root.appendingPathComponent("server"), arguments: ["--admin-token", Self.token])
        defer { server.stop() }
        let child = root.appendingPathComponent("child")
        let asked = try client(["buy", Self.removeAds, "--account", "kid", "--json"], server: server, state: child)
        #expect(asked.status == 0, "\(asked.stderr)")
        let result = try #require(lines(asked.stdout).last)
        #expect(result["result"] as? String == "deferred")
        let id = try #require(result["transactionId"] as? String)

        // Without the token the parent is refused; with it, approved.
        let parent = root.appendingPathComponent("parent")
        let refused = try client(["manage", "approve", id, "--account", "kid"], server: server, state: parent)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("admin token"))
        let approved = try client(
            ["manage", "approve", id, "--account", "kid"], server: server, state: parent, admin: true)
        #expect(approved.status == 0, "\(approved.stderr)")
        #expect(approved.stdout.contains("\(id) is purchased"))

        // The child's next launch delivers the approved purchase, verifies and finishes it.
        let next = try client(["restore", "--account", "kid", "--json"], server: server, state: child)
        let steps = lines(next.stdout)
        #expect(steps.contains { $0["state"] as? String == "purchased" && $0["transactionId"] as? String == id })
        #expect(steps.contains { $0["step"] as? String == "finished" && $0["transactionId"] as? String == id })
    }

    /// The server dies (SIGKILL) while the purchase waits out its latency; it is restarted on the
    /// same port and state. The client, long-polling from its cursor, completes the purchase once.
    @Test func aServerKilledMidPurchaseCompletesThePurchaseExactlyOnce() async throws {
        let root = scratchDirectory("storefront-e2e")
        let db = root.appendingPathComponent("server")
        let first = try ServeProcess.start(db: db, arguments: ["--admin-token", Self.token])
        let port = first.port
        let device = root.appendingPathComponent("device")
        let set = try client(["manage", "set", "latency", "4000"], server: first, state: device, admin: true)
        #expect(set.status == 0, "\(set.stderr)")

        let output = root.appendingPathComponent("buy.txt")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let buyer = try SpawnedProcess(
            executable: Executable.url.path,
            arguments: [
                "buy", Self.gems, "--account", "alice", "--json", "--store", first.baseURL, "--state", device.path,
            ],
            environment: ProcessInfo.processInfo.environment, directory: Executable.repositoryRoot,
            output: output.path, errors: "/dev/null")
        defer { if buyer.isRunning { _ = kill(buyer.processIdentifier, SIGKILL) } }

        // Wait for the payment to be in the store, still purchasing, then kill the server. The
        // buyer may take seconds to start when other tests load the machine; the payment then
        // stays purchasing for its 4 s of latency, which polls every 25 ms see.
        var purchasing = false
        let appeared = ContinuousClock.now.advanced(by: .seconds(60))
        while !purchasing, ContinuousClock.now < appeared {
            let list = try? await HTTP.send("GET", first.baseURL + "/v1/accounts/alice/transactions")
            purchasing =
                (list?.json["transactions"] as? [[String: Any]])?.contains { $0["state"] as? String == "purchasing" }
                == true
            if !purchasing { try await Task.sleep(for: .milliseconds(25)) }
        }
        #expect(purchasing)
        #expect(first.signal(SIGKILL))
        try await Task.sleep(for: .seconds(1))
        let second = try ServeProcess.start(db: db, port: port, arguments: ["--admin-token", Self.token])
        defer { second.stop() }

        let deadline = Date().addingTimeInterval(60)
        while buyer.isRunning, Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        #expect(!buyer.isRunning)
        buyer.waitUntilExit()
        #expect(buyer.terminationStatus == 0)
        let steps = lines((try? String(contentsOf: output, encoding: .utf8)) ?? "")
        #expect(steps.last?["result"] as? String == "purchased")
        #expect(steps.last?["finished"] as? Bool == true)
        #expect(steps.filter { $0["step"] as? String == "delivered" }.count == 1)

        // Exactly one transaction, purchased and finished, and one credit in the device's wallet.
        let list = try await HTTP.send("GET", second.baseURL + "/v1/accounts/alice/transactions")
        let transactions = try #require(list.json["transactions"] as? [[String: Any]])
        #expect(transactions.count == 1)
        #expect(transactions.first?["state"] as? String == "purchased")
        #expect(transactions.first?["finished"] as? Bool == true)
        let wallet = try client(["wallet", "--account", "alice", "--json"], server: second, state: device)
        let balances =
            (try JSONSerialization.jsonObject(with: Data(wallet.stdout.utf8)) as? [String: Any])?["balances"]
            as? [String: Int]
        #expect(balances == ["gems": 100])
    }

    /// Chaos run finding: a client relaunched while its server restarted failed at once with
    /// "…/v1/catalog: could not be downloaded", before any of its requests that are retried; the
    /// store's catalog is now retried with the same budget.
    @Test func aClientLaunchedWhileItsServerRestartsWaitsForIt() async throws {
        let root = scratchDirectory("storefront-e2e")
        let db = root.appendingPathComponent("server")
        let first = try ServeProcess.start(db: db, arguments: ["--admin-token", Self.token])
        let port = first.port
        #expect(first.signal(SIGKILL))

        let device = root.appendingPathComponent("device")
        let output = root.appendingPathComponent("transactions.txt")
        let errors = root.appendingPathComponent("transactions.err")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        let client = try SpawnedProcess(
            executable: Executable.url.path,
            arguments: [
                "transactions", "--account", "alice", "--json", "--store", first.baseURL, "--state", device.path,
            ],
            environment: ProcessInfo.processInfo.environment.merging(["STOREFRONT_RETRY_SECONDS": "30"]) { _, new in
                new
            },
            directory: Executable.repositoryRoot, output: output.path, errors: errors.path)
        defer { if client.isRunning { _ = kill(client.processIdentifier, SIGKILL) } }

        try await Task.sleep(for: .seconds(1.5))
        #expect(
            client.isRunning,
            "gave up while the server was down: \((try? String(contentsOf: errors, encoding: .utf8)) ?? "")")
        let second = try ServeProcess.start(db: db, port: port, arguments: ["--admin-token", Self.token])
        defer { second.stop() }
        let deadline = Date().addingTimeInterval(60)
        while client.isRunning, Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        #expect(!client.isRunning)
        client.waitUntilExit()
        #expect(client.terminationStatus == 0, "\((try? String(contentsOf: errors, encoding: .utf8)) ?? "")")
        let listed = try JSONSerialization.jsonObject(with: Data(contentsOf: output)) as? [String: Any]
        #expect(listed?["history"] as? [Any] != nil)
    }

    @Test func anUnreachableStoreIsReportedClearly() throws {
        let result = try Executable.run(
            [
                "transactions", "--store", "http://127.0.0.1:9", "--catalog", "products.json",
                "--state", scratchDirectory("storefront-e2e").path,
            ],
            environment: ["STOREFRONT_RETRY_SECONDS": "1"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("store unreachable"))
    }
}
