import CPseudoTerminal
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A program running in a pseudo-terminal this process holds the other end of, as a terminal
/// emulator (or `script`, or asciinema) runs a shell: what it writes is read from `master`, what
/// is written to `master` is its keyboard. It is a session leader with the pty as its controlling
/// terminal, so a resize reaches it as SIGWINCH.
public final class PseudoTerminal: @unchecked Sendable {
    public let master: Int32
    public let pid: pid_t

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Starts `arguments` (program first) in a new pty of `size`; `extraDescriptors` are the
    /// child's descriptors 3, 4, … (pipes for a side channel); `environment` replaces the
    /// child's variables of those names.
    public init(
        arguments: [String], columns: Int, rows: Int, environment: [String: String] = [:],
        extraDescriptors: [Int32] = []
    ) throws {
        var name = [CChar](repeating: 0, count: 128)
        let master = cpt_open(O_RDWR | O_NOCTTY | O_CLOEXEC, &name, name.count)
        guard master >= 0 else {
            throw Failure(description: "cannot open a pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        var size = winsize(
            ws_row: UInt16(clamping: rows), ws_col: UInt16(clamping: columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        do {
            let path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            pid = try Self.spawn(arguments, slave: path, environment: environment, extra: extraDescriptors)
        } catch {
            close(master)
            throw error
        }
        self.master = master
    }

    public func resize(columns: Int, rows: Int) {
        var size = winsize(
            ws_row: UInt16(clamping: rows), ws_col: UInt16(clamping: columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
    }

    /// Writes all of `bytes` to the program's keyboard.
    public func send(_ bytes: [UInt8]) throws {
        try Self.writeAll(bytes[...], to: master, what: "the program's terminal")
    }

    /// Writes all of `bytes` to `descriptor`, through short writes and interruptions.
    static func writeAll(_ bytes: ArraySlice<UInt8>, to descriptor: Int32, what: String) throws {
        var offset = bytes.startIndex
        while offset < bytes.endIndex {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw Failure(description: "cannot write to \(what): \(String(cString: strerror(errno)))")
            }
            offset += written
        }
    }

    /// The exit status once the program has ended (128 + signal when a signal ended it), or nil.
    public func exitStatus(wait: Bool) -> Int32? {
        var status: Int32 = 0
        let result = waitpid(pid, &status, wait ? 0 : WNOHANG)
        guard result == pid else { return nil }
        if status & 0x7F == 0 { return (status >> 8) & 0xFF }
        return 128 + (status & 0x7F)
    }

    public func terminate() {
        kill(pid, SIGTERM)
    }

    deinit {
        close(master)
    }

    private static func spawn(_ arguments: [String], slave: String, environment: [String: String], extra: [Int32])
        throws -> pid_t
    {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (offset, descriptor) in extra.enumerated() {
            posix_spawn_file_actions_adddup2(&actions, descriptor, Int32(3 + offset))
        }
        // Opened after setsid (glibc applies file actions after the attributes): a session leader
        // opening a tty makes it its controlling terminal.
        posix_spawn_file_actions_addopen(&actions, 0, slave, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(
            &attributes, cpt_spawn_setsid() | Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var variables = ProcessInfo.processInfo.environment
        variables.merge(environment) { _, new in new }
        let environmentLines = variables.map { "\($0.key)=\($0.value)" }
        var pid: pid_t = 0
        let status = withCStrings(arguments) { argv in
            withCStrings(environmentLines) { envp in
                posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp)
            }
        }
        guard status == 0 else {
            throw Failure(description: "cannot start \(arguments[0]): \(String(cString: strerror(status)))")
        }
        return pid
    }
}

private func withCStrings<Result>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> Result) -> Result {
    var pointers = strings.map { strdup($0) }
    pointers.append(nil)
    defer { for pointer in pointers { free(pointer) } }
    return body(pointers)
}
