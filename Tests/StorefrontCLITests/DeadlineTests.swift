import Foundation
import TestSupport
import Testing

/// Waits on the network end: a catalog URL that trickles a byte a second or never answers, and a
/// store that accepts connections but never answers, fail within their documented limits and in
/// the right words. Before, the trickle never ended and the silent store took 90 s to fail with
/// "could not be downloaded". The bounds below are safety margins, far above the limits tested.
@Suite struct DeadlineTests {
    /// A loopback server that answers badly: `silent` accepts and says nothing; `trickle` sends a
    /// status line and headers, then a byte a second.
    final class BadServer {
        let process: SpawnedProcess
        let port: Int

        init(_ mode: String) throws {
            let script = """
                import socket, sys, threading, time
                mode = sys.argv[1]
                server = socket.socket(); server.bind(("127.0.0.1", 0)); server.listen(16)
                print(server.getsockname()[1], flush=True)
                def serve(connection):
                    try:
                        connection.recv(65536)
                        if mode == "trickle":
                            connection.sendall(b"HTTP/1.1 200 OK\\r\\nContent-Type: application/json\\r\\nContent-Length: 100000\\r\\n\\r\\n")
                            while True:
                                connection.sendall(b" "); time.sleep(1)
                        time.sleep(600)
                    except OSError:
                        pass
                while True:
                    connection, _ = server.accept()
                    threading.Thread(target=serve, args=(connection,), daemon=True).start()
                """
            let output = FileManager.default.temporaryDirectory.appendingPathComponent(
                "bad-server-\(UUID().uuidString)")
            let child = try SpawnedProcess(
                executable: "/usr/bin/env", arguments: ["python3", "-c", script, mode],
                environment: ProcessInfo.processInfo.environment, directory: Executable.repositoryRoot,
                output: output.path, errors: "/dev/null")
            // Its port, the first line it prints.
            var line = ""
            let deadline = Date().addingTimeInterval(30)
            while !line.hasSuffix("\n"), child.isRunning, Date() < deadline {
                usleep(10_000)
                line = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            }
            try? FileManager.default.removeItem(at: output)
            process = child
            port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        }

        deinit {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    func timed(_ arguments: [String], environment: [String: String] = [:]) throws -> (Executable.Result, TimeInterval) {
        let start = Date()
        let result = try Executable.run(arguments, environment: environment)
        return (result, Date().timeIntervalSince(start))
    }

    @Test(arguments: ["trickle", "silent"])
    func aCatalogURLThatNeverCompletesEndsAtItsTimeout(mode: String) throws {
        let server = try BadServer(mode)
        try #require(server.port > 0)
        let (result, seconds) = try timed([
            "products", "--catalog", "http://127.0.0.1:\(server.port)/products.json", "--catalog-timeout", "2",
        ])
        #expect(result.status == 1)
        #expect(result.stderr.contains("could not be downloaded: no complete answer within 2 s"), "\(result.stderr)")
        #expect(seconds < 30, "took \(seconds) s")
    }

    @Test func aStoreThatNeverAnswersIsUnreachableWithinItsBudget() throws {
        let server = try BadServer("silent")
        try #require(server.port > 0)
        let (result, seconds) = try timed(
            [
                "wallet", "--store", "http://127.0.0.1:\(server.port)", "--state",
                NSTemporaryDirectory() + UUID().uuidString,
            ],
            environment: ["STOREFRONT_RETRY_SECONDS": "2"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("store unreachable at http://127.0.0.1:\(server.port)"), "\(result.stderr)")
        #expect(result.stderr.contains("(tried for 2 s; STOREFRONT_RETRY_SECONDS sets how long)"), "\(result.stderr)")
        #expect(seconds < 30, "took \(seconds) s")
    }

    @Test func aBadCatalogTimeoutIsAUsageError() throws {
        let result = try Executable.run(["products", "--catalog-timeout", "0"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--catalog-timeout 0.0: expected seconds"), "\(result.stderr)")
    }
}
