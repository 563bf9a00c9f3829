import StoreKitModel

/// The in-memory screen: a fixed-size array of cells that the pure view renders into and the
/// terminal driver paints. Every operation clips to the grid and ignores what falls outside, for
/// any coordinates (negative, huge) and any size (0×0 included), so a view can never crash it.
///
/// Invariant: a `.continuation` cell always sits right of a two-cell character in the same row.
/// Writes that cut a wide character in half turn the remaining half into a space.
public struct Grid: Hashable, Sendable, CustomStringConvertible {
    public let size: TerminalSize
    private var cells: [Cell]

    public init(size: TerminalSize, role: Role = .normal) {
        self.size = size
        self.cells = Array(repeating: Cell(" ", role: role), count: size.columns * size.rows)
    }

    public var bounds: Rect { Rect(row: 0, column: 0, width: size.columns, height: size.rows) }

    /// The cell at a position; a blank cell outside the grid.
    public subscript(row: Int, column: Int) -> Cell {
        guard contains(row: row, column: column) else { return .blank }
        return cells[row * size.columns + column]
    }

    /// What `write` does with text wider than the space it has.
    public enum Overflow: Sendable {
        /// Cut at the last whole character that fits.
        case clip
        /// Cut and end with "…" (measured in cells, so "…" always fits).
        case ellipsis
    }

