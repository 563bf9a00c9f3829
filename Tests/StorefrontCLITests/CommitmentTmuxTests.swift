import Foundation
import TestSupport
import Testing

/// A monthly plan with a 12-month commitment in the real terminal: lena (Germany) chooses it on
/// the purchase sheet, cancels a few payments in, and the payments left are still billed up to
/// the twelfth, after which it ends. Two seconds a payment keeps the whole commitment under half
/// a minute.
@Suite(.serialized) struct CommitmentTmuxTests {
    static let yearly = "com.example.storefront.premium.yearly"

    @Test func cancelledMidCommitmentItBillsToPaymentTwelveThenEnds() throws {
        let app = InteractiveEndToEndTests.App()
        _ = try Executable.run(["manage", "set", "time-rate", "2s", "--state", app.state.path])
        let session = try TmuxSession.start(
            command: [Executable.url.path, "--state", app.state.path, "--account", "lena"], columns: 100, rows: 30)
        defer { session.kill() }
        try session.waitFor(text: "Products 1/12")
        try session.sendKeys("/")
        try session.type("premium yearly")
        try session.sendKeys("Enter")
        try session.waitFor(text: "> Premium Yearly")
        try session.sendKeys("Enter")
        try session.waitFor(text: "Billing     up front")
        try session.sendKeys("b")
        try session.waitUntil("the sheet states the commitment") {
            Self.sheetText($0).contains(
                "12 monthly payments of 4,99 €, 59,88 € in total; cancel any time to stop the next commitment")
        }
        try session.sendKeys("Enter")
        try session.waitUntil("a few payments in", timeout: .seconds(20)) { (Self.payment(on: $0) ?? 0) >= 3 }
        try cancel(session)
        let cancelled = try session.waitFor(text: "ends after payment 12 of 12")
        let at = try #require(Self.payment(on: cancelled))
        #expect(at < 12, "cancelled with payments left: \(cancelled)")
        try session.sendKeys("Escape")
        try session.waitUntil("billed to the twelfth payment, then ended", timeout: .seconds(40)) {
            $0.contains("Premium Yearly expired · payment 12 of 12")
        }
        // Another period on, a read of the store renews nothing: twelve payments in all.
        usleep(2_500_000)
        let listed = try Executable.run(["transactions", "--json", "--account", "lena", "--state", app.state.path])
        let output = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any]
        let history = output?["history"] as? [[String: Any]] ?? []
        #expect(history.filter { $0["productId"] as? String == Self.yearly }.count == 12, "\(listed.stdout)")
        #expect(try session.capture().contains("Premium Yearly expired · payment 12 of 12"))
    }

    /// The sheet's lines joined, as they wrap in its box: what lies between each row's borders.
    static func sheetText(_ screen: String) -> String {
        screen.split(separator: "\n").compactMap { row -> String? in
            guard let first = row.firstIndex(of: "│"), let last = row.lastIndex(of: "│"), first < last else {
                return nil
            }
            return row[row.index(after: first)..<last].trimmingCharacters(in: .whitespaces)
        }.joined(separator: " ").plainSpaces
    }

    /// The payment the wallet line shows: "payment 4 of 12".
    static func payment(on screen: String) -> Int? {
        screen.firstMatch(of: /payment (\d+) of 12/).flatMap { Int($0.1) }
    }

    /// Auto-renew off through the subscriptions sheet and the App Store's cancellation sheet. A
    /// period lasts two seconds and the store renews when the UI reads it, so the subscription can
    /// be past its expiry on screen for a moment, when Enter does nothing: pressed again then.
    func cancel(_ session: TmuxSession) throws {
        try session.sendKeys("u")
        try session.waitFor(text: "cancel / resume")
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(10))
        while clock.now < deadline {
            try session.sendKeys("Enter")
            if (try? session.waitFor(text: "Cancel Premium Yearly?", timeout: .seconds(1))) != nil { break }
        }
        try session.waitFor(text: "Cancel Premium Yearly?")
        try session.sendKeys("Enter")
    }
}

extension String {
    /// ICU separates an amount from its currency with a no-break space; tests type plain ones.
    fileprivate var plainSpaces: String {
        replacingOccurrences(of: "\u{00A0}", with: " ").replacingOccurrences(of: "\u{202F}", with: " ")
    }
}
