import Foundation
import Scenarios
import TapeScript
import TerminalRecording

#if canImport(Glibc)
    import Glibc
#endif

/// One tape played against the storefront in a pseudo-terminal: keys go in, the program's
/// screens and store events come back on its side channel, and each `Wait` is an assertion.
final class TapeRun {
    struct Failure: Error {
        let step: Tape.Step
        let message: String
        let screen: String

        /// The screen as a message shows it, framed on the left.
        var screenLines: [String] {
            screen.split(separator: "\n", omittingEmptySubsequences: false).map { "  │" + $0 }
        }
    }

    private let child: PseudoTerminal
    private let events: Int32
    private let commands: Int32
    private let output: AsciicastWriter?
    private let manage: ([String]) throws -> Void
    /// Reads what the store holds, for `Expect`.
    private let facts: () throws -> StoreFacts
    /// `Set TypingSpeed`: the pause after each key typed, none until a tape sets one.
    private var typingMilliseconds = 0
    private var screen = ""
    /// The last bytes the program wrote: what it said when it ended before painting a screen.
    private var tail: [UInt8] = []
    private var exited = false
    private var channelBuffer: [UInt8] = []
    /// One read buffer for the run: `pump` is called after every key.
    private var buffer = [UInt8](repeating: 0, count: 65_536)
    private var replies: [SideChannel.Message] = []
    /// The transactions the UI reported added, in order: `Store … last` acts on the last one,
    /// and `Expect transaction N` reads the Nth.
    private(set) var bought: [String] = []
    /// The screen before the keys, `Type` and `Store` steps that ran since the last step of
    /// another kind: a plain `Wait` matches only what is new since.
    private var screenBeforeAction = ""
    private var lastStepActed = false
    /// The products request has answered: keys sent before it would move a list not yet there,
    /// as they would not have when the tape was recorded.
    private var productsAnswered = false
    /// The screenshots saved, in order, for the list `play` prints.
    private(set) var screenshots: [String] = []

    init(
        child: PseudoTerminal, events: Int32, commands: Int32, output: AsciicastWriter?,
        manage: @escaping ([String]) throws -> Void, facts: @escaping () throws -> StoreFacts
    ) {
        self.child = child
        self.events = events
        self.commands = commands
        self.output = output
        self.manage = manage
        self.facts = facts
    }

    func run(_ steps: [Tape.Step]) throws {
        for step in steps {
            do {
                try perform(step)
            } catch let failure as Failure {
                throw failure
            } catch {
                throw Failure(step: step, message: "\(error)", screen: screen)
            }
        }
        // The last keys' effects show before the run ends, as a person would have seen them.
        pump(milliseconds: 50)
    }

    private func perform(_ step: Tape.Step) throws {
        if step.command.acts { waitForProducts() }
        if step.command.acts, !lastStepActed { screenBeforeAction = screen }
        lastStepActed = step.command.acts
        switch step.command {
        case .setTypingSpeed(let milliseconds): typingMilliseconds = milliseconds
        case .output, .setWidth, .setHeight, .setIgnored, .env, .require, .scenario: break
        case .type(let text, let speed):
            for character in text { try press(Array(String(character).utf8), pause: speed ?? typingMilliseconds) }
        case .key(let key, let count, let speed):
            for _ in 0..<count { try press(key.bytes, pause: speed ?? typingMilliseconds) }
        case .sleep(let milliseconds): pump(milliseconds: milliseconds)
        case .wait(let wait): try self.wait(wait, step: step)
        case .screenshot(let path): try screenshot(path, step: step)
        case .store(let arguments):
            let resolved = try arguments.map { argument in
                guard TransactionRef(argument) == .last else { return argument }
                guard let lastTransactionId = bought.last else {
                    throw Failure(
                        step: step, message: "`last` names the last transaction bought in this run, and none was",
                        screen: screen)
                }
                return lastTransactionId
            }
            try manage(resolved)
        case .expect(let expectation): try expect(expectation, step: step)
        }
    }

    /// How long an `Expect` gives the store to hold its fact: the screen can show a step a
    /// moment before the app's ledger has it.
    static let expectMilliseconds = 5000

