import Foundation

/// `storefront serve` started as a child process on a loopback port (0: a free one, read back from
/// its start-up line), with its state in `db`. `stop()` ends it with SIGKILL if it still runs.
public final class ServeProcess: @unchecked Sendable {
    public struct StartFailure: Error, CustomStringConvertible {
        public let description: String

        public init(description: String) {
            self.description = description
        }
    }

    public let process: SpawnedProcess
    public let port: Int
    public let db: URL
    public let stdoutFile: URL
    public let stderrFile: URL

    private init(process: SpawnedProcess, port: Int, db: URL, stdoutFile: URL, stderrFile: URL) {
        self.process = process
        self.port = port
        self.db = db
        self.stdoutFile = stdoutFile
        self.stderrFile = stderrFile
    }

    public var baseURL: String { "http://127.0.0.1:\(port)" }
    public var stdout: String { (try? String(contentsOf: stdoutFile, encoding: .utf8)) ?? "" }
    public var stderr: String { (try? String(contentsOf: stderrFile, encoding: .utf8)) ?? "" }

    /// `umask`: when set, the server starts under it (through `sh -c 'umask …; exec …'`), to show
    /// the permissions of what it creates do not depend on the caller's. `defaultDB`: no `--db`
    /// (the server uses `$STOREFRONT_HOME/server`); `db` then only says where the logs go.
    public static func start(
        db: URL, port: Int = 0, arguments: [String] = [], environment: [String: String] = [:],
        umask: String? = nil, defaultDB: Bool = false
    ) throws -> ServeProcess {
        let logs = db.deletingLastPathComponent().appendingPathComponent("serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
        let out = logs.appendingPathComponent("stdout.txt")
        let err = logs.appendingPathComponent("stderr.txt")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let serve =
            [
                "serve", "--port", String(port), "--catalog",
                Executable.repositoryRoot.appendingPathComponent("products.json").path,
            ]
            + (defaultDB ? [] : ["--db", db.path]) + arguments
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { _, new in new }
        // posix_spawn, not Foundation's Process: see SpawnedProcess.
        let process =
            if let umask {
                try SpawnedProcess(
                    executable: "/bin/sh",
                    arguments: ["-c", "umask \(umask) && exec \"$0\" \"$@\"", Executable.url.path] + serve,
                    environment: env, directory: Executable.repositoryRoot, output: out.path, errors: err.path)
            } else {
                try SpawnedProcess(
                    executable: Executable.url.path, arguments: serve, environment: env,
                    directory: Executable.repositoryRoot, output: out.path, errors: err.path)
            }
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, process.isRunning {
            let text = (try? String(contentsOf: out, encoding: .utf8)) ?? ""
            if let match = text.firstMatch(of: /listening on http:\/\/[^:]+:(\d+)/), let bound = Int(match.1) {
                return ServeProcess(process: process, port: bound, db: db, stdoutFile: out, stderrFile: err)
            }
            usleep(20_000)
        }
        let stderr = (try? String(contentsOf: err, encoding: .utf8)) ?? ""
        if process.isRunning {
            _ = kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        throw StartFailure(description: "storefront serve did not start: \(stderr)")
    }

    /// A server in `root/server` that takes App Store Server API tokens of a key made here with
    /// openssl, as App Store Connect hands one out (`root/AuthKey_KEYID.p8`).
    public static func startWithAPIKey(root: URL, issuer: String, keyId: String, adminToken: String) throws -> (
        ServeProcess, URL
    ) {
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let keyFile = root.appendingPathComponent("AuthKey_\(keyId).p8")
        let openssl = try Executable.shell(
            "openssl ecparam -name prime256v1 -genkey -noout | openssl pkcs8 -topk8 -nocrypt -out '\(keyFile.path)'")
        guard openssl.status == 0 else {
            throw StartFailure(description: "openssl could not make a key: \(openssl.stderr)")
        }
        let server = try start(
            db: root.appendingPathComponent("server"),
            arguments: ["--admin-token", adminToken, "--api-key", "\(issuer):\(keyId):\(keyFile.path)"])
        return (server, keyFile)
    }

    /// The admin token the server printed (when it generated one).
    public var printedToken: String? {
        stdout.firstMatch(of: /admin token (\S+)/).map { String($0.1) }
    }

    /// Sends `signal` and waits up to `timeout` seconds; true if the process ended.
    @discardableResult
    public func signal(_ signal: Int32, timeout: TimeInterval = 15) -> Bool {
        guard process.isRunning else { return true }
        _ = kill(process.processIdentifier, signal)
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if !process.isRunning { process.waitUntilExit() }
        return !process.isRunning
    }

    public func stop() {
        signal(SIGKILL)
    }
}
