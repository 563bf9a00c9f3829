import Foundation
import TestSupport
import Testing

/// `--record`: a session in tmux is recorded, the recording is asciicast v2 that asciinema reads,
/// and pyte, a terminal emulator, replays its output to the screen tmux showed.
@Suite(.serialized) struct RecordingTmuxTests {
    typealias App = InteractiveEndToEndTests.App

    struct Cast {
        let header: [String: Any]
        let events: [(time: Double, code: String, data: String)]

        init(_ url: URL) throws {
            let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
            header = try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any] ?? [:]
            events = try lines.dropFirst().map { line in
                let array = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [Any] ?? []
                return (
                    (array[0] as? NSNumber)?.doubleValue ?? -1, array[1] as? String ?? "", array[2] as? String ?? ""
                )
            }
        }

        func data(_ code: String) -> [String] { events.filter { $0.code == code }.map(\.data) }
    }

    @Test func aRecordedPurchaseReplaysToTheScreenTmuxShowed() throws {
        let app = App()
        let directory = scratchDirectory("recordings")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let cast = directory.appendingPathComponent("walkthrough.cast")
        let session = try TmuxSession.start(
            command: [Executable.url.path, "--state", app.state.path, "--record", cast.path],
            columns: 100, rows: 30)
        defer { session.kill() }
        try session.waitFor(text: "Products 1/12", timeout: .seconds(60))
        try session.sendKeys("Enter")
        try session.waitFor(text: "Confirm your in-app purchase")
        try session.sendKeys("Enter")
        try session.waitUntil("100 gems, verified and finished") {
            $0.contains("Wallet: 100 gems") && $0.contains("verified ✓ finished")
        }
        try session.resize(columns: 90, rows: 28)
        try session.waitUntil("redrawn at 90 columns") {
            $0.split(separator: "\n").first?.hasSuffix("? help") == true && !$0.contains("Wallet: 100 gems\n100 Gems")
        }
        // A screen that stays put: the status line has expired, nothing moves, and the frame is
        // whole (its last row, the key hints, drawn): on a loaded machine two captures can meet
        // while the app is descheduled halfway through a frame.
        var shown = try session.capture()
        try session.waitUntil("a whole screen that no longer changes") { screen in
            defer { shown = screen }
            return screen == shown && !screen.contains("delivered, verified and finished") && screen.contains("q quit")
        }
        try session.sendKeys("q")
        let exit = try session.waitForExit(timeout: .seconds(60))
        #expect(exit.status == 0 && exit.terminalRestored)

        let recording = try Cast(cast)
        #expect(recording.header["version"] as? Int == 2)
        #expect(recording.header["width"] as? Int == 100 && recording.header["height"] as? Int == 30)
        #expect((recording.header["env"] as? [String: String])?.keys.sorted() == ["SHELL", "TERM"])
        #expect(recording.header["timestamp"] is Int && recording.header["title"] as? String == "Storefront")
        #expect(
            zip(recording.events, recording.events.dropFirst()).allSatisfy { $0.time <= $1.time }, "times never go back"
        )
        #expect(recording.data("i") == ["\r", "\r", "q"])
        #expect(recording.data("r") == ["90x28"])
        let markers = recording.data("m")
        #expect(
            Array(markers.prefix(2)) == [
                "products loaded", "purchasing 2000000000000001 com.example.storefront.gems.100",
            ])
        #expect(
            Array(markers.dropFirst(2))
                == ["purchased", "delivered", "verified", "finished"].map { "\($0) 2000000000000001" })

        let replayed = try Executable.run(python: [
            Executable.repositoryRoot.appendingPathComponent("Tests/Python/replay_cast.py").path,
            cast.path, "--before-input", "q",
        ])
        #expect(replayed.status == 0, "\(replayed.stderr)")
        #expect(
            replayed.stdout.split(separator: "\n", omittingEmptySubsequences: false).prefix(28)
                == shown.split(separator: "\n", omittingEmptySubsequences: false).prefix(28),
            "pyte:\n\(replayed.stdout)\ntmux:\n\(shown)")

        // asciinema reads it: `cat` plays every output event in order.
        let played = try Executable.run(["-m", "asciinema", "cat", cast.path], program: "python3")
        #expect(played.status == 0, "\(played.stderr)")
        #expect(played.stdout == recording.data("o").joined())
    }
}