    private func expect(_ expectation: Tape.Expectation, step: Tape.Step) throws {
        let deadline = ContinuousClock.now + .milliseconds(Self.expectMilliseconds)
        while true {
            guard let actual = expectation.mismatch(in: try facts(), bought: bought) else { return }
            guard ContinuousClock.now < deadline, pump(milliseconds: 200) else {
                let expected = step.source.split(separator: " ").dropFirst().joined(separator: " ")
                throw Failure(step: step, message: "expected \(expected), the store has \(actual)", screen: screen)
            }
        }
    }

    private func press(_ bytes: [UInt8], pause: Int) throws {
        try child.send(bytes)
        try output?.record(.input, bytes: bytes)
        pump(milliseconds: pause)
    }

    private func wait(_ wait: Tape.Wait, step: Tape.Step) throws {
        let expression = try NSRegularExpression(pattern: wait.pattern)
        let deadline = ContinuousClock.now + .milliseconds(wait.timeoutMilliseconds)
        let before =
            wait.scope == .new ? try matches(expression, in: screenBeforeAction, by: deadline, wait, step) : []
        while true {
            let shown = wait.scope == .line ? Self.lastLine(of: screen) : screen
            let found = try matches(expression, in: shown, by: deadline, wait, step)
            if wait.scope == .new ? Self.hasNew(found, before: before) : !found.isEmpty { return }
            guard ContinuousClock.now < deadline else {
                throw Failure(step: step, message: Self.noMatch(wait, old: !found.isEmpty), screen: screen)
            }
            guard pump(milliseconds: 20) else {
                throw Failure(step: step, message: "the storefront exited while waiting", screen: lastWords)
            }
        }
    }

    /// What a Wait's expression matches in `text`, or the failure of one that backtracks past its time.
    private func matches(
        _ expression: NSRegularExpression, in text: String, by deadline: ContinuousClock.Instant, _ wait: Tape.Wait,
        _ step: Tape.Step
    ) throws -> [String] {
        guard let found = Self.matches(expression, in: text, before: deadline) else {
            throw Failure(
                step: step,
                message:
                    "matching /\(wait.pattern)/ did not finish within the Wait's \(Self.seconds(wait.timeoutMilliseconds)): "
                    + "the expression backtracks without end on this screen (a repetition of a repetition, like ( +)+); simplify it",
                screen: screen)
        }
        return found
    }

    /// Whether some text is matched more often now than before: text that was on screen all
    /// along does not count, wherever it moved, but a second copy of it does.
    static func hasNew(_ found: [String], before: [String]) -> Bool {
        var earlier = Dictionary(before.map { ($0, 1) }, uniquingKeysWith: +)
        for text in found {
            guard let count = earlier[text], count > 0 else { return true }
            earlier[text] = count - 1
        }
        return false
    }

    static func noMatch(_ wait: Tape.Wait, old: Bool) -> String {
        let time = seconds(wait.timeoutMilliseconds)
        switch wait.scope {
        case .line: return "no match for /\(wait.pattern)/ on the last line within \(time)"
        case .screen: return "no match for /\(wait.pattern)/ on the screen within \(time)"
        case .new:
            return "no new match for /\(wait.pattern)/ on the screen within \(time)"
                + (old
                    ? " (it matches only text shown before the keys or Store steps above it; Wait+Screen takes that)"
                    : "")
        }
    }

    /// What one look at the screen may take at the least, however near the Wait's end it is:
    /// far more than any reasonable expression needs on a screen.
    static let matchBudget: Duration = .milliseconds(250)

    /// Every match of `expression` in `text`, matching for no longer than until `deadline` (or a
    /// last look's `matchBudget` past it); nil when it ran out of time. ICU reports its progress as
    /// it backtracks, and the match stops there, so a catastrophic expression costs a Wait its own
    /// timeout and no more.
    static func matches(
        _ expression: NSRegularExpression, in text: String, before waitDeadline: ContinuousClock.Instant
    )
        -> [String]?
    {
        let deadline = max(waitDeadline, ContinuousClock.now + matchBudget)
        var found: [String] = []
        var outOfTime = false
        expression.enumerateMatches(in: text, options: [.reportProgress], range: NSRange(text.startIndex..., in: text))
        { result, _, stop in
            if let result, let range = Range(result.range, in: text) {
                found.append(String(text[range]))
            } else if ContinuousClock.now >= deadline {
                outOfTime = true
                stop.pointee = true
            }
        }
        return outOfTime ? nil : found
    }

