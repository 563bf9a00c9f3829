import AppSide
import ArgumentParser
import Foundation
import LocalState
import StoreCore
import StoreEngine
import StoreKitModel
import StorefrontRuntime
import StorefrontUI
import TerminalRecording
import TerminalUI

/// `storefront` with no subcommand: the storefront itself, in the terminal.
struct OpenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Open the interactive storefront (the default when no subcommand is given).",
        discussion: """
            Browse, buy, restore, switch storefront/account/language, and drive the test controls and the
            transaction manager by keys alone; ? lists every key. Needs a terminal: for scripts use the
            headless commands (products, buy, transactions, restore, wallet, manage).
            """
    )

    @OptionGroup var options: StoreOptions

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Where Ctrl+S saves the screen (as .txt, .ansi and .svg). Default: the state directory's screens/.",
            valueName: "dir"))
    var screens: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Record the session as an asciicast v2 file (asciinema play FILE.cast replays it), with a marker at each store event.",
            valueName: "file.cast"))
    var record: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "For presenters: hold each purchase step (purchasing, purchased, delivered, verified, finished) on screen this many seconds.",
            valueName: "seconds"))
    var slowMotion: Double?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Start from a prepared situation: a built-in scenario (storefront scenarios lists them) or a scenario file (JSON or YAML). Its store lives in --state DIR (which must hold none yet), else in the state directory's scenarios/NAME, prepared afresh at each start.",
            valueName: "name|file"))
    var scenario: String?

    @Flag(name: .long, help: "For presenters: show the keys pressed in the last 3 seconds at the bottom right.")
    var showKeys = false

    @Flag(
        name: .long,
        help: "Paint the first frame and exit, before the products are requested (for start-up benchmarks).")
    var exitAfterFirstFrame = false

    func run() async throws {
        // A scenario with problems is reported before anything else, terminal or not.
        let choice = try scenario.map { try ScenarioChoice($0) }
        let checked = try await choice?.check(options)
        guard Terminal.isInteractive else {
            throw CommandFailure.usage(
                """
                the interactive storefront needs a terminal (stdin and stdout must be a TTY). \
                For scripts use the headless commands: storefront products | buy | transactions | restore | wallet | manage (see storefront --help)
                """)
        }
        if let record {
            try Self.recordSession(to: record)
        }
        if let slowMotion, !(slowMotion > 0 && slowMotion <= 60) {
            throw CommandFailure.usage("--slow-motion takes seconds from more than 0 to 60, such as 1.5")
        }
        if screens?.isEmpty == true {
            throw CommandFailure.usage(
                "--screens needs a directory; an empty value would quietly save into the current one")
        }
        var options = self.options
        var notices: [String] = []
        var prepared: PreparedScenario?
        if let choice, let checked {
            let ready = try await choice.prepare(checked, options)
            options = ready.options
            notices.append(ready.note)
            prepared = ready
        }
        // The store resumes on the runner, before its first effect: the first frame does not wait for it.
        let session = try await options.open(
            followAccountOnly: false, retryBudget: .seconds(3), resuming: false, announcing: false)
        let screenDirectory =
            screens.map { URL(fileURLWithPath: $0) } ?? session.stateDirectory.appendingPathComponent("screens")
        let runner = EffectRunner(
            store: session.store, observer: session.observer,
            screens: ScreenFiles(directory: screenDirectory, title: "Storefront — \(session.storeLabel)"),
            slowMotion: slowMotion.map { .milliseconds(Int64(($0 * 1000).rounded())) },
            offersKey: session.offersKeySource)
        let worker = runner.start(first: session.resume)
        // The terminal app's scheduler: renewals and the rest of the store's time-driven work run
        // here, a pass a second, and reach the screen as updates; a remote store's server runs its own.
        let scheduler = (session.store as? SimulatedStore).map { store in
            Task {
                // A pass that fails (a locked or full disk) is tried again a second later; the
                // screen shows the store's own errors when the app next reads or writes.
                await store.scheduler.run(every: 1, failed: { _ in })
            }
        }
        var state = AppState(
            catalog: session.context.catalog,
            storeLabel: session.storeLabel + (prepared.map { " · scenario \($0.name)" } ?? ""),
            language: session.language,
            account: session.account, storefront: session.storefront, localeOverride: options.catalog.locale,
            asciiOnly: false, size: .zero, now: Date())
        // The first snapshot then says what changed since opening, not what the store holds.
        state.controls = session.controls
        if showKeys { state.keyEcho = KeyEcho() }
        notices += session.notices
        if !notices.isEmpty {
            state.status = StatusMessage(
                text: notices.joined(separator: " · "), level: .warning,
                expires: Date().addingTimeInterval(scenario == nil ? 20 : 60))
        }
        do {
            try await UILoop.run(state, runner: runner, exitAfterFirstFrame: exitAfterFirstFrame)
        } catch let error as TerminalError {
            throw CommandFailure.failure("\(error)")
        }
        if exitAfterFirstFrame {
            // The measurement ends with the frame, and every commit is already on the disk: leave
            // without closing the databases, which checkpoints their logs (teardown, not start-up).
            Foundation.exit(0)
        }
        runner.finish()
        worker.cancel()
        scheduler?.cancel()
        // Held to here: a second start of the scenario would have emptied it under this one.
        if let prepared { withExtendedLifetime(prepared.lock) { Console.err("storefront: \(prepared.exitNote)") } }
    }

    /// Runs this command again, without `--record`, in a pseudo-terminal that records it; exits
    /// with its status.
    private static func recordSession(to path: String) throws -> Never {
        guard !path.isEmpty else { throw CommandFailure.usage("--record needs a file name (such as walkthrough.cast)") }
        let options = Recorder.Options(
            file: URL(fileURLWithPath: path),
            arguments: [StorefrontChild.executable] + removingRecord(from: Array(CommandLine.arguments.dropFirst())),
            title: "Storefront")
        do {
            Foundation.exit(try Recorder.run(options))
        } catch {
            throw CommandFailure.failure("--record: \(error); choose a file in a directory that exists and is writable")
        }
    }

    /// The arguments without `--record FILE` (or `--record=FILE`).
    static func removingRecord(from arguments: [String]) -> [String] {
        var kept: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--record" {
                index += 2
                continue
            }
            if !argument.hasPrefix("--record=") { kept.append(argument) }
            index += 1
        }
        return kept
    }
}
