import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Product ids of products.json used by the store command tests.
enum ProductID {
    /// Consumable; one unit credits 100 to the `gems` balance.
    static let gems = "com.example.storefront.gems.100"
    static let removeAds = "com.example.storefront.removeads"
    static let monthly = "com.example.storefront.premium.monthly"
    /// Non-renewing subscription (P3M).
    static let seasonPass = "com.example.storefront.pass.season"
    static let theme = "com.example.storefront.theme.dark"
    /// Not sold in the CHN storefront.
    static let lifetime = "com.example.storefront.pro.lifetime"
}

/// A temporary directory for one test: `state` is passed as `--state`, `logs` keeps child output.
/// Removed when the last reference goes away.
final class StateDir: Sendable {
    let root: URL

    init(_ label: String = #function) throws {
        let safe = label.filter { $0.isLetter || $0.isNumber }
        root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "storefront-\(safe.prefix(40))-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("logs"), withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    /// The state directory itself (created by the first command).
    var path: String { root.appendingPathComponent("state").path }
    var storeDatabase: String { path + "/store.sqlite" }
    var appDatabase: String { path + "/app.sqlite" }

    /// products.json changed by `change`, written beside the state directory (a new file each call).
    func writeCatalog(_ change: (inout [String: Any]) -> Void) throws -> URL {
        let original = try Data(contentsOf: Executable.repositoryRoot.appendingPathComponent("products.json"))
        guard var root = try JSONSerialization.jsonObject(with: original) as? [String: Any] else {
            throw CocoaError(.fileReadCorruptFile)
        }
        change(&root)
        let url = self.root.appendingPathComponent("catalog-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: root).write(to: url)
        return url
    }

    /// Runs `storefront ARGUMENTS --state DIR` to completion (killed and recorded as an issue after `timeout`).
    func run(
        _ arguments: [String], timeout: TimeInterval = 60,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> CommandRun {
        let child = try Child(arguments + ["--state", path], logs: root.appendingPathComponent("logs"))
        if !child.wait(timeout: timeout) {
            child.kill()
            Issue.record(
                "storefront \(arguments.joined(separator: " ")) did not exit within \(Int(timeout)) s; killed",
                sourceLocation: sourceLocation)
        }
        return try CommandRun(
            arguments: arguments, status: child.status, stdout: child.stdout(), stderr: child.stderr())
    }

    /// Starts `storefront ARGUMENTS --state DIR` without waiting, for the lock and crash tests.
    func start(_ arguments: [String]) throws -> Child {
        try Child(arguments + ["--state", path], logs: root.appendingPathComponent("logs"))
    }

    /// `buy ID --json …`: JSON Lines.
    func buy(_ productId: String, _ extra: String..., sourceLocation: SourceLocation = #_sourceLocation) throws
        -> CommandRun
    {
        try run(["buy", productId, "--json"] + extra, sourceLocation: sourceLocation)
    }

    /// `manage WORDS`, which must succeed.
    @discardableResult
    func manage(_ words: String..., sourceLocation: SourceLocation = #_sourceLocation) throws -> CommandRun {
        try manage(words, sourceLocation: sourceLocation)
    }

    @discardableResult
    func manage(_ words: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> CommandRun {
        let result = try run(["manage"] + words, sourceLocation: sourceLocation)
        try #require(
            result.status == 0, "manage \(words.joined(separator: " ")): \(result.stderr)",
            sourceLocation: sourceLocation)
        return result
    }

    /// `transactions --json`, decoded (and required to succeed).
    func transactions(_ extra: String..., sourceLocation: SourceLocation = #_sourceLocation) throws
        -> TransactionsOutput
    {
        try run(["transactions", "--json"] + extra, sourceLocation: sourceLocation).decode(
            TransactionsOutput.self, sourceLocation: sourceLocation)
    }

    /// `wallet --json`, decoded (and required to succeed).
    func wallet(_ extra: String..., sourceLocation: SourceLocation = #_sourceLocation) throws -> WalletOutput {
        try run(["wallet", "--json"] + extra, sourceLocation: sourceLocation).decode(
            WalletOutput.self, sourceLocation: sourceLocation)
    }

    /// Rows of the app's `deliveries` table, read with python3's sqlite3 module (not through storefront).
    func deliveries() throws -> [Delivery] {
        try query(
            appDatabase,
            "SELECT transaction_id AS transactionId, product_id AS productId, quantity FROM deliveries ORDER BY rowid"
        )
        .map {
            Delivery(
                transactionId: $0["transactionId"] as? String ?? "", productId: $0["productId"] as? String ?? "",
                quantity: $0["quantity"] as? Int ?? 0)
        }
    }

    /// Runs one read-only SQL query on a state file with python3's sqlite3 module, as another program
    /// (or a curious user) would; each row as a dictionary keyed by column name.
    func query(_ database: String, _ sql: String) throws -> [[String: Any]] {
        let script = """
            import json, sqlite3, sys
            db = sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True)
            cursor = db.execute(sys.argv[2])
            names = [column[0] for column in cursor.description]
            print(json.dumps([dict(zip(names, row)) for row in cursor.fetchall()]))
            """
        let output = try Python.run(script, arguments: [database, sql])
        return try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])
    }
}

/// What one command printed and how it exited.
struct CommandRun: CustomStringConvertible {
    let arguments: [String]
    let status: Int32
    let stdout: String
    let stderr: String

    var description: String {
        "storefront \(arguments.joined(separator: " ")) → \(status)\nstdout: \(stdout)\nstderr: \(stderr)"
    }

    /// Every stdout line as a JSON object; a line that is not one is an issue.
    var lines: [[String: Any]] {
        stdout.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                Issue.record("not a JSON object line: \(line)")
                return nil
            }
            return object
        }
    }

    /// The `{"result": …}` line, required to be the last one.
    func result(sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let last = try #require(lines.last, "no output: \(self)", sourceLocation: sourceLocation)
        try #require(last["result"] != nil, "last line is not a result: \(self)", sourceLocation: sourceLocation)
        return last
    }

    /// Transaction updates (lines with a `state`).
    var updates: [[String: Any]] { lines.filter { $0["state"] != nil } }

    /// Each line's kind: the update's state, the step's name, or "result".
    var kinds: [String] {
        lines.map { ($0["step"] as? String) ?? ($0["state"] as? String) ?? ($0["result"] != nil ? "result" : "?") }
    }

    /// App steps named `name`.
    func steps(_ name: String) -> [[String: Any]] { lines.filter { $0["step"] as? String == name } }

    /// The transaction id of the command's own purchase (the result line's).
    func transactionId(sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try #require(
            try result(sourceLocation: sourceLocation)["transactionId"] as? String, "\(self)",
            sourceLocation: sourceLocation)
    }