    private func screenshot(_ path: String, step: Tape.Step) throws {
        let absolute = URL(fileURLWithPath: path).path
        let request = Array("screenshot \(absolute)\n".utf8)
        _ = request.withUnsafeBytes { write(commands, $0.baseAddress, $0.count) }
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            for (index, reply) in replies.enumerated() {
                switch reply {
                case .saved(absolute):
                    replies.remove(at: index)
                    screenshots.append(absolute)
                    return
                case .notSaved(absolute, let reason):
                    replies.remove(at: index)
                    throw Failure(step: step, message: "cannot write \(path): \(reason)", screen: screen)
                default:
                    continue
                }
            }
            guard pump(milliseconds: 20) else { break }
        }
        throw Failure(step: step, message: "the storefront did not save \(path)", screen: screen)
    }

    /// Reads what the program sends for `milliseconds`; false once it has exited.
    @discardableResult
    func pump(milliseconds: Int) -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(milliseconds)
        repeat {
            let left = deadline - ContinuousClock.now
            let timeout = max(
                0, Int(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
            var descriptors = [
                pollfd(fd: child.master, events: Int16(POLLIN), revents: 0),
                pollfd(fd: events, events: Int16(POLLIN), revents: 0),
            ]
            guard poll(&descriptors, 2, Int32(min(timeout, 50))) >= 0 || errno == EINTR else { return false }
            if descriptors[1].revents != 0 {
                let count = read(events, &buffer, buffer.count)
                if count > 0 {
                    channelBuffer += buffer[..<count]
                    SideChannel.messages(from: &channelBuffer).forEach(receive)
                }
            }
            if descriptors[0].revents != 0 {
                let count = read(child.master, &buffer, buffer.count)
                if count <= 0 {
                    exited = true
                    return false
                }
                try? output?.record(.output, bytes: buffer[..<count])
                tail = Array((tail + buffer[..<count]).suffix(4096))
            }
        } while ContinuousClock.now < deadline
        return !exited
    }

    /// The screen, or when the program ended without one, the text it last wrote (an error
    /// message), its escape sequences removed.
    private var lastWords: String {
        guard screen.isEmpty else { return screen }
        let text = String(decoding: tail, as: UTF8.self)
        return text.replacingOccurrences(
            of: "\u{1B}(\\[[0-9;?]*[ -/]*[@-~]|[()][0-9A-Za-z]|[=>])", with: "", options: .regularExpression
        )
        .replacingOccurrences(of: "\r", with: "").filter {
            $0 == "\n" || !($0.asciiValue.map { $0 < 0x20 || $0 == 0x7F } ?? false)
        }
    }

    /// Pumps until the products request has answered, for at most 30 s (a store that never
    /// answers then shows in the tape's own `Wait`).
    private func waitForProducts() {
        let deadline = ContinuousClock.now + .seconds(30)
        while !productsAnswered, ContinuousClock.now < deadline { _ = pump(milliseconds: 20) }
    }

    private func receive(_ message: SideChannel.Message) {
        switch message {
        case .screen(let text): screen = text
        case .marker(let text):
            if text.hasPrefix("products ") { productsAnswered = true }
            try? output?.record(.marker, text)
            let words = text.split(separator: " ")
            if words.first == "purchasing", words.count >= 2 { bought.append(String(words[1])) }
        case .saved, .notSaved: replies.append(message)
        }
    }

    static func lastLine(of screen: String) -> String {
        String(screen.split(separator: "\n").last { !$0.allSatisfy { $0 == " " } } ?? "")
    }

    static func seconds(_ milliseconds: Int) -> String {
        milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(Double(milliseconds) / 1000) s"
    }
}
