import ArgumentParser
import Foundation
import TapeScript
import TerminalRecording

#if canImport(Glibc)
    import Glibc
#endif

/// `storefront play FLOW.tape`: the storefront run by a VHS tape instead of a person.
struct PlayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Run the storefront from a VHS tape: keys, waits (assertions), screenshots and store actions.",
        discussion: """
            The tape's commands: Output FILE.cast, Set Width/Height/TypingSpeed, Env, Require, Scenario NAME|FILE, Type "…",
            Enter, Escape, Tab, Space, Backspace, Up, Down, Left, Right, Home, End, PageUp, PageDown, Delete,
            Ctrl+<key>, Alt+<key> (each with an optional count and @speed), Sleep 500ms,
            Wait[+Screen|+Line][@timeout] /regex/ (fails the run when nothing matches in time, 15 s unless
            given; a plain Wait matches only text new since the last key, Type or Store step, Wait+Screen
            the whole screen and Wait+Line its last line, old text too), Screenshot FILE (.txt, .ansi or
            .svg), Store ACTION…, a storefront manage action on the played store (`last` stands for the
            last transaction bought in the run), and Expect FACT, checked against the store:
            Expect transaction N|last state|product|price VALUE, Expect wallet BALANCE AMOUNT,
            Expect [not] owned PRODUCT, Expect subscription PRODUCT STATE.

            Output and Screenshot files are written beside the tape (paths relative to its directory)
            and listed as they are written.

            Without --state, each run starts from an empty store in a directory of its own (removed after).
            Exit status: 0 when every step passed; 1 naming the failing line (a Wait with nothing new to
            match, an Expect with what the store holds instead), with the screen at that moment; 2 when the tape has a problem (each one with its line and column; nothing is run).
            """
    )

    @Argument(help: ArgumentHelp("The tape.", valueName: "flow.tape"))
    var tape: String

    @OptionGroup var store: ChildStoreOptions

    @Flag(
        name: .long,
        help: "Let the tape write Output and Screenshot files outside its own directory (absolute paths, .., links).")
    var allowPaths = false

    func run() async throws {
        let steps = try Self.placed(Self.load(tape), tape: tape, allowAnywhere: allowPaths)
        let directory = try store.state.map { URL(fileURLWithPath: $0) } ?? Self.freshState()
        defer { if store.state == nil { try? FileManager.default.removeItem(at: directory) } }
        try await checkScenario(steps, state: directory.path)
        let result = try TapePlayback(
            steps: steps, tapeName: tape, storeArguments: store.arguments(state: directory.path),
            scenario: store.scenario
        ).run()
        for file in result.written { Console.out("wrote \(Self.shown(file))") }
        if let failure = result.failure {
            Console.err("\(tape):\(failure.step.line): \(failure.step.source)")
            Console.err("  \(failure.message)")
            Console.err("  the screen at that moment:")
            Console.err(lines: failure.screenLines)
            throw ExitCode(1)
        }
        Console.out("\(tape): \(steps.count) steps passed")
    }

    /// The scenario the run starts from (`--scenario`, else the tape's line), checked before
    /// anything runs: a problem in it is a problem of the tape (exit 2), at its line.
    private func checkScenario(_ steps: [Tape.Step], state: String) async throws {
        let line = steps.first { if case .scenario = $0.command { true } else { false } }
        guard
            let name = store.scenario
                ?? line.flatMap({ if case .scenario(let name) = $0.command { name } else { nil } })
        else { return }
        do {
            var arguments = store.arguments(state: state)
            if store.catalog == nil { arguments += ["--catalog", "products.json"] }
            try await ScenarioChoice(name, flag: store.scenario == nil ? "Scenario" : "--scenario").check(
                try StoreOptions.parse(arguments))
        } catch let failure as CommandFailure {
            let place = store.scenario == nil ? line.map { "\(tape):\($0.line): " } ?? "" : ""
            throw CommandFailure(
                lines: failure.lines.enumerated().map { $0.offset == 0 ? place + $0.element : $0.element }
                    + ["nothing was run"], status: 2)
        }
    }

    static func load(_ path: String) throws -> [Tape.Step] {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw CommandFailure.usage("cannot read the tape \(path): \((error as NSError).localizedDescription)")
        }
        switch TapeParser.parse(text) {
        case .success(let tape): return tape.steps
        case .failure(let problems):
            throw CommandFailure(
                lines: problems.all.map { "\(path):\($0.line):\($0.column): \($0.message)" }
                    + [
                        "\(problems.all.count) problem\(problems.all.count == 1 ? "" : "s") in \(path); nothing was run"
                    ], status: 2)
        }
    }

    /// The steps with their files inside the tape's directory (see `TapePaths`), or the tape's
    /// problems (exit 2, nothing run).
    static func placed(_ steps: [Tape.Step], tape: String, allowAnywhere: Bool) throws -> [Tape.Step] {
        let directory = URL(fileURLWithPath: tape).standardizedFileURL.deletingLastPathComponent()
        switch TapePaths(directory: directory, allowAnywhere: allowAnywhere).resolve(steps) {
        case .success(let placed): return placed
        case .failure(let refusals):
            let problems = refusals.all
            throw CommandFailure(
                lines: problems.map { problem in
                    "\(tape):\(problem.line): \(steps.first { $0.line == problem.line }?.source ?? ""): \(problem.message)"
                } + ["\(problems.count) problem\(problems.count == 1 ? "" : "s") in \(tape); nothing was run"],
                status: 2)
        }
    }

    /// A file as a message names it: relative to the current directory when it is inside it.
    static func shown(_ path: String) -> String {
        let current = FileManager.default.currentDirectoryPath
        let prefix = current.hasSuffix("/") ? current : current + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }

    static func freshState() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("storefront-play-\(UUID().uuidString)")
        // Private from the start, as a state directory must be (the storefront tightens any other).
        try FileManager.default.createDirectory(
            at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return url
    }
}
