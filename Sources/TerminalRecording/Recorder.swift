import Foundation
import TapeScript

#if canImport(Glibc)
    import Glibc
#endif

/// `--record FILE.cast`: runs the same command again in a pseudo-terminal and sits between it
/// and the user's terminal, as asciinema does, copying both ways and writing every byte of
/// output (`o`), every key (`i`), every resize (`r`) and the program's store events (`m`, from
/// its side channel) to an asciicast v2 file. The program itself is unchanged: it cannot tell a
/// recorded session from another.
public enum Recorder {
    public struct Options: Sendable {
        /// The asciicast to write, if any.
        public var file: URL?
        public var arguments: [String]
        public var title: String
        /// A tape to write from the walkthrough (`storefront record --tape`), if any.
        public var tape: URL?
        /// The scenario the program starts from, written at the top of the tape.
        public var scenario: String?

        public init(file: URL?, arguments: [String], title: String, tape: URL? = nil, scenario: String? = nil) {
            self.file = file
            self.arguments = arguments
            self.title = title
            self.tape = tape
            self.scenario = scenario
        }
    }

    /// Records until the program exits; returns its exit status.
    public static func run(_ options: Options) throws -> Int32 {
        let size = terminalSize(of: STDOUT_FILENO) ?? (columns: 80, rows: 24)
        let environment = ProcessInfo.processInfo.environment
        let header = AsciicastWriter.Header(
            width: size.columns, height: size.rows, timestamp: Int(Date().timeIntervalSince1970),
            title: options.title,
            environment: ["TERM": environment["TERM"] ?? "xterm-256color", "SHELL": environment["SHELL"] ?? "/bin/sh"])
        let writer = try options.file.map { try AsciicastWriter(url: $0, header: header) }
        var tape = options.tape.map { _ in
            TapeWriter(width: size.columns, height: size.rows, scenario: options.scenario)
        }
        var channel: [Int32] = [0, 0]
        guard pipe(&channel) == 0, fcntl(channel[0], F_SETFD, FD_CLOEXEC) == 0,
            fcntl(channel[1], F_SETFD, FD_CLOEXEC) == 0
        else { throw PseudoTerminal.Failure(description: "cannot make a pipe: \(String(cString: strerror(errno)))") }
        let child: PseudoTerminal
        do {
            child = try PseudoTerminal(
                arguments: options.arguments, columns: size.columns, rows: size.rows,
                environment: [
                    SideChannel.variable: String(SideChannel.childDescriptor),
                    SideChannel.screensVariable: options.tape == nil ? "0" : "1",
                ],
                extraDescriptors: [channel[1]])
        } catch {
            close(channel[0])
            close(channel[1])
            throw error
        }
        close(channel[1])
        defer { close(channel[0]) }
        let saved = RawMode(descriptor: STDIN_FILENO)
        defer { saved?.restore() }
        let stop = StopSignals(forwardingTo: child.pid)
        defer { stop.cancel() }
        let screen = try pump(child: child, channel: channel[0], writer: writer, tape: &tape, size: size)
        try writer?.close()
        if let url = options.tape, var tape {
            try Data(tape.finish(screen: screen).utf8).write(to: url)
        }
        return child.exitStatus(wait: true) ?? 1
    }

    /// Copies until the program's side of the terminal closes (it exited); returns the last screen.
    private static func pump(
        child: PseudoTerminal, channel: Int32, writer: AsciicastWriter?, tape: inout TapeWriter?,
        size: (columns: Int, rows: Int)
    ) throws -> String {
        var size = size
        var screen = ""
        let start = ContinuousClock.now
        var channelBuffer: [UInt8] = []
        var channelOpen = true
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            var descriptors = [
                pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                pollfd(fd: child.master, events: Int16(POLLIN), revents: 0),
                pollfd(fd: channelOpen ? channel : -1, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&descriptors, nfds_t(descriptors.count), 100)
            if ready < 0, errno != EINTR {
                throw PseudoTerminal.Failure(description: "poll: \(String(cString: strerror(errno)))")
            }
            if let now = terminalSize(of: STDOUT_FILENO), now != size {
                size = now
                child.resize(columns: now.columns, rows: now.rows)
                try writer?.record(.resize, "\(now.columns)x\(now.rows)")
            }
            if descriptors[2].revents != 0 {
                let count = read(channel, &buffer, buffer.count)
                if count > 0 {
                    channelBuffer += buffer[..<count]
                    for message in SideChannel.messages(from: &channelBuffer) {
                        switch message {
                        case .marker(let text):
                            try writer?.record(.marker, text)
                            tape?.event(text)
                        case .screen(let text): screen = text
                        case .saved, .notSaved: break
                        }
                    }
                } else if count == 0 {
                    channelOpen = false
                }
            }
            if descriptors[1].revents != 0 {
                let count = read(child.master, &buffer, buffer.count)
                // EIO: every descriptor of the program's side is closed, so it has exited.
                if count <= 0 { return screen }
                try PseudoTerminal.writeAll(buffer[..<count], to: STDOUT_FILENO, what: "the terminal")
                try writer?.record(.output, bytes: buffer[..<count])
            }
            if descriptors[0].revents & Int16(POLLIN) != 0 {
                let count = read(STDIN_FILENO, &buffer, buffer.count)
                if count > 0 {
                    try writer?.record(.input, bytes: buffer[..<count])
                    let elapsed = ContinuousClock.now - start
                    tape?.keys(
                        Array(buffer[..<count]),
                        at: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
                        screen: screen)
                    try child.send(Array(buffer[..<count]))
                }
            }
        }
    }

    static func terminalSize(of descriptor: Int32) -> (columns: Int, rows: Int)? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }
}

/// The user's terminal in raw mode while the program runs (it sets its own modes on the pty),
/// restored after, as it was.
struct RawMode {
    private let descriptor: Int32
    private let original: termios

    init?(descriptor: Int32) {
        var settings = termios()
        guard isatty(descriptor) == 1, tcgetattr(descriptor, &settings) == 0 else { return nil }
        self.descriptor = descriptor
        original = settings
        cfmakeraw(&settings)
        tcsetattr(descriptor, TCSADRAIN, &settings)
    }

    func restore() {
        var settings = original
        tcsetattr(descriptor, TCSADRAIN, &settings)
    }
}

/// SIGTERM, SIGHUP and SIGINT to the recorder go to the program, which then exits as it would
/// have (restoring its screen); the recorder sees it end and finishes the file.
final class StopSignals: @unchecked Sendable {
    private var sources: [any DispatchSourceSignal] = []

    init(forwardingTo pid: pid_t) {
        for signalNumber in [SIGTERM, SIGHUP, SIGINT] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { kill(pid, signalNumber) }
            source.resume()
            sources.append(source)
        }
    }

    func cancel() {
        for source in sources { source.cancel() }
    }
}
