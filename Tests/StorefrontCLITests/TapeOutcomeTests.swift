import Foundation
import TestSupport
import Testing

/// A tape checks what a walkthrough ended in: a plain `Wait` takes only text the keys brought,
/// `Expect` reads the store, and a tape written as `record --tape` writes it fails when the same
/// walkthrough's purchase, restore or refund fails.
@Suite struct TapeOutcomeTests {
    /// Plays `text` as a tape in a scratch directory of its own; the result and the directory.
    static func play(_ text: String, label: String) throws -> (result: Executable.Result, directory: URL) {
        let directory = scratchDirectory(label)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let tape = directory.appendingPathComponent("flow.tape")
        try text.write(to: tape, atomically: true, encoding: .utf8)
        return (try Executable.run(["play", tape.path, "--catalog", PlayTapeTests.catalog]), directory)
    }

    static let header = "Set Width 100\nSet Height 30\nWait /Products 1\\/12/\n"

    /// Remove Ads bought, as `record --tape` writes the walkthrough: the outcome's text and the
    /// transaction's state, never "Non-consumable", on screen all along.
    static let purchase = """
        Down 4
        Enter
        # paused 1.2 s
        Wait /Confirm your in-app purchase/
        Enter
        # paused 2.0 s
        Wait /Owned/
        Expect transaction 1 state purchased

        """

    @Test func aPlainWaitTakesOnlyTextTheKeysBrought() throws {
        let (stale, _) = try Self.play(Self.header + "Down\nWait@1s /Non-consumable/\n", label: "wait-new")
        #expect(stale.status == 1, "\(stale)")
        #expect(stale.stderr.contains("flow.tape:5: Wait@1s /Non-consumable/"), "\(stale.stderr)")
        #expect(
            stale.stderr.contains("no new match for /Non-consumable/ on the screen within 1 s (it matches only text"),
            "\(stale.stderr)")
        let (screen, _) = try Self.play(
            Self.header + "Down\nWait+Screen@1s /Non-consumable/\nWait+Line@1s /quit/\nWait /Products 2\\/12/\n",
            label: "wait-screen")
        #expect(screen.status == 0, "\(screen)")
    }

    @Test func aFailingExpectNamesItsLineWithWhatTheStoreHas() throws {
        let (result, _) = try Self.play(
            Self.header + Self.purchase + "Expect owned com.example.storefront.removeads\nExpect wallet gems 300\n",
            label: "expect-fails")
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("flow.tape:13: Expect wallet gems 300"), "\(result.stderr)")
        #expect(result.stderr.contains("expected wallet gems 300, the store has wallet gems 0"), "\(result.stderr)")
    }

    /// What record writes for each walkthrough, and the failure that makes the same walkthrough
    /// end otherwise, inserted after the first Wait as a tester would.
    static let walkthroughs: [(name: String, tape: String, failure: String)] = [
        ("purchase", purchase, "Store set next-outcome fail:4"),
        (
            "restore",
            purchase + "Type \"r\"\n# paused 1.5 s\nWait /Restored: Remove Ads/\n",
            "Store set api-error app-store-sync network"
        ),
        (
            // The storefront reads a refund request's simulated error when the purchase updates it.
            // The App Store grants the request at once (a request otherwise waits for a decision).
            "refund",
            purchase + "Store set auto-approve-refunds on\n"
                + "Type \"f\"\n# paused 1.0 s\nWait /Request a Refund/\nEnter\n# paused 1.5 s\nWait /refunded/\n"
                + "Expect transaction 1 state refunded\n",
            "Store set api-error refund-request network"
        ),
    ]

    @Test(arguments: walkthroughs.map(\.name))
    func aRecordedTapeFailsWhenItsWalkthroughDoes(_ name: String) throws {
        guard let walkthrough = Self.walkthroughs.first(where: { $0.name == name }) else { return }
        let (passed, _) = try Self.play(Self.header + walkthrough.tape, label: "outcome-\(name)")
        #expect(passed.status == 0, "\(name) replays: \(passed)")
        let (failed, _) = try Self.play(
            Self.header + walkthrough.failure + "\n" + walkthrough.tape, label: "outcome-\(name)-failing")
        #expect(failed.status == 1, "\(name) with \(walkthrough.failure): \(failed)")
        #expect(failed.stderr.contains("flow.tape:"), "\(failed.stderr)")
    }
}
