import CPseudoTerminal
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A child process started with `posix_spawn`, its standard streams in files. Tests start
/// hundreds of processes at once; Foundation's `Process.run` on Linux (Swift 6.3) reads past
/// `readdir`'s buffer while listing `/proc/self/fd` and crashes the test runner now and then
/// (swift-corelibs-foundation #5472), so the tests do not use it.
public final class SpawnedProcess: @unchecked Sendable {
    public let processIdentifier: pid_t
    private let lock = NSLock()
    private var exit: Int32?

    /// Starts `executable` with `arguments` in `directory`, standard input from `/dev/null` (or
    /// `input`), output and errors appended to the files at `output` and `errors`. The child
    /// inherits no other descriptor.
    public init(
        executable: String, arguments: [String], environment: [String: String], directory: URL,
        input: String = "/dev/null", output: String, errors: String
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        posix_spawn_file_actions_addclosefrom_np(&actions, 3)
        posix_spawn_file_actions_addchdir_np(&actions, directory.path)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        // The child starts with no signal blocked and every signal at its default: the test
        // runner's threads block some (SIGTERM among them), and a server that inherited that
        // mask would not end on SIGTERM.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid = pid_t()
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard status == 0 else {
            throw CocoaError(.executableLoad, userInfo: [NSFilePathErrorKey: executable, "errno": status])
        }
        processIdentifier = pid
    }

    /// The raw wait status once the child has ended; nil while it runs (`block`: wait for it).
    private func reap(block: Bool) -> Int32? {
        lock.lock()
        defer { lock.unlock() }
        if let exit { return exit }
        var status: Int32 = 0
        while true {
            let reaped = waitpid(processIdentifier, &status, block ? 0 : WNOHANG)
            if reaped == processIdentifier {
                exit = status
                return status
            }
            if reaped == -1 && errno == EINTR { continue }
            return nil
        }
    }

    public var isRunning: Bool { reap(block: false) == nil }

    public func waitUntilExit() { _ = reap(block: true) }

    /// Whether a signal ended it (after it ended).
    public var wasSignalled: Bool {
        guard let status = reap(block: false) else { return false }
        return status & 0x7f != 0 && status & 0x7f != 0x7f
    }

    /// The exit status, or the signal's number when one ended it (as `Process.terminationStatus`).
    public var terminationStatus: Int32 {
        guard let status = reap(block: true) else { return -1 }
        return wasSignalled ? status & 0x7f : (status >> 8) & 0xff
    }

    public func signal(_ number: Int32) {
        if isRunning { Glibc.kill(processIdentifier, number) }
    }

    /// Runs `executable` to its end and gives its status and output (files in a scratch
    /// directory, so nothing can fill a pipe and stall it).
    public static func run(
        executable: String, arguments: [String], environment: [String: String], directory: URL
    ) throws -> (status: Int32, stdout: Data, stderr: Data) {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("spawn-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let out = scratch.appendingPathComponent("out").path
        let err = scratch.appendingPathComponent("err").path
        let child = try SpawnedProcess(
            executable: executable, arguments: arguments, environment: environment, directory: directory,
            output: out, errors: err)
        child.waitUntilExit()
        return (
            child.terminationStatus, (try? Data(contentsOf: URL(fileURLWithPath: out))) ?? Data(),
            (try? Data(contentsOf: URL(fileURLWithPath: err))) ?? Data()
        )
    }
}