    func decode<T: Decodable>(_ type: T.Type, sourceLocation: SourceLocation = #_sourceLocation) throws -> T {
        try #require(status == 0, "\(self)", sourceLocation: sourceLocation)
        do {
            return try JSONDecoder().decode(type, from: Data(stdout.utf8))
        } catch {
            Issue.record("cannot decode \(type): \(error)\n\(self)", sourceLocation: sourceLocation)
            throw error
        }
    }

    func requireSuccess(sourceLocation: SourceLocation = #_sourceLocation) throws {
        try #require(status == 0, "\(self)", sourceLocation: sourceLocation)
    }

    /// The whole stdout as one JSON object (status 0 required).
    func object(sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        try #require(status == 0, "\(self)", sourceLocation: sourceLocation)
        return try #require(
            try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any], "\(self)",
            sourceLocation: sourceLocation)
    }
}

/// `storefront transactions --json`.
struct TransactionsOutput: Decodable {
    let unfinished: [TransactionRecord]
    let history: [TransactionRecord]

    func transaction(_ id: String) -> TransactionRecord? { history.first { $0.transactionId == id } }
}

struct TransactionRecord: Decodable, Equatable {
    struct Failure: Decodable, Equatable {
        let code: Int
        let domain: String
        let name: String
        let message: String
    }

    let transactionId: String
    let originalTransactionId: String
    let productId: String
    let state: String
    let quantity: Int
    let purchaseDate: String
    let finished: Bool
    let finishedBy: String?
    let orderId: String?
    var appStoreOrderId: String? = nil
    let error: Failure?
    let price: String?
    let currency: String?
    let expirationDate: String?
    let offerType: String?
    let offerId: String?
    let offerPaymentMode: String?
    let revocationDate: String?
    let revocationReason: String?
    let isUpgraded: Bool?
    let transactionReason: String?
    let failureContext: String?
    let upgradeRefund: String?
}

