import Foundation
import StoreKitModel
import SyntheticData
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Random keys and resizes against the real binary in tmux (the reducer-level monkey test covers
/// far more steps; this one checks the painter, the key decoder and the effect runner underneath).
/// Fixed seeds; `TMUX_MONKEY_KEYS=N` for a longer run. After the keys: the program is still
/// running, it still answers a key, and `q` restores the terminal.
@Suite(.serialized) struct MonkeyInTmuxTests {
    /// tmux key names: every binding's key, editing and function keys, text. No `q` or Ctrl-C (they
    /// end the run), no Ctrl-Z (it stops the program).
    static let keys = [
        "j", "k", "g", "G", "Up", "Down", "PageUp", "PageDown", "Home", "End", "Enter", "Escape", "Tab", "BTab",
        "BSpace", "DC", "Left", "Right", "/", "?", "r", "R", "s", "a", "l", "t", "m", "p", "w", "+", "-", "y", "n",
        "A", "D", "I", "F", "E", "N", "X", "C", "Z", "v", "J", "K", "u", "c", "o", "1", "5", "x", "é", "宝", "F1", "F5",
        "IC", "Space", "C-l", "C-u",
    ]

    @Test(arguments: [11, 12] as [UInt64])
    func randomKeysAndResizesNeverEndTheProgram(seed: UInt64) throws {
        let steps = ProcessInfo.processInfo.environment["TMUX_MONKEY_KEYS"].flatMap(Int.init) ?? 250
        let app = InteractiveEndToEndTests.App()
        let session = try app.launch(columns: 100, rows: 30, environment: ["SWIFT_BACKTRACE": "interactive=no"])
        defer { session.kill() }
        let pid = try session.processID()
        var random = SplitMix64(state: seed)
        var log: [String] = []
        for step in 0..<steps {
            if Int.random(in: 0..<20, using: &random) == 0 {
                let columns = [1, 20, 59, 60, 80, 120, 300][Int.random(in: 0..<7, using: &random)]
                let rows = [1, 5, 15, 16, 24, 40, 100][Int.random(in: 0..<7, using: &random)]
                log.append("resize \(columns)x\(rows)")
                try session.resize(columns: columns, rows: rows)
            } else {
                let key = Self.keys[Int.random(in: 0..<Self.keys.count, using: &random)]
                log.append(key)
                try session.sendKeys(key)
            }
            if step % 50 == 49 {
                #expect(kill(pid, 0) == 0, "the program ended after: \(log.suffix(20).joined(separator: " "))")
            }
        }
        #expect(kill(pid, 0) == 0, "the program ended after: \(log.suffix(20).joined(separator: " "))")
        // Back to a normal size and the main screen; it must still draw and answer.
        try session.resize(columns: 100, rows: 30)
        // The title bar is the same in both languages (`l` may have switched to Chinese).
        let mainScreen = { (screen: String) in
            screen.contains("Storefront · ") && (screen.contains("Products") || screen.contains("商品"))
        }
        // One Escape at a time, each closing one sheet: sheets stack (help over the manager over
        // the controls), and Escapes sent together can be read as one Alt+Escape.
        for _ in 0..<8 {
            let before = try session.capture()
            if mainScreen(before) { break }
            try session.sendKeys("Escape")
            // The sheet closing (or the main screen), then the next Escape.
            _ = try? session.waitUntil("a sheet closed", timeout: .seconds(2)) { $0 != before || mainScreen($0) }
        }
        do {
            try session.waitUntil(
                "the main screen after \(steps) random keys (seed \(seed))", timeout: .seconds(20), mainScreen)
        } catch {
            // Alive is not answering: say what the kernel says of it (running, sleeping, stopped)
            // and where it waits, and the last keys, so a failure under load can be told apart.
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? "gone"
            let state = stat.split(separator: ")").last.map { String($0.prefix(3)) } ?? stat
            let channel = (try? String(contentsOfFile: "/proc/\(pid)/wchan", encoding: .utf8)) ?? "?"
            Issue.record(
                "process \(pid) state\(state) waiting in \(channel); last keys: \(log.suffix(30).joined(separator: " "))"
            )
            throw error
        }
        try session.sendKeys("q")
        // A purchase may still be in flight: then q asks first, and y confirms.
        var exit: TmuxSession.Exit?
        for _ in 0..<3 where exit == nil {
            exit = try? session.waitForExit(timeout: .seconds(5))
            if exit == nil { try session.sendKeys("Escape", "q", "y") }
        }
        let ended = try #require(exit, "the program did not quit; keys: \(log.suffix(30).joined(separator: " "))")
        #expect(
            ended.status == 0 && ended.terminalRestored,
            "status \(ended.status), stty before \(ended.sttyBefore) after \(ended.sttyAfter)")
    }
}
