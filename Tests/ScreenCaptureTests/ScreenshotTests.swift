import CellGrid
import Foundation
import Testing

@testable import ScreenCapture

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite struct ScreenshotTests {
    /// A 20×3 screen: a title, a price, a selected row with a CJK name, a status bar.
    static func sample() -> Grid {
        var grid = Grid(size: TerminalSize(columns: 20, rows: 3))
        grid.write("Store", row: 0, column: 0, role: .title)
        grid.write("$0.99", row: 0, column: 10, role: .price)
        grid.fill(Rect(row: 1, column: 0, width: 20, height: 1), role: .selected)
        grid.write("宝石 <gems> & co", row: 1, column: 1, role: .selected)
        grid.write("bold", row: 2, column: 0, attributes: .bold)
        return grid
    }

    @Test func textIsTheRowsWithoutTrailingBlanks() {
        let shot = Screenshot(grid: Self.sample(), title: "t")
        #expect(shot.text == "Store     $0.99\n 宝石 <gems> & co\nbold\n")
        #expect(Screenshot.Format(fileName: "a/b.SVG") == .svg)
        #expect(Screenshot.Format(fileName: "shot.txt") == .text)
        #expect(Screenshot.Format(fileName: "shot.png") == nil)
    }

    @Test func ansiColoursEachRunAndResetsEachRow() {
        let ansi = Screenshot(grid: Self.sample(), title: "t").ansi
        let rows = ansi.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(rows.count == 4 && rows[3].isEmpty)
        #expect(rows[0] == "\u{1B}[0;1mStore\u{1B}[0m     \u{1B}[0;32m$0.99\u{1B}[0m", "\(rows[0].debugDescription)")
        // The selected row keeps its trailing blanks: its background shows them.
        #expect(rows[1] == "\u{1B}[0;30;46m 宝石 <gems> & co   \u{1B}[0m", "\(rows[1].debugDescription)")
        #expect(rows[2] == "\u{1B}[0;1mbold\u{1B}[0m")
        // Stripped of its escapes, it is the text.
        let plain = ansi.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        #expect(
            plain.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) } == [
                "Store     $0.99", "宝石 <gems> & co", "bold",
            ])
    }

    @Test func svgIsWellFormedAndHoldsSizeTextAndColours() throws {
        let svg = Screenshot(grid: Self.sample(), title: "Storefront & \"demo\"").svg
        let parser = XMLParser(data: Data(svg.utf8))
        let collector = TextCollector()
        parser.delegate = collector
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        #expect(collector.root["data-columns"] == "20" && collector.root["data-rows"] == "3")
        #expect(collector.root["width"] == "168" && collector.root["height"] == "51")
        #expect(collector.title == "Storefront & \"demo\" (20×3)")
        #expect(collector.texts == ["Store", "$0.99", "宝", "石", "<gems> & co", "bold"])
        // The wide characters take two cells each; the selected row's background is cyan.
        #expect(collector.lengths["宝"] == "16.8" && collector.lengths["石"] == "16.8")
        #expect(svg.contains(##"fill="#11a8cd"/>"##))
        #expect(svg.contains(##"fill="#0dbc79" xml:space="preserve">$0.99<"##))
    }

    @Test func anEmptyGridGivesEmptyButValidFiles() {
        let shot = Screenshot(grid: Grid(size: .zero), title: "")
        #expect(shot.text.isEmpty && shot.ansi.isEmpty)
        #expect(XMLParser(data: Data(shot.svg.utf8)).parse())
    }
}

private final class TextCollector: NSObject, XMLParserDelegate {
    var root: [String: String] = [:]
    var title = ""
    var texts: [String] = []
    var lengths: [String: String] = [:]
    private var element = ""
    private var length = ""

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        if name == "svg" { root = attributes }
        if name == "text" {
            texts.append("")
            length = attributes["textLength"] ?? ""
        }
        element = name
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if element == "title" { title += string }
        if element == "text", !texts.isEmpty {
            texts[texts.count - 1] += string
            lengths[texts[texts.count - 1]] = length
        }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        element = ""
    }
}
