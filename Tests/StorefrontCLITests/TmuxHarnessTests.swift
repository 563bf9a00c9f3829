import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The tmux harness itself, checked with plain programs so the TUI tests can trust it.
@Suite struct TmuxHarnessTests {
    @Test func catEchoesTypedTextAndKeys() throws {
        let session = try TmuxSession.start(command: ["cat"], columns: 40, rows: 6)
        defer { session.kill() }
        try session.type("hello 世界 ¥160")
        try session.sendKeys("Enter")
        let screen = try session.waitFor(text: "hello 世界 ¥160\nhello 世界 ¥160")
        #expect(screen.hasPrefix("hello 世界 ¥160\nhello 世界 ¥160"))  // the tty echo, then cat
        try session.sendKeys("C-d")
        let exit = try session.waitForExit()
        #expect(exit.status == 0)
        #expect(exit.terminalRestored)
        #expect(!exit.sttyBefore.isEmpty)
    }

    @Test func environmentSizeAndSignals() throws {
        let script = """
            echo "lines=${LINES-unset} columns=${COLUMNS-unset} lang=$LANG extra=$EXTRA size=$(stty size)"
            grep -E '^Sig(Blk|Ign)' /proc/self/status
            echo ready
            exec sleep 30
            """
        let session = try TmuxSession.start(
            command: ["sh", "-c", script], columns: 90, rows: 7,
            environment: ["EXTRA": "it's here", "LINES": "3"])
        defer { session.kill() }
        let screen = try session.waitFor(text: "ready")
        // LINES/COLUMNS of the test runner are removed; one passed on purpose arrives.
        #expect(screen.contains("lines=3 columns=unset lang=C.UTF-8 extra=it's here size=7 90"))
        // Nothing blocked or ignored that the program under test must be able to receive.
        let masks = screen.split(separator: "\n").filter { $0.hasPrefix("Sig") }
        #expect(masks.count == 2)
        for line in masks {
            let mask = UInt64(line.split(separator: " ").last ?? "", radix: 16) ?? .max  // tmux shows tabs as spaces
            for signal in [SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGWINCH] {
                #expect(mask & (1 << UInt64(signal - 1)) == 0, "\(line) includes signal \(signal)")
            }
        }
        try session.send(signal: SIGTERM)
        let exit = try session.waitForExit()
        #expect(exit.status == 128 + SIGTERM)
        #expect(exit.signal == SIGTERM)
    }

    @Test func resizeReachesTheProgram() throws {
        let script = """
            trap 'echo "resized to $(stty size)"' WINCH
            echo ready
            while :; do sleep 0.05; done
            """
        let session = try TmuxSession.start(command: ["sh", "-c", script], columns: 60, rows: 10)
        defer { session.kill() }
        try session.waitFor(text: "ready")
        try session.resize(columns: 30, rows: 5)
        try session.waitFor(text: "resized to 5 30")
    }

    @Test func waitingReportsTheLastScreen() throws {
        let session = try TmuxSession.start(command: ["sh", "-c", "echo nothing to see; exec sleep 30"])
        defer { session.kill() }
        try session.waitFor(text: "nothing to see")
        #expect(throws: TmuxSession.Failure.self) {
            try session.waitFor(text: "never shown", timeout: .milliseconds(200))
        }
        do {
            try session.waitFor(text: "never shown", timeout: .milliseconds(100))
        } catch {
            #expect("\(error)".contains("nothing to see"))
        }
    }

    @Test func quotingSurvivesAnyText() {
        #expect(TmuxSession.shellQuote("a'b") == "'a'\\''b'")
        #expect(TmuxSession.shellQuote("") == "''")
    }
}
