import ArgumentParser
import Foundation
import TerminalRecording

/// `storefront record --tape FILE.tape`: a walkthrough by hand, written as a tape to replay.
struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Open the storefront and write what you do as a tape that storefront play replays.",
        discussion: """
            The tape holds the keys you press and, at each pause (0.8 s or more), a Wait for text the keys
            brought to the screen (what a purchase, restore or refund ended in, when the store reported
            one) and an Expect for each transaction's final state, so the walkthrough replays as a
            regression test that fails when it ends otherwise. Quit (q) to write it.
            """
    )

    @Option(name: .long, help: ArgumentHelp("The tape to write.", valueName: "file.tape"))
    var tape: String

    @Option(name: .long, help: ArgumentHelp("Also record the session as asciicast v2.", valueName: "file.cast"))
    var cast: String?

    @OptionGroup var store: ChildStoreOptions

    func run() throws {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw CommandFailure.usage(
                "storefront record needs a terminal to walk through; to run a tape without one use storefront play")
        }
        let options = Recorder.Options(
            file: cast.map { URL(fileURLWithPath: $0) },
            arguments: [StorefrontChild.executable] + store.arguments()
                + ChildStoreOptions.scenarioArguments(store.scenario),
            title: "Storefront", tape: URL(fileURLWithPath: tape), scenario: store.scenario)
        let status: Int32
        do {
            status = try Recorder.run(options)
        } catch {
            throw CommandFailure.failure("storefront record: \(error)")
        }
        Console.err("wrote \(tape)")
        if status != 0 { throw ExitCode(status) }
    }
}
