import Foundation

/// Turns a live walkthrough into a tape: the keys as `storefront play` names them, and at each
/// pause a `Wait` for text the keys brought to the screen (what a purchase, a restore or a
/// refund ended in, when the store reported one) and an `Expect` for each transaction's final
/// state, so the tape replays as a regression test without fixed sleeps, and fails when the
/// same walkthrough ends otherwise.
public struct TapeWriter {
    /// A pause at least this long becomes a `Wait` (and a comment saying how long it was).
    public static let pauseSeconds = 0.8

    public private(set) var lines: [String]
    private var lastKey: (name: String, count: Int)?
    private var text = ""
    private var lastInput: Double?
    /// The screen before the keys since the last pause: a `Wait` is for text it did not show,
    /// as `play` matches a plain `Wait`.
    private var screenBeforeKeys = ""
    private var waitedOnce = false
    /// What the store reported since the last pause.
    private var events = StoreEvents()

    /// `scenario`: the one the walkthrough started from, so the tape replays from it too.
    public init(width: Int, height: Int, scenario: String? = nil) {
        lines = [
            "# Recorded with storefront record --tape; replay with storefront play.", "Set Width \(width)",
            "Set Height \(height)",
        ]
        if let scenario { lines.append("Scenario \(scenario)") }
    }

    /// Keys typed at `time` (seconds since the start); `screen` is what was on screen just before.
    public mutating func keys(_ bytes: [UInt8], at time: Double, screen: String) {
        if let lastInput, time - lastInput >= Self.pauseSeconds {
            flush()
            wait(for: screen, paused: time - lastInput)
            screenBeforeKeys = screen
        } else if lastInput == nil {
            wait(for: screen, paused: nil)
            screenBeforeKeys = screen
        }
        lastInput = time
        for key in Self.decode(bytes) {
            switch key {
            case .text(let character):
                flushKey()
                text.append(character)
            case .named(let name):
                flushText()
                repeatKey(name)
            case .unnamed(let sequence):
                flush()
                lines.append("# a key no tape step names was left out (\(sequence))")
            }
        }
    }

    /// A line of the storefront's side channel (`StoreEventMarkers`): "purchased 2000000000000001".
    public mutating func event(_ marker: String) {
        events.note(marker)
    }

    /// The tape, with a final `Wait` for the screen as the walkthrough ended.
    public mutating func finish(screen: String) -> String {
        flush()
        wait(for: screen, paused: nil)
        return lines.joined(separator: "\n") + "\n"
    }

