import CellGrid

/// A screen as a bug report or a tape keeps it: the grid the storefront painted, in three formats.
/// `text` is what a person reads and a test compares; `ansi` is the same screen with its colours,
/// for `cat` in a terminal; `svg` is a picture a browser or a bug tracker shows, holding the text,
/// the colours and the terminal's size.
public struct Screenshot: Sendable {
    public enum Format: String, CaseIterable, Sendable {
        case text = "txt"
        case ansi
        case svg

        /// The format a file name asks for by its extension (`.txt`, `.ansi`, `.svg`).
        public init?(fileName: String) {
            guard let dot = fileName.lastIndex(of: ".") else { return nil }
            self.init(rawValue: fileName[fileName.index(after: dot)...].lowercased())
        }
    }

    public let grid: Grid
    /// Shown as the SVG's title: what the screen is (the storefront, the tape and line).
    public let title: String

    public init(grid: Grid, title: String) {
        self.grid = grid
        self.title = title
    }

    public func rendered(as format: Format) -> String {
        switch format {
        case .text: text
        case .ansi: ansi
        case .svg: svg
        }
    }

    /// The screen's rows with their trailing blanks removed, each ending in a line break.
    public var text: String {
        grid.size.rows == 0 ? "" : grid.text + "\n"
    }
}
