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

    /// A copy of an example tape in a new scratch directory: a tape's files land beside it.
    static func copied(_ name: String, label: String) throws -> URL {
        let directory = scratchDirectory(label)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let copy = directory.appendingPathComponent(name)
        try FileManager.default.copyItem(at: tapes.appendingPathComponent(name), to: copy)
        return copy
    }

    @Test(arguments: exampleTapes())
    func theExampleTapePasses(_ name: String) throws {
        let tape = try Self.copied(name, label: "play")
        let result = try Executable.run(["play", tape.path, "--catalog", Self.catalog])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasSuffix("steps passed\n"), "\(result.stdout)")
    }

    @Test func thereAreExampleTapesForTheMainFlows() {
        #expect(Self.exampleTapes().count >= 3)
    }

    @Test func theTapeWritesItsRecordingAndScreenshot() throws {
        // Played from elsewhere: its files land beside the tape, not in the current directory.
        let tape = try Self.copied("buy-consumable.tape", label: "play-files")
        let directory = tape.deletingLastPathComponent()
        let result = try Executable.run(["play", tape.path, "--catalog", Self.catalog])
        #expect(result.status == 0, "\(result.stderr)")
        // Each file it wrote, listed; the recording last, as it is whole only once the run ends.
        #expect(
            result.stdout.split(separator: "\n").prefix(2) == [
                "wrote \(directory.path)/buy-consumable.txt", "wrote \(directory.path)/buy-consumable.cast",
            ], "\(result.stdout)")
        let here = try Executable.run(
            ["play", tape.lastPathComponent, "--catalog", Self.catalog], directory: directory)
        #expect(here.stdout.hasPrefix("wrote buy-consumable.txt\nwrote buy-consumable.cast\n"), "\(here.stdout)")
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
        #expect(lines.dropFirst().first == "  no new match for /Total +\\$9\\.99/ on the screen within 1 s")
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
        let tape = try Self.copied("buy-consumable.tape", label: "play-no-catalog")
        let result = try Executable.run(["play", tape.path], directory: tape.deletingLastPathComponent())
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

/// Tapes are data a team shares: what one may do to the machine that plays it.
@Suite struct TapeAsDataTests {
    /// A shared tape is data: it may not load code into the storefront, nor write outside its
    /// own directory, unless `--allow-paths` says it may write elsewhere.
    @Test func aTapeSetsOnlyTheStorefrontsVariablesAndWritesOnlyBesideItself() throws {
        let directory = scratchDirectory("play-hostile")
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("shots"), withIntermediateDirectories: true)
        let outside = scratchDirectory("play-outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: directory.appendingPathComponent("link"), withDestinationURL: outside)
        let tape = directory.appendingPathComponent("hostile.tape")
        try "Env LD_PRELOAD /tmp/x.so\nEnv LC_ALL C.UTF-8\nWait /Products/\n".write(
            to: tape, atomically: true, encoding: .utf8)
        let code = try Executable.run(["play", tape.path, "--catalog", PlayTapeTests.catalog])
        #expect(
            code.status == 2 && code.stderr.contains("hostile.tape:1:1: Env LD_PRELOAD: a tape sets only"), "\(code)")
        #expect(!code.stderr.contains("hostile.tape:2:"), "LC_ALL is the storefront's: \(code.stderr)")
        try """
        Output \(outside.path)/x.cast
        Wait /Products/
        Screenshot ../escaped.txt
        Screenshot link/through-the-link.txt
        Screenshot shots/fine.txt
        """.write(to: tape, atomically: true, encoding: .utf8)
        let refused = try Executable.run(["play", tape.path, "--catalog", PlayTapeTests.catalog])
        #expect(refused.status == 2, "\(refused)")
        for line in [1, 3, 4] {
            #expect(refused.stderr.contains("hostile.tape:\(line):"), "line \(line): \(refused.stderr)")
        }
        #expect(!refused.stderr.contains("hostile.tape:5:"), "\(refused.stderr)")
        #expect(refused.stderr.contains("pass --allow-paths"), "\(refused.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty)

        // Without the variable, the writer it trusts writes through the link and beside the tape.
        try """
        Wait /Products/
        Screenshot link/through-the-link.txt
        Screenshot shots/fine.txt
        """.write(to: tape, atomically: true, encoding: .utf8)
        let allowed = try Executable.run(["play", tape.path, "--catalog", PlayTapeTests.catalog, "--allow-paths"])
        #expect(allowed.status == 0, "\(allowed)")
        #expect(FileManager.default.fileExists(atPath: outside.appendingPathComponent("through-the-link.txt").path))
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("shots/fine.txt").path))
    }

    /// A name beside the tape that is a hard link to a file elsewhere (or a symbolic link made
    /// after the tape was checked) gets a new file: what the link reached is left as it was.
    @Test func aTapesFilesAreNewFilesNeverWrittenThroughALink() throws {
        let directory = scratchDirectory("play-links")
        let outside = scratchDirectory("play-links-outside")
        for place in [directory, outside] {
            try FileManager.default.createDirectory(at: place, withIntermediateDirectories: true)
        }
        for name in ["demo.cast", "shot.txt"] {
            let target = outside.appendingPathComponent(name)
            try "precious\n".write(to: target, atomically: false, encoding: .utf8)
            try FileManager.default.linkItem(at: target, to: directory.appendingPathComponent(name))
        }
        let tape = directory.appendingPathComponent("links.tape")
        try "Output demo.cast\nWait /Products/\nScreenshot shot.txt\n".write(
            to: tape, atomically: true, encoding: .utf8)
        let played = try Executable.run(["play", tape.path, "--catalog", PlayTapeTests.catalog])
        #expect(played.status == 0, "\(played)")
        for name in ["demo.cast", "shot.txt"] {
            #expect(try String(contentsOf: outside.appendingPathComponent(name), encoding: .utf8) == "precious\n")
            #expect(
                try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8) != "precious\n",
                "\(name)")
        }
    }
}
