import Foundation
import TestSupport
import Testing

/// Ctrl+S in the real terminal: the saved text is the screen tmux shows, and the files land in
/// the state directory's screens/ (or --screens).
@Suite(.serialized) struct ScreenshotTmuxTests {
    typealias App = InteractiveEndToEndTests.App

    @Test func ctrlSSavesTheScreenTmuxShows() throws {
        let app = App()
        let session = try app.launch()
        defer { session.kill() }
        try session.sendKeys("i")
        try session.waitFor(text: "Esc closes")
        try session.sendKeys("C-s")
        let saved = try session.waitFor(text: "Screen saved: ")
        let screens = app.state.appendingPathComponent("screens")
        let names = try FileManager.default.contentsOfDirectory(atPath: screens.path).sorted()
        #expect(names.count == 3 && names.allSatisfy { $0.hasPrefix("screen-") }, "\(names)")
        #expect(Set(names.map { ($0 as NSString).pathExtension }) == ["txt", "ansi", "svg"])
        let text = try String(
            contentsOf: screens.appendingPathComponent(names.first { $0.hasSuffix(".txt") } ?? ""), encoding: .utf8)
        // The status line changed after the save (it says so); every other row is the same.
        func rows(_ screen: String) -> [String] {
            screen.split(separator: "\n", omittingEmptySubsequences: false).prefix(30).map { String($0) }
                .filter { !$0.contains("Screen saved") }.map {
                    $0.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
                }
        }
        #expect(rows(text).count == 30)
        #expect(
            rows(text).filter { !$0.isEmpty } == rows(saved).filter { !$0.isEmpty }, "saved:\n\(text)\nshown:\n\(saved)"
        )
        let stem = (names[0] as NSString).deletingPathExtension
        #expect(saved.contains(stem + ".{txt,ansi,svg}"), "the status names the files: \(saved)")
    }

    @Test func screensGoWhereTheOptionSays() throws {
        let app = App()
        let elsewhere = scratchDirectory("screens-elsewhere")
        let session = try TmuxSession.start(
            command: [Executable.url.path, "--state", app.state.path, "--screens", elsewhere.path],
            columns: 100, rows: 30)
        defer { session.kill() }
        try session.waitFor(text: "Products 1/12")
        try session.sendKeys("C-s")
        try session.waitFor(text: "Screen saved: ")
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).count == 3)
    }
}
