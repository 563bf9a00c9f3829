import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A program running in a detached tmux pane, for end-to-end tests of the terminal UI: start it at a
/// size, send keys, read the screen, resize, signal it, and compare the terminal modes (`stty -g`)
/// before and after it ran.
///
/// Each session has its own tmux server (`tmux -L <unique>`, no user config), so tests can run in
/// parallel and never touch a tmux the developer is using. The program runs under a small wrapper
/// script in a scratch directory:
///
///     stty -g > stty-before
///     sh program.sh             # echo $$ > pid; exec env -u LINES -u COLUMNS VAR=… command …
///     echo $? > status          # 128+n when the program died of signal n
///     stty -g > stty-after
///
/// The pane stays after the program exits (remain-on-exit), so the last screen can still be read.
/// Call `kill()` when done (`defer`). tmux is required: CI installs it, so a missing tmux fails.
struct TmuxSession {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// How the program ended, and the terminal modes around it.
    struct Exit {
        /// As the shell reports it: the exit code, or 128 + the signal number.
        let status: Int32
        let sttyBefore: String
        let sttyAfter: String

        var signal: Int32? { status > 128 ? status - 128 : nil }
        var terminalRestored: Bool { sttyBefore == sttyAfter }
    }

    let name: String
    /// Scratch directory: tmux config, wrapper scripts, pid, status, stty snapshots.
    let directory: URL

    /// Starts `command` (program and arguments, no shell) in a new pane of `columns`×`rows`.
    /// LINES and COLUMNS inherited from the test runner are removed; `environment` is added on top
    /// (LANG defaults to C.UTF-8; pass LINES here to test that the program ignores it). Returns
    /// once tmux has created the pane, not when the program is ready: use `waitFor(text:)` for that.
    static func start(
        command: [String], columns: Int = 80, rows: Int = 24,
        environment: [String: String] = [:],
        workingDirectory: URL = Executable.repositoryRoot
    ) throws -> TmuxSession {
        guard !command.isEmpty else { throw Failure(description: "no command to run in tmux") }
        let name = "storefront-test-\(UUID().uuidString.prefix(8).lowercased())"
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let session = TmuxSession(name: name, directory: directory)

        var variables = ["LANG": "C.UTF-8"]
        variables.merge(environment) { _, new in new }
        let assignments = variables.sorted { $0.key < $1.key }.map { shellQuote("\($0.key)=\($0.value)") }
        try write(
            session.path("program.sh"),
            """
            echo $$ > \(shellQuote(session.path("pid")))
            exec env -u LINES -u COLUMNS \(assignments.joined(separator: " ")) \(command.map(shellQuote).joined(separator: " "))

            """)
        try write(
            session.path("run.sh"),
            """
            cd \(shellQuote(workingDirectory.path)) || exit 1
            stty -g > \(shellQuote(session.path("stty-before")))
            sh \(shellQuote(session.path("program.sh")))
            echo $? > \(shellQuote(session.path("status.partial")))
            stty -g > \(shellQuote(session.path("stty-after")))
            mv \(shellQuote(session.path("status.partial"))) \(shellQuote(session.path("status")))

            """)
        try write(
            session.path("tmux.conf"),
            """
            set -g remain-on-exit on
            set -g status off
            set -g history-limit 2000

            """)
        do {
            try session.tmux([
                "new-session", "-d", "-s", name, "-x", String(columns), "-y", String(rows),
                "sh \(shellQuote(session.path("run.sh")))",
            ])
            // kill() removes it: tmux leaves its socket file behind.
            let socket = try session.tmux(["display-message", "-p", "-t", name, "#{socket_path}"])
            try write(session.path("socket"), socket.trimmingCharacters(in: .whitespacesAndNewlines))
        } catch {
            session.kill()
            throw error
        }
        return session
    }

    /// Sends keys by tmux name: "Enter", "Escape", "Up", "NPage", "C-c", "F5", or characters ("q").
    func sendKeys(_ keys: String...) throws {
        try tmux(["send-keys", "-t", name] + keys)
    }

    /// Types `text` literally (no key-name lookup), e.g. a filter string.
    func type(_ text: String) throws {
        try tmux(["send-keys", "-t", name, "-l", text])
    }

    /// The visible screen, one line per row, trailing spaces removed by tmux.
    func capture() throws -> String {
        try tmux(["capture-pane", "-p", "-t", name])
    }

    /// Polls the screen until it contains `text`; returns that screen. Fails with the last screen.
    @discardableResult
    func waitFor(text: String, timeout: Duration = .seconds(10)) throws -> String {
        try waitUntil("the screen shows \"\(text)\"", timeout: timeout) { $0.contains(text) }
    }

    /// Polls the screen until `condition` holds; returns that screen. Fails with the last screen.
    @discardableResult
    func waitUntil(
        _ what: String, timeout: Duration = .seconds(10),
        _ condition: (String) -> Bool
    ) throws -> String {
        var screen = ""
        try poll(what, timeout: timeout) {
            screen = try capture()
            return condition(screen)
        } lastState: {
            "last screen:\n\(screen)"
        }
        return screen
    }