    private mutating func wait(for screen: String, paused: Double?) {
        // The first Wait is for the program to be ready, not only started: a position in a list
        // ("Products 1/12") shows once the list has loaded, where the title bar shows at once
        // and a key sent then would meet an empty list.
        let line =
            waitedOnce
            ? Self.newLine(in: screen, since: screenBeforeKeys, preferring: events.outcomeWords)
            : Self.newLine(in: screen, since: "", matching: #"\d+/\d+"#)
        let expects = events.expectations()
        events.clear()
        guard line != nil || !expects.isEmpty else { return }
        if let paused { lines.append("# paused \(String(format: "%.1f", paused)) s") }
        if let line { lines.append("Wait /\(Self.pattern(line))/") }
        lines += expects
        waitedOnce = true
    }

    private mutating func repeatKey(_ name: String) {
        if lastKey?.name == name {
            lastKey?.count += 1
        } else {
            flushKey()
            lastKey = (name, 1)
        }
    }

    private mutating func flush() {
        flushText()
        flushKey()
    }

    private mutating func flushKey() {
        guard let key = lastKey else { return }
        lines.append(key.count == 1 ? key.name : "\(key.name) \(key.count)")
        lastKey = nil
    }

    private mutating func flushText() {
        guard !text.isEmpty else { return }
        let quote = ["\"", "'", "`"].first { !text.contains($0) } ?? "\""
        lines.append("Type \(quote)\(text.replacingOccurrences(of: quote, with: ""))\(quote)")
        text = ""
    }

    enum Decoded: Equatable {
        case text(Character)
        case named(String)
        /// A control sequence no tape key names (F-keys, a modifier with an arrow): left out, said.
        case unnamed(String)
    }

    /// Terminal input as tape keys: xterm's sequences by name, controls as Ctrl+, ESC and a key as Alt+.
    static func decode(_ bytes: [UInt8]) -> [Decoded] {
        // Keypad mode (which ncurses turns on) sends the arrows, Home and End as ESC O x; tmux,
        // screen and the Linux console send Home and End as ESC [1~ and ESC [4~, rxvt as ESC [7~
        // and ESC [8~.
        let keypad = [
            "Up": "\u{1B}OA", "Down": "\u{1B}OB", "Right": "\u{1B}OC", "Left": "\u{1B}OD", "Home": "\u{1B}OH",
            "End": "\u{1B}OF",
        ]
        let alternatives = [
            ("Home", "\u{1B}[1~"), ("End", "\u{1B}[4~"), ("Home", "\u{1B}[7~"), ("End", "\u{1B}[8~"),
        ]
        let names = Dictionary(
            (Tape.keyBytes.map { ($0.key, $0.value) } + keypad.map { ($0.key, $0.value) } + alternatives).map {
                (Array($0.1.utf8), $0.0)
            }
        ) { first, _ in first }
        var result: [Decoded] = []
        var index = 0
        while index < bytes.count {
            if let (sequence, name) = names.filter({ $0.key.count > 1 }).first(where: {
                Array(bytes[index...].prefix($0.key.count)) == $0.key
            }) {
                result.append(.named(name))
                index += sequence.count
                continue
            }
            let byte = bytes[index]
            if let length = controlSequenceLength(bytes, at: index) {
                let sequence = bytes[index + 1..<index + length].map { String(UnicodeScalar($0)) }.joined()
                result.append(.unnamed("ESC \(sequence)"))
                index += length
                continue
            }
            // ESC and a key in one read is Alt+key, as the storefront reads it too.
            if byte == 0x1B, index + 1 < bytes.count, bytes[index + 1] > 0x20, bytes[index + 1] < 0x7F {
                result.append(.named("Alt+\(Character(UnicodeScalar(bytes[index + 1])))"))
                index += 1
            } else if let name = names[[byte]], byte != 0x20 {
                result.append(.named(name))
            } else if byte < 0x20 {
                result.append(.named("Ctrl+\(Character(UnicodeScalar(byte + 0x40)))"))
            } else {
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                let end = min(bytes.count, index + length)
                for character in String(decoding: bytes[index..<end], as: UTF8.self) { result.append(.text(character)) }
                index = end
                continue
            }
            index += 1
        }
        return result
    }

    /// The length of an unnamed control sequence at `index` (ESC [ parameters and a final byte,
    /// or ESC O and a letter), so it is never taken for Alt+[ and typed text.
    static func controlSequenceLength(_ bytes: [UInt8], at index: Int) -> Int? {
        guard bytes[index] == 0x1B, index + 2 < bytes.count else { return nil }
        if bytes[index + 1] == UInt8(ascii: "O") {
            return (0x40...0x7E).contains(bytes[index + 2]) ? 3 : nil
        }
        guard bytes[index + 1] == UInt8(ascii: "[") else { return nil }
        var end = index + 2
        while end < bytes.count, (0x20...0x3F).contains(bytes[end]) { end += 1 }
        guard end < bytes.count, (0x40...0x7E).contains(bytes[end]) else { return nil }
        return end + 1 - index
    }

    /// Text the screen shows that the earlier one did not: a piece of a row (rows cut at box
    /// borders and wide gaps, so a sheet's title stands apart from the list under it) that has
    /// letters, no clock time or saved screen's name (they differ on every run) and is not in the earlier screen; at
    /// most 60 characters. The first that matches `preferring` (what an outcome reads as), else
    /// the first.
    /// `matching`: only a piece with a match of this pattern.
    static func newLine(
        in screen: String, since earlier: String, matching required: String? = nil, preferring: String? = nil
    ) -> String? {
        let pieces = newPieces(in: screen, since: earlier, matching: required)
        let wanted = preferring.flatMap { try? NSRegularExpression(pattern: $0, options: .caseInsensitive) }
        let preferred = wanted.flatMap { wanted in
            pieces.first { wanted.firstMatch(in: $0, range: NSRange($0.startIndex..., in: $0)) != nil }
        }
        return preferred ?? pieces.first
    }

    private static func newPieces(in screen: String, since earlier: String, matching required: String?) -> [String] {
        let cut = try? NSRegularExpression(pattern: #"[│┌┐└┘─├┤╭╮╰╯|]+|\s{2,}"#)
        // A clock time, or a saved screen's name (`screen-20261125-060512`): both differ on every run.
        let clock = try? NSRegularExpression(pattern: #"\d{1,2}:\d{2}|\d{8}-\d{6}"#)
        let wanted = required.flatMap { try? NSRegularExpression(pattern: $0) }
        var pieces: [String] = []
        for row in screen.split(separator: "\n").map(String.init) {
            let marked =
                cut?.stringByReplacingMatches(
                    in: row, range: NSRange(row.startIndex..., in: row), withTemplate: "\u{0}") ?? row
            for piece in marked.split(separator: "\u{0}").map({ $0.trimmingCharacters(in: .whitespaces) }) {
                let shown = String(piece.prefix(60)).trimmingCharacters(in: .whitespaces)
                guard shown.contains(where: \.isLetter), !earlier.contains(shown),
                    clock?.firstMatch(in: shown, range: NSRange(shown.startIndex..., in: shown)) == nil
                else { continue }
                if let wanted, wanted.firstMatch(in: shown, range: NSRange(shown.startIndex..., in: shown)) == nil {
                    continue
                }
                pieces.append(shown)
            }
        }
        return pieces
    }

    /// `text` as a regex matching it literally, every `/` escaped for the tape.
    static func pattern(_ text: String) -> String {
        let escaped = NSRegularExpression.escapedPattern(for: text)
        return escaped.replacingOccurrences(of: #"(?<!\\)/"#, with: #"\\/"#, options: .regularExpression)
    }
}
