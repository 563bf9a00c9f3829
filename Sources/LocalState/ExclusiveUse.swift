import Foundation
import StoreCore

/// A directory held by one process for as long as it lives (a server's `--db`): an exclusive
/// `flock` on a file in it, which the kernel releases when the process dies however it ends. The
/// file names the holder's pid, for the message a second process gets.
public final class ExclusiveUse: Sendable {
    private let descriptor: Int32

    /// `what`: the kind of process ("storefront serve"), for the message.
    public convenience init(of state: StateDirectory, lock name: String, by what: String) throws {
        try self.init(of: state, lock: name) { holder in
            "another \(what)\(holder.map { " (pid \($0))" } ?? "") is using \(state.option) \(state.url.path): "
                + "one per store database, or each would leave the other's purchases half done. Stop it, or pass another \(state.option)"
        }
    }

    /// `refusal`: the message for a lock held already, given the holder's pid when it is known.
    public init(of state: StateDirectory, lock name: String, refusal: (String?) -> String) throws {
        let path = try state.filePath(name)
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw StoreFailure(
                "cannot open \(path): \(String(cString: strerror(errno))); pass a writable \(state.option) DIR")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let holder = Self.holder(descriptor)
            close(descriptor)
            throw StoreFailure(refusal(holder), kind: .conflict)
        }
        ftruncate(descriptor, 0)
        let pid = Array("\(getpid())\n".utf8)
        _ = pwrite(descriptor, pid, pid.count, 0)
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    private static func holder(_ descriptor: Int32) -> String? {
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = pread(descriptor, &bytes, bytes.count, 0)
        guard count > 0 else { return nil }
        let text = String(decoding: bytes.prefix(count), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return Int32(text) != nil ? text : nil
    }
}
