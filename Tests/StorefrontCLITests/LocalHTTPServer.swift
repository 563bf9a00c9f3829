import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
    private let streamSocket = Int32(SOCK_STREAM.rawValue)
#elseif canImport(Darwin)
    import Darwin
    private let streamSocket = SOCK_STREAM
#endif

/// `python3 -m http.server` serving a directory on a free loopback port, for `--catalog http://…`.
/// Start it with `start(serving:)`; `stop()` terminates the child process.
final class LocalHTTPServer {
    struct StartFailure: Error, CustomStringConvertible {
        let description: String
    }

    let port: UInt16
    private let process: SpawnedProcess

    private init(port: UInt16, process: SpawnedProcess) {
        self.port = port
        self.process = process
    }

    func url(_ path: String) -> String {
        "http://127.0.0.1:\(port)/\(path)"
    }

    /// Picks a free port, starts the server and waits (polling every 20 ms, for at most 10 s) until it
    /// accepts connections. Retries with another port if the chosen one was taken in between.
    static func start(serving directory: URL) throws -> LocalHTTPServer {
        for _ in 0..<3 {
            let port = try freePort()
            let process = try SpawnedProcess(
                executable: "/usr/bin/env",
                arguments: [
                    "python3", "-m", "http.server", String(port), "--bind", "127.0.0.1", "--directory", directory.path,
                ], environment: ProcessInfo.processInfo.environment, directory: directory, output: "/dev/null",
                errors: "/dev/null")
            for _ in 0..<500 where process.isRunning {
                if accepts(port: port) { return LocalHTTPServer(port: port, process: process) }
                usleep(20_000)
            }
            killAndWait(process)
        }
        throw StartFailure(description: "python3 -m http.server did not start accepting connections")
    }

    func stop() {
        Self.killAndWait(process)
    }

    /// SIGKILL, not `Process.terminate()`: children spawned from the test runner inherit its blocked
    /// signal mask, SIGTERM included, so a terminated server would keep running and the wait would hang.
    private static func killAndWait(_ process: SpawnedProcess) {
        guard process.isRunning else { return }
        _ = kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// A port the kernel considers free: bind to port 0 on the loopback address and read it back.
    private static func freePort() throws -> UInt16 {
        let descriptor = socket(AF_INET, streamSocket, 0)
        guard descriptor >= 0 else { throw StartFailure(description: "socket() failed") }
        defer { close(descriptor) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(descriptor, socketAddress, length) == 0 && getsockname(descriptor, socketAddress, &length) == 0
            }
        }
        guard bound else { throw StartFailure(description: "could not bind a loopback socket") }
        return UInt16(bigEndian: address.sin_port)
    }

    private static func accepts(port: UInt16) -> Bool {
        let descriptor = socket(AF_INET, streamSocket, 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                connect(descriptor, socketAddress, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }
}
