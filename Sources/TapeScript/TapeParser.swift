import Foundation
import ScreenCapture

/// A problem in a tape, where it is: line and column (1-based), as an editor shows them.
public struct TapeProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public let line: Int
    public let column: Int
    public let message: String

    public init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String { "\(line):\(column): \(message)" }
}

/// Reads a tape, every line, and reports every problem at once; a tape with any is not run.
public enum TapeParser {
    /// VHS settings about the picture, accepted and without effect here.
    static let pictureSettings: Set<String> = [
        "Shell", "FontSize", "FontFamily", "LetterSpacing", "LineHeight", "Theme", "Padding",
        "Margin", "MarginFill", "BorderRadius", "WindowBar", "WindowBarSize", "Framerate",
        "PlaybackSpeed", "LoopOffset", "CursorBlink", "WaitTimeout", "WaitPattern",
    ]
    static let defaultWaitMilliseconds = 15_000

    /// Every problem of a tape, in line order.
    public struct Problems: Error, Sendable, Equatable {
        public let all: [TapeProblem]
    }

    public static func parse(_ text: String) -> Result<Tape, Problems> {
        var steps: [Tape.Step] = []
        var problems: [TapeProblem] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let column = line.count - trimmed.count + 1
            var scanner = LineScanner(String(trimmed), line: index + 1, column: column)
            do {
                steps.append(Tape.Step(line: index + 1, command: try command(&scanner), source: String(trimmed)))
            } catch let problem as TapeProblem {
                problems.append(problem)
            } catch {
                problems.append(TapeProblem(line: index + 1, column: column, message: "\(error)"))
            }
        }
        problems += orderProblems(steps)
        let scenarios = steps.filter { if case .scenario = $0.command { true } else { false } }
        problems += scenarios.dropFirst().map {
            TapeProblem(
                line: $0.line, column: 1,
                message: "a tape starts from one scenario, and line \(scenarios[0].line) named it already")
        }
        return problems.isEmpty
            ? .success(Tape(steps: steps))
            : .failure(Problems(all: problems.sorted { ($0.line, $0.column) < ($1.line, $1.column) }))
    }

    /// `Set Width`/`Height`, `Env` and `Scenario` shape the program as it starts: before anything runs.
    private static func orderProblems(_ steps: [Tape.Step]) -> [TapeProblem] {
        guard let first = steps.firstIndex(where: { !$0.command.isSetUp }) else { return [] }
        return steps[first...].filter { step in
            switch step.command {
            case .setWidth, .setHeight, .env, .scenario: true
            default: false
            }
        }.map {
            TapeProblem(
                line: $0.line, column: 1,
                message:
                    "\($0.source.split(separator: " ").prefix(2).joined(separator: " ")) must come before the first command that runs (line \(steps[first].line))"
            )
        }
    }

    private static func command(_ scanner: inout LineScanner) throws -> Tape.Command {
        let (word, wordColumn) = scanner.word()
        let (name, modifiers) = splitModifiers(word)
        switch name {
        case "Output":
            let path = try scanner.argument("a file name (.cast)")
            guard path.lowercased().hasSuffix(".cast") else {
                throw scanner.problem(
                    "Output writes an asciicast recording: name a .cast file (VHS's GIF, MP4 and WebM need a picture)",
                    at: wordColumn)
            }
            try scanner.end()
            return .output(path)
        case "Set": return try setting(&scanner)
        case "Env":
            let variable = try scanner.argument("a variable name")
            let value = try scanner.argument("a value")
            try scanner.end()
            if Tape.storeChoosingNames.contains(variable) {
                throw scanner.problem(
                    "Env \(variable) would choose another store, state or token: a tape plays on the store its player chooses (play --state, or the player's own environment); take it out",
                    at: wordColumn)
            }
            guard Tape.settableVariable(variable) else {
                throw scanner.problem(
                    "Env \(variable): a tape sets only what the storefront reads (\(Tape.settableVariables)); "
                        + "others can load code into it or change where it reads and writes", at: wordColumn)
            }
            return .env(name: variable, value: value)
        case "Require":
            let program = try scanner.argument("a program name")
            try scanner.end()
            return .require(program)
        case "Scenario":
            let scenario = try scanner.argument(
                "a scenario: a built-in's name (storefront scenarios lists them) or a file")
            try scanner.end()
            return .scenario(scenario)
        case "Type":
            let speed = try modifiers.duration(scanner, at: wordColumn)
            let text = try scanner.quoted()
            try scanner.end()
            return .type(text, speedMilliseconds: speed)
        case "Sleep":
            let milliseconds = try scanner.duration()
            try scanner.end()
            return .sleep(milliseconds: milliseconds)
        case "Wait": return try wait(&scanner, modifiers: modifiers, at: wordColumn)
        case "Screenshot":
            let path = try scanner.argument("a file name (.txt, .ansi or .svg)")
            guard Screenshot.Format(fileName: path) != nil else {
                throw scanner.problem(
                    "Screenshot writes .txt, .ansi or .svg (the screen as text, with colours, or as a picture), not \(path)",
                    at: wordColumn)
            }
            try scanner.end()
            return .screenshot(path)
        case "Store": return .store(try storeArguments(&scanner, at: wordColumn))
        case "Expect": return .expect(try expectation(&scanner, at: wordColumn))
        default:
            if let key = key(name) {
                let speed = try modifiers.duration(scanner, at: wordColumn)
                let count = scanner.atEnd ? 1 : try scanner.count()
                try scanner.end()
                return .key(key, count: count, speedMilliseconds: speed)
            }
            throw scanner.problem(unknown(word), at: wordColumn)
        }
    }

    private static func setting(_ scanner: inout LineScanner) throws -> Tape.Command {
        let (name, column) = scanner.word()
        switch name {
        case "Width", "Height":
            let value = try scanner.count()
            guard (1...1000).contains(value) else {
                throw scanner.problem("Set \(name) takes 1 to 1000 cells, not \(value)", at: column)
            }
            try scanner.end()
            return name == "Width" ? .setWidth(value) : .setHeight(value)
        case "TypingSpeed":
            let value = try scanner.duration()
            try scanner.end()
            return .setTypingSpeed(milliseconds: value)
        case let other where pictureSettings.contains(other):
            _ = scanner.rest()
            return .setIgnored(other)
        case "":
            throw scanner.problem("Set needs a setting: Width, Height or TypingSpeed", at: column)
        default:
            throw scanner.problem(
                "unknown setting \(name) (Width, Height and TypingSpeed change a run; VHS's picture settings are accepted and ignored)",
                at: column)
        }
    }

    private static func wait(_ scanner: inout LineScanner, modifiers: Modifiers, at column: Int) throws -> Tape.Command
    {
        var scope = Tape.Wait.Scope.new
        if let written = modifiers.scope {
            guard let known = Tape.Wait.Scope(rawValue: written.lowercased()), known != .new else {
                throw scanner.problem("Wait+\(written): the scopes are Wait+Screen and Wait+Line", at: column)
            }
            scope = known
        }
        let timeout = try modifiers.duration(scanner, at: column) ?? defaultWaitMilliseconds
        let (pattern, patternColumn) = try scanner.regex()
        do {
            _ = try NSRegularExpression(pattern: pattern)
        } catch {
            throw scanner.problem("/\(pattern)/ is not a regular expression ICU accepts", at: patternColumn)
        }
        try scanner.end()
        return .wait(Tape.Wait(scope: scope, timeoutMilliseconds: timeout, pattern: pattern))
    }

    static func key(_ name: String) -> Tape.Key? {
        if Tape.keyBytes[name] != nil { return .named(name) }
        for (prefix, make) in [("Ctrl+", Tape.Key.control), ("Alt+", Tape.Key.alt)] where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            if rest.count == 1, let character = rest.first, character.isASCII,
                character.isLetter || "[]\\@^_".contains(character)
            {
                return make(character)
            }
        }
        return nil
    }

    private static func unknown(_ word: String) -> String {
        let known =
            [
                "Output", "Set", "Env", "Require", "Scenario", "Type", "Sleep", "Wait", "Screenshot", "Store", "Expect",
            ]
            + Tape.keyBytes.keys.sorted() + ["Ctrl+<key>", "Alt+<key>"]
        if ["Hide", "Show", "Copy", "Paste", "Source", "ScrollUp", "ScrollDown"].contains(word) {
            return
                "\(word) is a VHS command storefront play does not run (it has no picture or clipboard); the commands are: \(known.joined(separator: ", "))"
        }
        return "unknown command \(word.isEmpty ? "(none)" : word); the commands are: \(known.joined(separator: ", "))"
    }

    /// `Type@50ms` → ("Type", speed "50ms"); `Wait+Screen@10s` → ("Wait", scope "Screen", timeout "10s").
    private static func splitModifiers(_ word: String) -> (String, Modifiers) {
        var base = Substring(word)
        var modifiers = Modifiers()
        if let at = base.firstIndex(of: "@") {
            modifiers.at = String(base[base.index(after: at)...])
            base = base[..<at]
        }
        if let plus = base.firstIndex(of: "+"), base.hasPrefix("Wait") {
            modifiers.scope = String(base[base.index(after: plus)...])
            base = base[..<plus]
        }
        return (String(base), modifiers)
    }

    struct Modifiers {
        var at: String?
        var scope: String?

        /// `@500ms`: a key's speed, or a Wait's timeout.
        func duration(_ scanner: LineScanner, at column: Int) throws -> Int? {
            guard let at else { return nil }
            guard let value = LineScanner.milliseconds(at) else {
                throw scanner.problem("@\(at) is not a duration (500ms, 1s)", at: column)
            }
            return value
        }
    }

    /// Options of `storefront manage` that choose which store it acts on and with what right:
    /// a tape is shared and runs with its player's token, so its steps act on the store it plays
    /// against and no other.
    static let storeChoosingOptions: Set<String> = ["--store", "--state", "--db", "--admin-token", "--catalog"]

    /// A `Store` step's `manage` action and the action's own arguments.
    static func storeArguments(_ scanner: inout LineScanner, at column: Int) throws -> [String] {
        var arguments: [String] = []
        while !scanner.atEnd {
            let (word, start) = scanner.word()
            let option = word.split(separator: "=", maxSplits: 1).first.map(String.init) ?? word
            if storeChoosingOptions.contains(option) {
                throw scanner.problem(
                    "Store acts on the store the tape plays against: \(option) would choose another store, state or token; take it out",
                    at: start)
            }
            arguments.append(word)
        }
        guard !arguments.isEmpty else {
            throw scanner.problem(
                "Store needs a storefront manage action, such as `Store approve last` or `Store set next-outcome fail:4`",
                at: column)
        }
        return arguments
    }
}

extension Tape.Command {
    /// A key, `Type` or `Store`: a step that changes what the screen shows. A plain `Wait`
    /// matches only text new since the first of those above it.
    public var acts: Bool {
        switch self {
        case .type, .key, .store: true
        default: false
        }
    }

    var isSetUp: Bool {
        switch self {
        case .output, .setWidth, .setHeight, .setTypingSpeed, .setIgnored, .env, .require, .scenario: true
        default: false
        }
    }
}