/// `storefront record --tape`: a walkthrough in tmux becomes a tape that `storefront play` passes.
@Suite(.serialized) struct RecordTapeTmuxTests {
    static let catalog = Executable.repositoryRoot.appendingPathComponent("products.json").path

    /// `storefront record --tape NAME` started in tmux in a scratch directory `label`, its list shown.
    static func record(_ label: String, tape name: String) throws -> (URL, URL, TmuxSession) {
        let directory = scratchDirectory(label)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let tape = directory.appendingPathComponent(name)
        let session = try TmuxSession.start(
            command: [
                Executable.url.path, "record", "--tape", tape.path, "--catalog", catalog,
                "--state", directory.appendingPathComponent("state").path,
            ], columns: 100, rows: 30)
        do {
            try session.waitFor(text: "Products 1/12", timeout: .seconds(60))
        } catch {
            session.kill()
            throw error
        }
        return (directory, tape, session)
    }

    @Test func aWalkthroughBecomesATapeThatReplays() throws {
        let (directory, tape, session) = try Self.record("record-tape", tape: "walk.tape")
        defer { session.kill() }
        try session.sendKeys("Down", "Down")
        try session.waitFor(text: "Products 3/12")
        Thread.sleep(forTimeInterval: 1)  // a pause: the tape waits for what it shows
        try session.sendKeys("i")
        try session.waitFor(text: "Product details")
        Thread.sleep(forTimeInterval: 1)
        try session.sendKeys("Escape", "Enter")
        try session.waitFor(text: "Confirm your in-app purchase")
        Thread.sleep(forTimeInterval: 1)
        try session.sendKeys("q")
        let exit = try session.waitForExit(timeout: .seconds(60))
        #expect(exit.status == 0 && exit.terminalRestored)

        let written = try String(contentsOf: tape, encoding: .utf8)
        let lines = written.split(separator: "\n").map(String.init)
        #expect(lines.contains("Down 2") && lines.contains("Type \"i\"") && lines.contains("Escape"), "\(written)")
        #expect(lines.contains("Wait /Products 3\\/12/") && lines.contains("Wait /Product details/"), "\(written)")
        let replayed = try Executable.run(["play", tape.path, "--catalog", Self.catalog], directory: directory)
        #expect(replayed.status == 0, "the recorded tape replays: \(replayed.stderr)\n\(written)")
    }

    /// A recorded purchase waits for what it ended in and expects the transaction's state: the
    /// same tape fails once the purchase does, where a Wait for text on screen all along passed.
    @Test func aRecordedPurchaseFailsWhenThePurchaseDoes() throws {
        let (directory, tape, session) = try Self.record("record-purchase", tape: "buy.tape")
        defer { session.kill() }
        try session.sendKeys("Down", "Down", "Down", "Down")
        try session.waitFor(text: "Products 5/12")
        try session.sendKeys("Enter")
        try session.waitFor(text: "Confirm your in-app purchase")
        Thread.sleep(forTimeInterval: 1)
        try session.sendKeys("Enter")
        try session.waitFor(text: "delivered, verified and finished")
        Thread.sleep(forTimeInterval: 1)
        try session.sendKeys("q")
        let exit = try session.waitForExit(timeout: .seconds(60))
        #expect(exit.status == 0 && exit.terminalRestored)

        let written = try String(contentsOf: tape, encoding: .utf8)
        let lines = written.split(separator: "\n").map(String.init)
        #expect(lines.contains("Expect transaction 1 state purchased"), "\(written)")
        #expect(!lines.contains { $0.hasPrefix("Wait /Non-consumable") }, "\(written)")
        let replayed = try Executable.run(["play", tape.path, "--catalog", Self.catalog], directory: directory)
        #expect(replayed.status == 0, "the recorded tape replays: \(replayed.stderr)\n\(written)")

        var failing = lines
        failing.insert("Store set next-outcome fail:4", at: (lines.firstIndex { $0.hasPrefix("Wait ") } ?? 0) + 1)
        try (failing.joined(separator: "\n") + "\n").write(to: tape, atomically: true, encoding: .utf8)
        let failed = try Executable.run(["play", tape.path, "--catalog", Self.catalog], directory: directory)
        #expect(failed.status == 1, "the purchase failed, and so does the tape: \(failed)\n\(written)")
    }
}
