import Foundation
import TestSupport
import Testing

/// Two processes on one state directory: WAL with a busy timeout, and a clear error when a lock
/// is held for longer than that.
@Suite struct StateLockTests {
    /// One `buy` of a parallel loop.
    struct LoopRun: Sendable {
        let loop: Int
        let exited: Bool
        let status: Int32
        let stdout: String
        let stderr: String
    }

    @Test func twoBuyLoopsInParallelLoseAndDoubleNothing() throws {
        let state = try StateDir()
        // Both databases exist before the loops start: two first runs racing on a fresh directory
        // is a separate bug (KnownEngineBugTests.twoFirstRunsOnAFreshDirectoryRaceTheirMigrations).
        try state.run(["transactions"]).requireSuccess()
        let loops = 2
        let buysPerLoop = 10
        let runs = Collected<LoopRun>()
        let failures = Collected<String>()
        DispatchQueue.concurrentPerform(iterations: loops) { loop in
            for _ in 0..<buysPerLoop {
                do {
                    let child = try state.start(["buy", ProductID.gems, "--json"])
                    // A buy takes well under a second; 10 s only catches a hang.
                    let exited = child.wait(timeout: 10)
                    if !exited { child.kill() }
                    runs.append(
                        LoopRun(
                            loop: loop, exited: exited, status: child.status, stdout: try child.stdout(),
                            stderr: try child.stderr()))
                } catch {
                    failures.append("loop \(loop): \(error)")
                }
            }
        }
        #expect(failures.values.isEmpty)
        let all = runs.values
        #expect(all.count == loops * buysPerLoop)

        // See EngineRegressionTests.aSecondProcessLeavesALiveProcesssPurchaseAlone:
        // one process's start-up `resume()` can complete the other's in-flight purchase, which then hangs.
        let hung = all.filter { !$0.exited }
        #expect(hung.isEmpty, "\(hung.count) buy(s) hung: \(hung.map(\.stdout))")
        for run in all where run.exited {
            #expect(run.status == 0, "loop \(run.loop): \(run.stdout)\n\(run.stderr)")
            #expect(Self.lastLine(run.stdout)?["result"] as? String == "purchased")
            #expect(Self.lastLine(run.stdout)?["finished"] as? Bool == true)
        }

        let listed = try state.transactions()
        #expect(listed.history.count == loops * buysPerLoop)
        #expect(Set(listed.history.map(\.transactionId)).count == loops * buysPerLoop)
        #expect(listed.history.allSatisfy { $0.state == "purchased" && $0.finished && $0.quantity == 1 })
        #expect(listed.unfinished.isEmpty)
        // Every run that finished names a transaction of the history, and no two runs name the same one.
        let named = all.filter(\.exited).compactMap { Self.lastTransactionId($0.stdout) }
        #expect(Set(named).count == named.count)
        #expect(Set(named).isSubset(of: Set(listed.history.map(\.transactionId))))

        #expect(try state.wallet().balances == ["gems": 100 * loops * buysPerLoop])
        let deliveries = try state.deliveries()
        #expect(deliveries.count == loops * buysPerLoop)
        #expect(Set(deliveries.map(\.transactionId)) == Set(listed.history.map(\.transactionId)))
        #expect(try state.wallet().pending.isEmpty)
    }

    static func lastLine(_ stdout: String) -> [String: Any]? {
        stdout.split(separator: "\n").last.flatMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    static func lastTransactionId(_ stdout: String) -> String? {
        lastLine(stdout)?["transactionId"] as? String
    }

    /// `leavingALog`: the holder commits a write before it takes the lock, so the file's log is not
    /// empty and opening needs no write; the store then meets the lock in its first write, in
    /// `SimulatedStore.init`, and must say the same (which of the two happened once depended on
    /// whether the earlier process had closed the store before it exited).
    @Test(arguments: [
        ("store.sqlite", "store database", false), ("store.sqlite", "store database", true),
        ("app.sqlite", "app ledger", false),
    ])
    func aLockHeldByAnotherProcessFailsWithAClearMessage(file: String, what: String, leavingALog: Bool) throws {
        let state = try StateDir()
        let first = try state.buy(ProductID.gems)
        #expect(first.status == 0, "\(first)")
        let path = state.path + "/" + file

        let holder = try LockHolder(path: path, leavingALog: leavingALog)
        defer { holder.release() }
        let started = Date()
        let blocked = try state.run(["buy", ProductID.gems, "--json"], timeout: 30)
        let waited = Date().timeIntervalSince(started)
        holder.release()

        #expect(blocked.status == 1, "\(blocked)")
        #expect(blocked.stdout.isEmpty)
        #expect(
            blocked.stderr
                == "storefront: cannot open the \(what) \(path): \(path) is locked by another process (waited 5 s):"
                + " close the other storefront or sqlite3 session using this state directory, or pass a different --state\n"
        )
        // It waited for the busy timeout (5 s) instead of failing at once, and then gave up.
        #expect(waited >= 4.5)
        #expect(waited < 20)

        // Nothing was written and nothing is corrupted: both files pass integrity_check and a buy works.
        for database in [state.storeDatabase, state.appDatabase] {
            #expect(try state.query(database, "PRAGMA integrity_check").first?["integrity_check"] as? String == "ok")
        }
        #expect(try state.transactions().history.count == 1)
        let after = try state.buy(ProductID.gems)
        #expect(after.status == 0, "\(after)")
        #expect(try state.transactions().history.count == 2)
        #expect(try state.wallet().balances == ["gems": 200])
    }
}

/// python3 holding `BEGIN EXCLUSIVE` on a database until released (or 120 s), as a stuck
/// `sqlite3` shell or another program would. Started with `posix_spawn` (Foundation's
/// `Process.run` on Linux can crash the test runner); released by a file it waits for.
final class LockHolder {
    private let process: SpawnedProcess
    private let scratch: URL
    private var released = false

    init(path: String, leavingALog: Bool = false) throws {
        let script = """
            import os, sqlite3, sys, time
            db = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=0)
            if sys.argv[2] == "log":
                version = db.execute("PRAGMA user_version").fetchone()[0]
                db.execute(f"PRAGMA user_version = {version}")  # a commit that changes nothing
            db.execute("BEGIN EXCLUSIVE")
            print("locked", flush=True)
            deadline = time.time() + 120
            while not os.path.exists(sys.argv[3]) and time.time() < deadline:
                time.sleep(0.02)
            db.execute("COMMIT")
            """
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("lock-holder-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let output = scratch.appendingPathComponent("out")
        process = try SpawnedProcess(
            executable: "/usr/bin/env",
            arguments: [
                "python3", "-c", script, path, leavingALog ? "log" : "empty",
                scratch.appendingPathComponent("release").path,
            ],
            environment: ProcessInfo.processInfo.environment, directory: scratch, output: output.path,
            errors: "/dev/null")
        // Wait until the lock is held.
        let deadline = Date().addingTimeInterval(60)
        while !((try? String(contentsOf: output, encoding: .utf8)) ?? "").contains("locked\n") {
            guard process.isRunning, Date() < deadline else {
                throw Python.Failure(description: "python3 exited before taking the lock on \(path)")
            }
            usleep(10_000)
        }
    }

    func release() {
        guard !released else { return }
        released = true
        _ = FileManager.default.createFile(atPath: scratch.appendingPathComponent("release").path, contents: nil)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: scratch)
    }

    deinit {
        release()
    }
}

/// Values appended from several threads.
final class Collected<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Value] = []

    func append(_ value: Value) { lock.withLock { storage.append(value) } }
    var values: [Value] { lock.withLock { storage } }
}
