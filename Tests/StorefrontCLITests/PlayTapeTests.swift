import Foundation
import TestSupport
import Testing

/// `storefront play`: the example tapes in Tapes/ pass, the deliberately failing one fails with
/// its line and the screen, and a tape with problems is refused with each one, nothing run.
@Suite struct PlayTapeTests {
    static let tapes = Executable.repositoryRoot.appendingPathComponent("Tapes")
    /// The tapes run in a scratch directory (their Output and Screenshot files land there).
    static let catalog = Executable.repositoryRoot.appendingPathComponent("products.json").path

    static func exampleTapes() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: tapes.path)) ?? []).filter { $0.hasSuffix(".tape") }
            .sorted()
    }

    @Test(arguments: exampleTapes())
    func theExampleTapePasses(_ name: String) throws {
        let directory = scratchDirectory("play")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let result = try Executable.run(
            ["play", Self.tapes.appendingPathComponent(name).path, "--catalog", Self.catalog], directory: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasSuffix("steps passed\n"), "\(result.stdout)")
    }

    @Test func thereAreExampleTapesForTheMainFlows() {
        #expect(Self.exampleTapes().count >= 3)
    }

    @Test func theTapeWritesItsRecordingAndScreenshot() throws {
        let directory = scratchDirectory("play-files")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let result = try Executable.run(
            ["play", Self.tapes.appendingPathComponent("buy-consumable.tape").path, "--catalog", Self.catalog],
            directory: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let screen = try String(contentsOf: directory.appendingPathComponent("buy-consumable.txt"), encoding: .utf8)
        #expect(screen.contains("Wallet: 200 gems") && screen.contains("verified ✓ finished"), "\(screen)")
        let cast = try String(contentsOf: directory.appendingPathComponent("buy-consumable.cast"), encoding: .utf8)
        let lines = cast.split(separator: "\n")
        #expect(lines.first?.hasPrefix(#"{"version":2,"width":100,"height":30,"#) == true)
        #expect(lines.contains { $0.contains(#","m","finished 2000000000000001"]"#) })
        #expect(lines.contains { $0.contains(#","i","\r"]"#) })
    }

    @Test func theDeliberatelyFailingTapeNamesItsLineAndShowsTheScreen() throws {
        let result = try Executable.run(["play", Self.tapes.appendingPathComponent("failing/wrong-total.tape").path])
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.first?.hasSuffix("wrong-total.tape:8: Wait@1s /Total +\\$9\\.99/") == true, "\(result.stderr)")
        #expect(lines.dropFirst().first == "  no match for /Total +\\$9\\.99/ on the screen within 1 s")
        #expect(result.stderr.contains("│  Total       $0.99"), "the screen at that moment: \(result.stderr)")
    }

    /// Nested repetition backtracks exponentially on a screen of spaces with no Z: the match is
    /// stopped at the Wait's own timeout instead of running for minutes.
    @Test func aRegularExpressionThatBacktracksWithoutEndStopsAtItsTimeout() throws {
        let directory = scratchDirectory("play-backtracking")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let tape = directory.appendingPathComponent("backtracking.tape")
        try "Set Width 100\nSet Height 30\nWait /Products 1\\/12/\nWait@2s /( +)+Z/\n".write(
            to: tape, atomically: true, encoding: .utf8)
        let started = ContinuousClock.now
        let result = try Executable.run(["play", tape.path, "--catalog", Self.catalog], directory: directory)
        #expect(ContinuousClock.now - started < .seconds(60), "the match ran on past its timeout")
        #expect(result.status == 1)
        #expect(result.stderr.contains("backtracking.tape:4: Wait@2s /( +)+Z/"), "\(result.stderr)")
        #expect(result.stderr.contains("did not finish within the Wait's 2 s"), "\(result.stderr)")
    }

    @Test func aStorefrontThatCannotStartFailsTheTapeWithWhatItSaid() throws {
        let directory = scratchDirectory("play-no-catalog")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let result = try Executable.run(
            ["play", Self.tapes.appendingPathComponent("buy-consumable.tape").path], directory: directory)
        #expect(result.status == 1)
        #expect(result.stderr.contains("the storefront exited while waiting"), "\(result.stderr)")
        #expect(result.stderr.contains("products.json"), "its own message: \(result.stderr)")
    }

    @Test func aTapeWithProblemsIsRefusedWithEachOneAndNothingRuns() throws {
        let directory = scratchDirectory("bad-tape")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let tape = directory.appendingPathComponent("bad.tape")
        try "Output run.cast\nEnter\nTipe \"x\"\nWait /[/\n".write(to: tape, atomically: true, encoding: .utf8)
        let result = try Executable.run(["play", tape.path], directory: directory)
        #expect(result.status == 2)
        #expect(result.stderr.contains("bad.tape:3:1: unknown command Tipe"), "\(result.stderr)")
        #expect(result.stderr.contains("bad.tape:4:7: /[/ is not a regular expression"), "\(result.stderr)")
        #expect(result.stderr.contains("2 problems in"), "\(result.stderr)")
        #expect(
            !FileManager.default.fileExists(atPath: directory.appendingPathComponent("run.cast").path),
            "nothing was run")
        let missing = try Executable.run(["play", directory.appendingPathComponent("none.tape").path])
        #expect(missing.status == 2 && missing.stderr.contains("cannot read the tape"))
    }
}

/// `storefront screenshot`: the screen as it stands, without a terminal.
@Suite struct ScreenshotCommandTests {
    @Test func writesTheLoadedScreenInEachFormatAsked() throws {
        let directory = scratchDirectory("screenshot-command")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let state = directory.appendingPathComponent("state").path
        _ = try Executable.run(["buy", "com.example.storefront.removeads", "--state", state])
        let result = try Executable.run(
            [
                "screenshot", "s.txt", "s.ansi", "s.svg", "--width", "90", "--height", "26", "--state", state,
                "--catalog", PlayTapeTests.catalog,
            ], directory: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOf: directory.appendingPathComponent("s.txt"), encoding: .utf8)
        #expect(
            text.split(separator: "\n", omittingEmptySubsequences: false).count == 27, "26 rows and the last line break"
        )
        #expect(text.contains("Products 1/12") && text.contains("Owned: Remove Ads"), "the store as it stands: \(text)")
        #expect(
            try String(contentsOf: directory.appendingPathComponent("s.ansi"), encoding: .utf8).contains(
                "\u{1B}[0;1;32m$"), "prices in bold green")
        #expect(
            try String(contentsOf: directory.appendingPathComponent("s.svg"), encoding: .utf8).contains(
                #"data-columns="90" data-rows="26""#))
    }

    @Test func aFormatItCannotWriteIsAUsageError() throws {
        let result = try Executable.run(["screenshot", "shot.png"])
        #expect(
            result.status == 2 && result.stderr.contains("shot.png: a screenshot is .txt, .ansi or .svg"),
            "\(result.stderr)")
    }
}