/// `storefront wallet --json`.
struct WalletOutput: Decodable {
    struct Owned: Decodable, Equatable {
        let productId: String
        let title: String
        let transactionId: String
        let purchaseDate: String
    }

    struct Subscription: Decodable, Equatable {
        let productId: String
        let title: String
        let transactionId: String
        let originalTransactionId: String
        let expiresDate: String
        let active: Bool
        let willAutoRenew: Bool
        let secondsLeft: Int
        let state: String
        let periods: [String]
        let renewal: Renewal?
    }

    struct Renewal: Decodable, Equatable {
        let willAutoRenew: Bool
        let autoRenewProductId: String
        let expirationReason: String?
        let isInBillingRetry: Bool
        let gracePeriodExpiresDate: String?
        let priceIncreaseStatus: String?
        var renewalPrice: String? = nil
    }

    struct Pending: Decodable, Equatable {
        let transactionId: String
        let productId: String
        let state: String
        let since: String
        let waitingFor: String
    }

    let account: String
    let storefront: String
    let balances: [String: Int]
    let owned: [Owned]
    let subscriptions: [Subscription]
    let pending: [Pending]
}

/// A row of the app ledger's `deliveries` table.
struct Delivery: Decodable, Equatable {
    let transactionId: String
    let productId: String
    let quantity: Int
}

/// A running `storefront` process whose output goes to files (so nothing can fill a pipe).
final class Child: @unchecked Sendable {
    let process: SpawnedProcess
    let arguments: [String]
    private let outURL: URL
    private let errURL: URL

    init(_ arguments: [String], logs: URL) throws {
        self.arguments = arguments
        let name = UUID().uuidString
        outURL = logs.appendingPathComponent("\(name).out")
        errURL = logs.appendingPathComponent("\(name).err")
        var environment = ProcessInfo.processInfo.environment
        for key in ["LANG", "LC_ALL", "LC_MESSAGES", "STOREFRONT_HOME"] { environment.removeValue(forKey: key) }
        process = try SpawnedProcess(
            executable: Executable.url.path, arguments: arguments, environment: environment,
            directory: Executable.repositoryRoot, output: outURL.path, errors: errURL.path)
    }

    /// Polls until the process exits; false when `timeout` passed first.
    func wait(timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() > deadline { return false }
            Thread.sleep(forTimeInterval: 0.005)
        }
        process.waitUntilExit()
        return true
    }

    /// Polls until the process has printed something (or exited); false when `timeout` passed first.
    func waitForOutput(timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while ((try? FileManager.default.attributesOfItem(atPath: outURL.path)[.size] as? Int) ?? 0) == 0
            && process.isRunning
        {
            if Date() > deadline { return false }
            Thread.sleep(forTimeInterval: 0.001)
        }
        return true
    }

    /// SIGKILL, as a crash or the OOM killer would; waits for the process to be gone.
    func kill() {
        if process.isRunning { sendKill(process.processIdentifier) }
        process.waitUntilExit()
    }

    /// The exit status, or 128+signal when a signal ended it.
    var status: Int32 {
        process.wasSignalled ? 128 + process.terminationStatus : process.terminationStatus
    }

    var wasKilled: Bool { process.wasSignalled }

    func stdout() throws -> String { String(decoding: try Data(contentsOf: outURL), as: UTF8.self) }
    func stderr() throws -> String { String(decoding: try Data(contentsOf: errURL), as: UTF8.self) }
}

/// `kill(2)` with SIGKILL, outside `Child` whose `kill()` would shadow it.
private func sendKill(_ pid: Int32) {
    _ = kill(pid, SIGKILL)
}

/// python3 with its sqlite3 module, to look at the state files as another program would.
enum Python {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func run(_ script: String, arguments: [String] = []) throws -> String {
        let ran = try SpawnedProcess.run(
            executable: "/usr/bin/env", arguments: ["python3", "-c", script] + arguments,
            environment: ProcessInfo.processInfo.environment,
            directory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        guard ran.status == 0 else {
            throw Failure(description: "python3 exited \(ran.status): \(String(decoding: ran.stderr, as: UTF8.self))")
        }
        return String(decoding: ran.stdout, as: UTF8.self)
    }
}