    /// Writes `text` from (`row`, `column`) to the right, at most `maxWidth` cells and never past the
    /// grid's right edge. Text left of column 0 is clipped too. A two-cell character that does not
    /// fit (at the edge, at `maxWidth`, or half left of column 0) becomes a space. Characters of
    /// zero width on their own (control characters, lone format marks) are dropped.
    ///
    /// - Returns: the number of grid cells written.
    @discardableResult
    public mutating func write(_ text: String, row: Int, column: Int, role: Role = .normal,
                               attributes: Attributes = [], maxWidth: Int? = nil,
                               overflow: Overflow = .clip) -> Int {
        guard row >= 0, row < size.rows else { return 0 }
        let (toEdge, overflowed) = size.columns.subtractingReportingOverflow(column)
        let limit = min(maxWidth ?? Int.max, overflowed ? Int.max : toEdge)
        guard limit > 0 else { return 0 }

        var text = text
        // No character takes more cells than its UTF-8 bytes, so a text of at most `limit` bytes
        // fits; `truncate` returns any other text that fits unchanged.
        if overflow == .ellipsis, text.utf8.count > limit {
            text = CellWidth.truncate(text, to: limit)
        }
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            return writeASCII(text, row: row, column: column, limit: limit, role: role, attributes: attributes)
        }
        var layout = LineLayout(row: row, column: column, limit: limit, role: role, attributes: attributes)
        if CellWidth.isOneScalarPerCharacter(text) {
            for scalar in text.unicodeScalars {
                guard layout.place(Character(scalar), width: CellWidth.of(scalar), on: &self) else { break }
            }
            return layout.used
        }
        for character in text {
            guard layout.place(character, width: CellWidth.of(character), on: &self) else { break }
        }
        return layout.used
    }

    /// `write` for ASCII text, the usual case, in one pass over the row: one cell per printable
    /// byte (CR LF, the only two-byte character, has no width, and neither have CR and LF apart,
    /// so control bytes are skipped). Only the cells at the two ends can cut a wide character in
    /// half; those are repaired as `put` does.
    private mutating func writeASCII(_ text: String, row: Int, column: Int, limit: Int, role: Role, attributes: Attributes) -> Int {
        let columns = size.columns
        let start = row * columns
        return cells.withUnsafeMutableBufferPointer { cells in
            var offset = 0
            var first = -1
            var last = -1
            for byte in text.utf8 where byte >= 0x20 && byte < 0x7F {
                guard offset < limit else { break }
                let x = column + offset  // cannot overflow: offset < limit ≤ columns - column
                offset += 1
                guard x >= 0 else { continue }
                if first < 0 {
                    first = x
                    if cells[start + x].isContinuation, x > 0 { cells[start + x - 1].content = .character(" ") }
                }
                last = x
                cells[start + x] = Cell(content: .character(Self.asciiCharacters[Int(byte)]), role: role, attributes: attributes)
            }
            guard first >= 0 else { return 0 }
            if last + 1 < columns, cells[start + last + 1].isContinuation { cells[start + last + 1].content = .character(" ") }
            return last - first + 1
        }
    }

    /// The ASCII characters by code, made once: building a `Character` per cell costs more than the cell.
    private static let asciiCharacters: [Character] = (0..<128).map { Character(Unicode.Scalar(UInt8($0))) }

    /// Lays out the characters of one `write`, left to right.
    private struct LineLayout {
        let row: Int
        let column: Int
        let limit: Int
        let role: Role
        let attributes: Attributes
        var offset = 0  // cells laid out so far, visible or not
        var used = 0

        init(row: Int, column: Int, limit: Int, role: Role, attributes: Attributes) {
            self.row = row
            self.column = column
            self.limit = limit
            self.role = role
            self.attributes = attributes
        }

        /// Places one character of `width` cells; false when the line is full.
        mutating func place(_ character: Character, width: Int, on grid: inout Grid) -> Bool {
            if width == 0 { return true }
            let x = column + offset  // cannot overflow: offset ≤ limit ≤ columns - column
            if offset + width > limit {
                // A wide character with one cell left: fill that cell so it is not stale.
                if offset < limit, x >= 0 {
                    grid.put(" ", width: 1, row: row, column: x, role: role, attributes: attributes)
                    used += 1
                }
                return false
            }
            if x >= 0 {
                grid.put(character, width: width, row: row, column: x, role: role, attributes: attributes)
                used += width
            } else if x + width > 0 {
                // The right half of a wide character at column 0: show a space, never half a glyph.
                grid.put(" ", width: 1, row: row, column: 0, role: role, attributes: attributes)
                used += 1
            }
            offset += width
            return true
        }
    }

    /// Fills the part of `rect` inside the grid with `character` (a one-cell character; anything
    /// else fills with spaces).
    public mutating func fill(_ rect: Rect, role: Role = .normal, attributes: Attributes = [],
                              character: Character = " ") {
        let fillCharacter = CellWidth.of(character) == 1 ? character : " "
        let (rows, columns) = clip(rect)
        for row in rows {
            for column in columns {
                put(fillCharacter, width: 1, row: row, column: column, role: role, attributes: attributes)
            }
        }
    }

    /// Draws a frame on the edge of `rect` (the inside is left alone) with box-drawing characters,
    /// or `+`, `-`, `|` when `ascii` (a terminal without UTF-8). A title goes into the top edge,
    /// cut with "…" when it does not fit. Parts outside the grid are skipped.
    public mutating func box(_ rect: Rect, title: String? = nil, role: Role = .border,
                             titleRole: Role = .title, ascii: Bool = false) {
        guard !rect.isEmpty else { return }
        let glyphs: (horizontal: Character, vertical: Character, corners: [Character]) =
            ascii ? ("-", "|", ["+", "+", "+", "+"]) : ("─", "│", ["┌", "┐", "└", "┘"])
        let top = rect.row
        let left = rect.column
        let bottom = Self.saturatingAdd(rect.row, rect.height - 1)
        let right = Self.saturatingAdd(rect.column, rect.width - 1)
        let (rows, columns) = clip(rect)
        for column in columns {
            put(glyphs.horizontal, width: 1, row: top, column: column, role: role, attributes: [])
            put(glyphs.horizontal, width: 1, row: bottom, column: column, role: role, attributes: [])
        }
        for row in rows {
            put(glyphs.vertical, width: 1, row: row, column: left, role: role, attributes: [])
            put(glyphs.vertical, width: 1, row: row, column: right, role: role, attributes: [])
        }
        put(glyphs.corners[0], width: 1, row: top, column: left, role: role, attributes: [])
        put(glyphs.corners[1], width: 1, row: top, column: right, role: role, attributes: [])
        put(glyphs.corners[2], width: 1, row: bottom, column: left, role: role, attributes: [])
        put(glyphs.corners[3], width: 1, row: bottom, column: right, role: role, attributes: [])
        if let title, !title.isEmpty, rect.width > 4 {
            write(" \(title) ", row: top, column: Self.saturatingAdd(left, 2), role: titleRole,
                  maxWidth: rect.width - 4, overflow: .ellipsis)
        }
    }

    // MARK: - Reading the grid as text (golden tests)

    /// Each row as the terminal shows it, exactly `columns` cells wide: the right half of a wide
    /// character is omitted, so a CJK line reads naturally (and has fewer `Character`s than cells).
    public var rows: [String] {
        (0..<size.rows).map { row in
            var line = ""
            for cell in cells[row * size.columns ..< (row + 1) * size.columns] {
                if case .character(let character) = cell.content { line.append(character) }
            }
            return line
        }
    }

    /// All rows joined with "\n", trailing spaces of each row removed; the usual golden-file form.
    public var text: String {
        rows.map { line in
            var line = Substring(line)
            while line.last == " " { line = line.dropLast() }
            return String(line)
        }.joined(separator: "\n")
    }

    public var description: String { text }

    /// Each row as one `Role.marker` per cell (both halves of a wide character), so the markers
    /// line up under `rows` in a monospace view.
    public var roleRows: [String] {
        (0..<size.rows).map { row in
            String(cells[row * size.columns ..< (row + 1) * size.columns].map(\.role.marker))
        }
    }

    // MARK: - Internals

    private func contains(row: Int, column: Int) -> Bool {
        row >= 0 && row < size.rows && column >= 0 && column < size.columns
    }

    /// Stores one character of `width` cells, repairing any wide character it cuts in half.
    fileprivate mutating func put(_ character: Character, width: Int, row: Int, column: Int,
                              role: Role, attributes: Attributes) {
        guard row >= 0, row < size.rows, column >= 0, column < size.columns,
              width <= size.columns - column else { return }
        let start = row * size.columns
        let last = column + width - 1
        if cells[start + column].isContinuation, column > 0 {
            cells[start + column - 1].content = .character(" ")
        }
        if last + 1 < size.columns, cells[start + last + 1].isContinuation {
            cells[start + last + 1].content = .character(" ")
        }
        cells[start + column] = Cell(content: .character(character), role: role, attributes: attributes)
        if width == 2 {
            cells[start + column + 1] = Cell(content: .continuation, role: role, attributes: attributes)
        }
    }

    /// The rows and columns of `rect` that lie inside the grid, computed without overflow.
    private func clip(_ rect: Rect) -> (rows: Range<Int>, columns: Range<Int>) {
        guard !rect.isEmpty else { return (0..<0, 0..<0) }
        func span(_ start: Int, _ length: Int, _ limit: Int) -> Range<Int> {
            let lower = max(0, start)
            let upper = min(limit, Self.saturatingAdd(start, length))
            return lower < upper ? lower..<upper : 0..<0
        }
        return (span(rect.row, rect.height, size.rows), span(rect.column, rect.width, size.columns))
    }

    private static func saturatingAdd(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b > 0 ? Int.max : Int.min) : sum
    }
}