    /// Resizes the window (and pane); the program gets SIGWINCH.
    func resize(columns: Int, rows: Int) throws {
        try tmux(["resize-window", "-t", name, "-x", String(columns), "-y", String(rows)])
    }

    /// The program's process ID (the wrapper execs it, so this is the program itself).
    func processID(timeout: Duration = .seconds(10)) throws -> pid_t {
        var text = ""
        var pid: pid_t?
        try poll("the program wrote its pid", timeout: timeout) {
            text = (try? String(contentsOf: url("pid"), encoding: .utf8)) ?? ""
            pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
            return pid != nil
        } lastState: {
            "pid file: \"\(text)\""
        }
        guard let pid else { throw Failure(description: "no pid") }
        return pid
    }

    /// Sends `signal` (SIGTERM, SIGHUP, …) to the program, as `kill -TERM` from another shell would.
    func send(signal: Int32) throws {
        let pid = try processID()
        guard deliver(signal, to: pid) == 0 else {
            throw Failure(description: "kill(\(pid), \(signal)) failed: \(String(cString: strerror(errno)))")
        }
    }

    /// Waits until the program has exited and the wrapper has recorded the terminal modes.
    func waitForExit(timeout: Duration = .seconds(10)) throws -> Exit {
        var status = ""
        try poll("the program exited", timeout: timeout) {
            status = (try? String(contentsOf: url("status"), encoding: .utf8)) ?? ""
            return !status.isEmpty
        } lastState: {
            "last screen:\n\((try? capture()) ?? "<none>")"
        }
        func read(_ file: String) throws -> String {
            try String(contentsOf: url(file), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        guard let code = Int32(status.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw Failure(description: "unreadable exit status \"\(status)\"")
        }
        return Exit(status: code, sttyBefore: try read("stty-before"), sttyAfter: try read("stty-after"))
    }

    /// Ends the tmux server (and with it the program) and removes the scratch directory.
    func kill() {
        _ = try? tmux(["kill-server"])
        if let socket = try? String(contentsOf: url("socket"), encoding: .utf8), socket.hasSuffix("/\(name)") {
            try? FileManager.default.removeItem(atPath: socket)
        }
        try? FileManager.default.removeItem(at: directory)
    }

    // MARK: - Internals

    private func url(_ file: String) -> URL {
        directory.appendingPathComponent(file)
    }

    private func path(_ file: String) -> String {
        directory.appendingPathComponent(file).path
    }

    /// Runs a tmux client command against this session's private server and returns its output.
    ///
    /// Not with `Process`: the test runner blocks SIGTERM and other signals, and a tmux server
    /// started from it would inherit that mask and ignore `kill-server` (which is a SIGTERM to
    /// itself). posix_spawn with an empty mask and default dispositions gives tmux a clean start.
    /// Output goes through files, not pipes, because the server forked by the first command
    /// would keep a pipe open.
    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        let outputPath = path("tmux.out")
        let errorPath = path("tmux.err")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal: Int32 in 1..<32 where signal != SIGKILL && signal != SIGSTOP { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ["tmux", "-L", name, "-f", path("tmux.conf")] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "TMUX")  // the developer's own tmux, if the tests run in one
        let envp = environment.map { "\($0.key)=\($0.value)" }
        var pid: pid_t = 0
        let spawned = withCStrings(argv) { argv in
            withCStrings(envp) { envp in posix_spawnp(&pid, "tmux", &actions, &attributes, argv, envp) }
        }
        if spawned == ENOENT {
            throw Failure(description: "tmux is not installed; the end-to-end tests need it (apt-get install tmux)")
        }
        guard spawned == 0 else {
            throw Failure(description: "cannot start tmux: \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        let message = ((try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let exited = status & 0x7F == 0
        let code = (status >> 8) & 0xFF
        guard exited, code == 0 else {
            let how = exited ? "status \(code)" : "signal \(status & 0x7F)"
            throw Failure(description: "tmux \(arguments.joined(separator: " ")) failed (\(how)): \(message)")
        }
        return output
    }

    /// Checks `condition` every 20 ms until it holds or `timeout` passes.
    private func poll(
        _ what: String, timeout: Duration, _ condition: () throws -> Bool,
        lastState: () -> String
    ) throws {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while true {
            if try condition() { return }
            if clock.now >= deadline { break }
            usleep(20_000)
        }
        throw Failure(description: "timed out after \(timeout) waiting until \(what); \(lastState())")
    }

    private static func write(_ url: String, _ text: String) throws {
        try text.write(toFile: url, atomically: true, encoding: .utf8)
    }

    /// Single-quoted for sh: safe for any string.
    static func shellQuote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

/// `kill(2)`, outside the struct so its `kill()` method does not hide it.
private func deliver(_ signal: Int32, to process: pid_t) -> Int32 {
    kill(process, signal)
}

/// Calls `body` with `strings` as a NULL-terminated C array (argv, envp), freed afterwards.
private func withCStrings<Result>(
    _ strings: [String],
    _ body: ([UnsafeMutablePointer<CChar>?]) -> Result
) -> Result {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { for pointer in pointers { free(pointer) } }
    return body(pointers)
}
