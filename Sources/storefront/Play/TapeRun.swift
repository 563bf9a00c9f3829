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
    /// The last transaction the UI reported added: what `Store … last` acts on.
    private(set) var lastTransactionId: String?

    init(
        child: PseudoTerminal, events: Int32, commands: Int32, output: AsciicastWriter?,
        manage: @escaping ([String]) throws -> Void
    ) {
        self.child = child
        self.events = events
        self.commands = commands
        self.output = output
        self.manage = manage
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
                guard let lastTransactionId else {
                    throw Failure(
                        step: step, message: "`last` names the last transaction bought in this run, and none was",
                        screen: screen)
                }
                return lastTransactionId
            }
            try manage(resolved)
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
        while true {
            let shown = wait.scope == .screen ? screen : Self.lastLine(of: screen)
            switch Self.match(expression, in: shown, before: deadline) {
            case .found: return
            case .notFound: break
            case .outOfTime:
                throw Failure(
                    step: step,
                    message:
                        "matching /\(wait.pattern)/ did not finish within the Wait's \(Self.seconds(wait.timeoutMilliseconds)): "
                        + "the expression backtracks without end on this screen (a repetition of a repetition, like ( +)+); simplify it",
                    screen: screen)
            }
            guard ContinuousClock.now < deadline else {
                throw Failure(
                    step: step,
                    message:
                        "no match for /\(wait.pattern)/ on the \(wait.scope == .screen ? "screen" : "last line") within \(Self.seconds(wait.timeoutMilliseconds))",
                    screen: screen)
            }
            guard pump(milliseconds: 20) else {
                throw Failure(step: step, message: "the storefront exited while waiting", screen: lastWords)
            }
        }
    }

    enum Match { case found, notFound, outOfTime }

    /// What one look at the screen may take at the least, however near the Wait's end it is:
    /// far more than any reasonable expression needs on a screen.
    static let matchBudget: Duration = .milliseconds(250)

    /// Whether `expression` matches `text`, matching for no longer than until `deadline` (or a
    /// last look's `matchBudget` past it): ICU reports its progress as it backtracks, and the match
    /// stops there, so a catastrophic expression costs a Wait its own timeout and no more.
    static func match(_ expression: NSRegularExpression, in text: String, before waitDeadline: ContinuousClock.Instant)
        -> Match
    {
        let deadline = max(waitDeadline, ContinuousClock.now + matchBudget)
        var match = Match.notFound
        expression.enumerateMatches(in: text, options: [.reportProgress], range: NSRange(text.startIndex..., in: text))
        { result, _, stop in
            if result != nil {
                match = .found
                stop.pointee = true
            } else if ContinuousClock.now >= deadline {
                match = .outOfTime
                stop.pointee = true
            }
        }
        return match
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

    private func receive(_ message: SideChannel.Message) {
        switch message {
        case .screen(let text): screen = text
        case .marker(let text):
            try? output?.record(.marker, text)
            let words = text.split(separator: " ")
            if words.first == "purchasing", words.count >= 2 { lastTransactionId = String(words[1]) }
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
