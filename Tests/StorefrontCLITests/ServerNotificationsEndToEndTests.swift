import Foundation
import TestSupport
import Testing

/// App Store Server Notifications V2 from a real `storefront serve`, received by a backend's
/// receiver that verifies each with Apple's library (app-store-server-library, installed by
/// `.ci/run`): delivery with retries, Apple's notification routes, and the outbox across SIGKILL.
@Suite struct ServerNotificationsEndToEndTests {
    static let issuer = "57246542-96fe-1a63-e053-0824d011072a"
    static let keyId = "2X9R4HXF34"
    static let adminToken = "notify-admin-token-0123"
    static let bundle = "com.example.storefront.demo"

    static func python(_ name: String) -> String {
        Executable.repositoryRoot.appendingPathComponent("Tests/Python/\(name)").path
    }

    @Test func applesLibraryReceivesVerifiesAndReadsBackEveryNotification() async throws {
        let root = scratchDirectory("notifications-apple")
        let (server, keyFile) = try ServeProcess.startWithAPIKey(
            root: root, issuer: Self.issuer, keyId: Self.keyId, adminToken: Self.adminToken)
        defer { server.stop() }
        let result = try Executable.run(python: [
            Self.python("server_notifications.py"), server.baseURL, keyFile.path, Self.issuer, Self.keyId,
            Self.bundle, Self.adminToken, root.path,
        ])
        #expect(
            result.status == 0 && result.stdout.contains("all checks passed"),
            "\(result.stdout)\n\(result.stderr)\n\(server.stderr)")
    }

    @Test func notificationsWrittenBeforeASIGKILLAreDeliveredAfterTheRestartWithTheirUUIDs() async throws {
        let root = scratchDirectory("notifications-kill")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let db = root.appendingPathComponent("server")
        // Until the kill, the receiver refuses everything: every notification stays in the outbox.
        let refusing = try Receiver.start(rootURL: nil, accepted: root.appendingPathComponent("unused"))
        let url = "http://127.0.0.1:\(refusing.port)/apple"
        var server = try ServeProcess.start(db: db, arguments: ["--admin-token", Self.adminToken, "--notify", url])
        defer { server.stop() }
        for _ in 0..<5 {
            let bought = try Executable.run(
                [
                    "buy", "com.example.storefront.gems.100", "--account", "alice", "--state",
                    root.appendingPathComponent("device").path,
                ],
                environment: ["STOREFRONT_STORE": server.baseURL])
            #expect(bought.status == 0, "\(bought.stderr)")
        }
        let before = try await Self.outbox(server)
        #expect(before.count == 5)
        #expect(server.signal(SIGKILL))
        refusing.stop()

        server = try ServeProcess.start(db: db, arguments: ["--admin-token", Self.adminToken, "--notify", url])
        let accepted = root.appendingPathComponent("accepted.jsonl")
        let receiver = try Receiver.start(
            rootURL: server.baseURL + "/.well-known/storefront-root-ca.cer", accepted: accepted, port: refusing.port)
        defer { receiver.stop() }
        let sent = try await HTTP.send(
            "POST", server.baseURL + "/admin/notifications/send-pending",
            headers: ["Authorization": "Bearer \(Self.adminToken)"])
        #expect(sent.status == 200, "\(sent.text)")
        // Generous: the whole suite runs in parallel on two cores; it ends as soon as all arrived.
        let deadline = Date().addingTimeInterval(120)
        var lines: [[String: Any]] = []
        while Date() < deadline {
            lines = Receiver.lines(accepted)
            if lines.count >= before.count { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        let uuids = lines.compactMap { $0["uuid"] as? String }
        #expect(lines.allSatisfy { $0["error"] == nil }, "\(lines)")
        #expect(uuids.sorted() == before.sorted(), "each notification once, with the UUID it had before the kill")
        #expect(Set(lines.compactMap { $0["type"] as? String }) == ["ONE_TIME_CHARGE"])
    }

    @Test func aReceiverThatHangsIsTimedOutAndNeverHoldsUpPayments() async throws {
        let root = scratchDirectory("notifications-hang")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let hanging = try Receiver.start(rootURL: nil, accepted: root.appendingPathComponent("unused"), hang: true)
        defer { hanging.stop() }
        let server = try ServeProcess.start(
            db: root.appendingPathComponent("server"),
            arguments: [
                "--admin-token", Self.adminToken, "--notify", "http://127.0.0.1:\(hanging.port)/apple",
                "--notify-timeout", "0.5", "--notify-concurrency", "1",
            ])
        defer { server.stop() }
        for _ in 0..<3 {
            let bought = try Executable.run(
                [
                    "buy", "com.example.storefront.gems.100", "--account", "alice", "--state",
                    root.appendingPathComponent("device").path,
                ],
                environment: ["STOREFRONT_STORE": server.baseURL])
            #expect(bought.status == 0 && bought.stdout.contains("purchased"), "\(bought.stderr)")
        }
        // Generous: the whole suite runs in parallel on two cores; it ends as soon as all are recorded.
        // The polling runs on threads of its own: the terminal tests' synchronous waits can hold
        // both of the pool's threads for longer than the deadline.
        let (results, last) = try await withTaskExecutorPreference(DispatchExecutor()) {
            try await Self.attemptResults(server, count: 3, within: 120)
        }
        #expect(
            results == ["TIMED_OUT", "TIMED_OUT", "TIMED_OUT"],
            "each attempt timed out and waits for its retry: \(last)\n\(server.stderr)")
    }

    /// The first attempt's result of each notification the server holds, once `count` have one or
    /// `seconds` have passed, with the last answer read.
    static func attemptResults(_ server: ServeProcess, count: Int, within seconds: TimeInterval) async throws
        -> ([String], String)
    {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let reply = try await HTTP.send(
                "GET", server.baseURL + "/admin/notifications", headers: ["Authorization": "Bearer \(adminToken)"])
            let items = reply.json["notifications"] as? [[String: Any]] ?? []
            let results = items.compactMap { (($0["attempts"] as? [[String: Any]])?.first?["result"]) as? String }
            if results.count == count || Date() >= deadline { return (results, reply.text) }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// The UUIDs of the notifications the server holds.
    static func outbox(_ server: ServeProcess) async throws -> [String] {
        let reply = try await HTTP.send(
            "GET", server.baseURL + "/admin/notifications?limit=1000",
            headers: ["Authorization": "Bearer \(adminToken)"])
        let items = reply.json["notifications"] as? [[String: Any]] ?? []
        return items.compactMap { $0["notificationUUID"] as? String }
    }
}

/// `Tests/Python/notification_receiver.py` as a child process on a loopback port.
struct Receiver {
    let process: SpawnedProcess
    let port: Int

    /// `rootURL` nil: a receiver that refuses every delivery (500), without Apple's verifier.
    /// `hang`: one that never answers (with `rootURL` nil).
    static func start(rootURL: String?, accepted: URL, failRate: Double = 0, port: Int = 0, hang: Bool = false) throws
        -> Receiver
    {
        let arguments =
            if let rootURL {
                [
                    "python3", ServerNotificationsEndToEndTests.python("notification_receiver.py"), String(port),
                    rootURL,
                    ServerNotificationsEndToEndTests.bundle, accepted.path, String(failRate),
                ]
            } else {
                ["python3", "-c", Self.refusing, String(port), hang ? "hang" : "refuse"]
            }
        // Its first line, read from a file: a pipe's reader on Linux may wait for more than is there.
        let output = accepted.deletingLastPathComponent().appendingPathComponent("receiver-\(UUID().uuidString).txt")
        let process = try SpawnedProcess(
            executable: "/usr/bin/env", arguments: arguments, environment: ProcessInfo.processInfo.environment,
            directory: Executable.repositoryRoot, output: output.path, errors: "/dev/null")
        let deadline = Date().addingTimeInterval(60)
        var line = ""
        while Date() < deadline, process.isRunning {
            line = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            if let match = line.firstMatch(of: /listening (\d+)\n/), let bound = Int(match.1) {
                return Receiver(process: process, port: bound)
            }
            usleep(20_000)
        }
        Receiver(process: process, port: 0).stop()
        throw ServeProcess.StartFailure(description: "the notification receiver did not start: \(line)")
    }

    /// Refuses every delivery (500), or with `hang` never answers one.
    static let refusing = """
        import sys, time
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
        class H(BaseHTTPRequestHandler):
            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length", "0")))
                if sys.argv[2] == "hang":
                    time.sleep(3600)
                self.send_response(500); self.send_header("Content-Length", "0"); self.end_headers()
            def log_message(self, *a): pass
        ThreadingHTTPServer.daemon_threads = True
        s = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), H)
        print("listening", s.server_address[1], flush=True)
        s.serve_forever()
        """

    /// SIGKILL: a test runner starts its children with SIGTERM blocked.
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    static func lines(_ file: URL) -> [[String: Any]] {
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }
}
