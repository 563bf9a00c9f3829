import Foundation
import StoreCore

/// Who uses a state directory's databases: every process that opens one holds a shared `flock` on
/// `in-use.lock` for as long as it has it open, and `storefront reset` takes it exclusively, so
/// a reset never deletes files under a running server, command or storefront, and a process that
/// starts while a reset deletes them waits and then opens new ones. The kernel releases the lock
/// when its process dies, however it ends.
public final class StateInUse: Sendable {
    static let lockName = "in-use.lock"
    private let descriptor: Int32

    /// The shared hold of a process that opens a database in `state`.
    public convenience init(sharing state: StateDirectory) throws {
        try self.init(state, operation: LOCK_SH)
    }

    /// The exclusive hold of `reset`; refused, naming the holders, while any process uses `state`.
    public static func exclusive(_ state: StateDirectory) throws -> StateInUse {
        do {
            return try StateInUse(state, operation: LOCK_EX | LOCK_NB)
        } catch let busy as Busy {
            let holders = holderDescriptions(inode: busy.inode)
            throw StoreFailure(
                "\(state.url.path) is in use by \(holders.isEmpty ? "another storefront process" : holders.joined(separator: ", ")): "
                    + "stop it first; its purchases would be lost under it", kind: .conflict)
        }
    }

    private struct Busy: Error {
        let inode: UInt64
    }

    private init(_ state: StateDirectory, operation: Int32) throws {
        let path = try state.filePath(Self.lockName)
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw StoreFailure(
                "cannot open \(path): \(String(cString: strerror(errno))); pass a writable \(state.option) DIR")
        }
        while flock(descriptor, operation) != 0 {
            let code = errno
            guard code == EINTR else {
                var status = stat()
                fstat(descriptor, &status)
                close(descriptor)
                if code == EWOULDBLOCK { throw Busy(inode: UInt64(status.st_ino)) }
                throw StoreFailure("cannot lock \(path): \(String(cString: strerror(code)))")
            }
        }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// The processes the kernel lists as holding a lock on the file with `inode` (Linux's
    /// /proc/locks), each as "pid N (command line)"; empty where the system does not say.
    static func holderDescriptions(inode: UInt64) -> [String] {
        // Read to its end: /proc files report no size, and a whole-file read stops after a page.
        guard let data = FileHandle(forReadingAtPath: "/proc/locks")?.readDataToEndOfFile() else { return [] }
        let locks = String(decoding: data, as: UTF8.self)
        var pids: [Int32] = []
        for line in locks.split(separator: "\n") {
            // "1: FLOCK  ADVISORY  READ  4242 08:01:123456 0 EOF"
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[1] == "FLOCK", let pid = Int32(fields[4]),
                fields[5].split(separator: ":").last.flatMap({ UInt64($0) }) == inode, !pids.contains(pid)
            else { continue }
            pids.append(pid)
        }
        return pids.map { pid in
            let command =
                (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline")))
                .map { String(decoding: $0, as: UTF8.self).split(separator: "\0").joined(separator: " ") } ?? ""
            return command.isEmpty ? "pid \(pid)" : "pid \(pid) (\(command.prefix(120)))"
        }
    }
}
