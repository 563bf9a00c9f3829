import Foundation
import StoreCore

#if canImport(Glibc)
    import Glibc
#endif

/// A name held by one process on this machine for as long as it lives, whatever its environment:
/// a listening Unix socket in Linux's abstract namespace, which no `TMPDIR`, `XDG_RUNTIME_DIR` or
/// file permission moves or hides, and which the kernel frees when the process dies however it
/// ends. A second claim of the name learns the holder's pid from the socket (`SO_PEERCRED`).
public final class MachineClaim: Sendable {
    private let descriptor: Int32

    /// Claims `name` (at most 100 bytes); `refusal`: the message when another process holds it,
    /// given its pid when known.
    public init(_ name: String, refusal: (String?) -> String) throws {
        var address = try Self.address(name)
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Self.failure("socket", name) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + 1 + name.utf8.count)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard bound == 0, listen(descriptor, 4) == 0 else {
            let taken = errno == EADDRINUSE
            close(descriptor)
            guard taken else { throw Self.failure("bind", name) }
            throw StoreFailure(refusal(Self.holder(&address, length: length)), kind: .conflict)
        }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    private static func address(_ name: String) throws -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(name.utf8)
        // The first byte of the path stays 0: the abstract namespace.
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw StoreFailure("the machine-wide name \(name) is too long")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { path in
            for (index, byte) in bytes.enumerated() { path[index + 1] = byte }
        }
        return address
    }

    /// The pid of the process listening at `address`, when it answers.
    private static func holder(_ address: inout sockaddr_un, length: socklen_t) -> String? {
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard probe >= 0 else { return nil }
        defer { close(probe) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(probe, $0, length) }
        }
        guard connected == 0 else { return nil }
        // struct ucred (pid, uid, gid), which Glibc's module leaves out without _GNU_SOURCE.
        var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
        var size = socklen_t(MemoryLayout.size(ofValue: credentials))
        guard getsockopt(probe, SOL_SOCKET, SO_PEERCRED, &credentials, &size) == 0, credentials.pid > 0 else {
            return nil
        }
        return String(credentials.pid)
    }

    private static func failure(_ call: String, _ name: String) -> StoreFailure {
        StoreFailure("cannot hold the machine-wide name \(name) (\(call): \(String(cString: strerror(errno))))")
    }
}
