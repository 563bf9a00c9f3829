import ArgumentParser
import Foundation
import ScreenCapture
import TapeScript

/// `storefront screenshot FILE…`: the storefront's screen as it stands, without a terminal.
struct ScreenshotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "screenshot",
        abstract: "Write the storefront's screen, once its products are loaded, as .txt, .ansi or .svg files.",
        discussion: """
            Opens the storefront on the state directory (its store, account, controls and transactions as
            they are) in a pseudo-terminal of the given size, waits for the product list, and writes each
            file in the format its extension names. For the screen during a flow, use a tape's Screenshot
            (storefront play) or Ctrl+S in the storefront.
            """
    )

    @Argument(
        help: ArgumentHelp("Files to write: .txt (text), .ansi (with colours) or .svg (a picture).", valueName: "file"))
    var files: [String]

    @Option(name: .long, help: "Terminal width in cells (default 100).")
    var width = 100

    @Option(name: .long, help: "Terminal height in cells (default 30).")
    var height = 30

    @OptionGroup var store: ChildStoreOptions

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("name at least one file: shot.txt, shot.ansi or shot.svg") }
        for file in files where Screenshot.Format(fileName: file) == nil {
            throw ValidationError("\(file): a screenshot is .txt, .ansi or .svg")
        }
        guard (20...1000).contains(width), (10...1000).contains(height) else {
            throw ValidationError("--width takes 20 to 1000 cells and --height 10 to 1000")
        }
    }

    func run() throws {
        // Painted, and no longer loading (in either language): the list, or why there is none.
        let loaded = #"\A(?![\s\S]*(Loading products…|正在加载商品…))[\s\S]*Storefront"#
        var steps: [Tape.Command] = [
            .setWidth(width), .setHeight(height),
            .wait(Tape.Wait(scope: .screen, timeoutMilliseconds: 30_000, pattern: loaded)),
        ]
        steps += files.map { .screenshot($0) }
        let numbered = steps.enumerated().map {
            Tape.Step(line: $0.offset + 1, command: $0.element, source: "\($0.element)")
        }
        if let failure = try TapePlayback(
            steps: numbered, tapeName: "screenshot", storeArguments: store.arguments(), scenario: store.scenario
        ).run().failure {
            Console.err("storefront: no screenshot: \(failure.message)")
            Console.err(lines: failure.screenLines)
            throw ExitCode(1)
        }
        Console.out("wrote \(files.joined(separator: ", "))")
    }
}
