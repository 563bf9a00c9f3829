/// The in-memory screen: a fixed-size array of cells that the pure view renders into and the
/// terminal driver paints. Every operation clips to the grid and ignores what falls outside, for
/// any coordinates (negative, huge) and any size (0×0 included), so a view can never crash it.
///
/// Invariant: a `.continuation` cell always sits right of a two-cell character in the same row.
/// Writes that cut a wide character in half turn the remaining half into a space.
public struct Grid: Hashable, Sendable, CustomStringConvertible {
    public let size: TerminalSize
    /// Row by row. Codes rather than `Cell`s: a `Cell` holds a `Character`, a `String`, and making,
    /// overwriting and freeing the 12,000 cells of a frame was a third of drawing it, in reference counting.
    private var cells: [StoredCell]
    /// The characters of more than one scalar that cells point at (an emoji sequence, a letter
    /// with a combining mark): few or none in a frame.
    private var clusters: [Character] = []

    public init(size: TerminalSize, role: Role = .normal) {
        self.size = size
        self.cells = Array(
            repeating: StoredCell(code: StoredCell.space, role: role, attributes: []), count: size.columns * size.rows)
    }

    public var bounds: Rect { Rect(row: 0, column: 0, width: size.columns, height: size.rows) }

    /// The cell at a position; a blank cell outside the grid.
    public subscript(row: Int, column: Int) -> Cell {
        guard contains(row: row, column: column) else { return .blank }
        let stored = cells[row * size.columns + column]
        let content: Cell.Content = stored.isContinuation ? .continuation : .character(character(stored))
        return Cell(content: content, role: stored.role, attributes: stored.attributes)
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
    /// fit (at the edge, at `maxWidth`, or half left of column 0) becomes a space. What
    /// `TerminalText` calls unprintable (controls, bidirectional and invisible format characters)
    /// is dropped, even where it joins a character, and so are other characters of zero width on
    /// their own: the layout is measured in cells, so they are not shown escaped.
    ///
    /// - Returns: the number of grid cells written.
    @discardableResult
    public mutating func write(
        _ text: String, row: Int, column: Int, role: Role = .normal,
        attributes: Attributes = [], maxWidth: Int? = nil,
        overflow: Overflow = .clip
    ) -> Int {
        guard row >= 0, row < size.rows else { return 0 }
        let (toEdge, overflowed) = size.columns.subtractingReportingOverflow(column)
        let limit = min(maxWidth ?? Int.max, overflowed ? Int.max : toEdge)
        guard limit > 0 else { return 0 }

        // No character takes more cells than its UTF-8 bytes, so a text of at most `limit` bytes fits.
        let mayOverflow = overflow == .ellipsis && text.utf8.count > limit
        let ascii = text.utf8.withContiguousStorageIfAvailable { bytes -> Int? in
            // One pass, without early exits so it runs on whole words: any byte ≥ 0x80, any control byte.
            var high: UInt8 = 0
            var control = false
            for byte in bytes {
                high |= byte
                control = control || byte &- 0x20 >= 0x5F  // below 0x20, or 0x7F and above
            }
            guard high < 0x80 else { return nil }
            if !control, column >= 0 {
                return copyPrintable(
                    bytes, row: row, column: column, limit: limit, role: role, attributes: attributes, cut: mayOverflow)
            }
            return writeASCII(
                bytes, row: row, column: column, limit: limit, role: role, attributes: attributes, ellipsis: mayOverflow
            )
        }
        if let written = ascii ?? nil { return written }
        if let written = writeMeasured(
            text, row: row, column: column, limit: limit, role: role, attributes: attributes,
            ellipsis: mayOverflow)
        {
            return written
        }
        // Characters of several scalars: the exact, slower way. The ASCII and one-scalar ways
        // above skip controls and lone format marks by their width of 0.
        let shown = TerminalText.removingUnprintable(text)
        let cut = mayOverflow ? CellWidth.truncate(shown, to: limit) : shown
        var layout = LineLayout(row: row, column: column, limit: limit, role: role, attributes: attributes)
        for character in cut {
            guard layout.place(code(for: character), width: CellWidth.of(character), on: &self) else { break }
        }
        return layout.used
    }

    /// `write` for text whose every scalar is a character of its own (`CellWidth.isOneScalarPerCharacter`),
    /// the rest of this UI's text: each scalar measured once, then placed, ending with "…" when
    /// `ellipsis` and the text is wider than `limit`. Nil, with nothing written, for other text.
    private mutating func writeMeasured(
        _ text: String, row: Int, column: Int, limit: Int, role: Role,
        attributes: Attributes, ellipsis: Bool
    ) -> Int? {
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: max(1, text.utf8.count)) { measured -> Int? in
            var count = 0
            var total = 0
            var fitting = -1  // how many scalars fit in `limit - 1` cells, leaving room for "…"
            for scalar in text.unicodeScalars {
                guard CellWidth.isStandalone(scalar) else { return nil }
                let width = CellWidth.of(scalar)
                if fitting < 0, total + width > limit - 1 { fitting = count }
                total += width
                measured[count] = UInt64(scalar.value) << 8 | UInt64(width)
                count += 1
                if total > limit { break }  // nothing after this scalar can show
            }
            let cut = ellipsis && total > limit
            var layout = LineLayout(row: row, column: column, limit: limit, role: role, attributes: attributes)
            for entry in measured[..<(cut ? fitting : count)] {
                guard layout.place(UInt32(truncatingIfNeeded: entry >> 8), width: Int(entry & 0xFF), on: &self) else {
                    break
                }
            }
            if cut { _ = layout.place(0x2026, width: 1, on: &self) }  // "…"
            return layout.used
        }
    }

    /// `write` for printable ASCII from a visible column, nearly every write of a frame: one cell
    /// per byte, copied in a straight loop; only the two ends can cut a wide character in half, and
    /// are repaired as `put` does. `cut` (asked for "…" and wider than `limit`): the first `limit - 1` bytes and "…".
    private mutating func copyPrintable(
        _ text: UnsafeBufferPointer<UInt8>, row: Int, column: Int, limit: Int, role: Role,
        attributes: Attributes, cut: Bool
    ) -> Int {
        let count = min(text.count, cut ? limit - 1 : limit)
        let columns = size.columns
        let start = row * columns + column
        if count > 0 {
            cells.withUnsafeMutableBufferPointer { cells in
                if cells[start].isContinuation, column > 0 { cells[start - 1].code = StoredCell.space }
                var cell = StoredCell(code: StoredCell.space, role: role, attributes: attributes)
                for index in 0..<count {
                    cell.code = UInt32(text[index])
                    cells[start + index] = cell
                }
                if column + count < columns, cells[start + count].isContinuation {
                    cells[start + count].code = StoredCell.space
                }
            }
        }
        guard cut else { return count }
        put(0x2026, width: 1, row: row, column: column + limit - 1, role: role, attributes: attributes)  // "…"
        return count + 1
    }

    /// `write` for other ASCII text (control bytes, or starting left of column 0), cut for "…" when
    /// `ellipsis` and it is wider than `limit`.
    private mutating func writeASCII(
        _ text: UnsafeBufferPointer<UInt8>, row: Int, column: Int, limit: Int, role: Role,
        attributes: Attributes, ellipsis: Bool
    ) -> Int {
        // Wider than `limit` (one cell per printable byte): the first `limit - 1` and "…", as `writeMeasured` cuts.
        guard ellipsis, text.count(where: { $0 >= 0x20 && $0 < 0x7F }) > limit else {
            return writeASCII(text, row: row, column: column, limit: limit, role: role, attributes: attributes)
        }
        var used = writeASCII(text, row: row, column: column, limit: limit - 1, role: role, attributes: attributes)
        let x = column + limit - 1  // cannot overflow: column < 0, or limit ≤ columns - column
        if x >= 0 {
            put(0x2026, width: 1, row: row, column: x, role: role, attributes: attributes)
            used += 1
        }
        return used
    }

    /// One pass over the row: one cell per printable byte (CR LF, the only two-byte character, has
    /// no width, and neither have CR and LF apart, so control bytes are skipped). Only the cells at
    /// the two ends can cut a wide character in half; those are repaired as `put` does.
    private mutating func writeASCII(
        _ text: UnsafeBufferPointer<UInt8>, row: Int, column: Int, limit: Int, role: Role, attributes: Attributes
    ) -> Int {
        let columns = size.columns
        let start = row * columns
        return cells.withUnsafeMutableBufferPointer { cells in
            var offset = 0
            var first = -1
            var last = -1
            for byte in text where byte >= 0x20 && byte < 0x7F {
                guard offset < limit else { break }
                let x = column + offset  // cannot overflow: offset < limit ≤ columns - column
                offset += 1
                guard x >= 0 else { continue }
                if first < 0 {
                    first = x
                    if cells[start + x].isContinuation, x > 0 { cells[start + x - 1].code = StoredCell.space }
                }
                last = x
                cells[start + x] = StoredCell(code: UInt32(byte), role: role, attributes: attributes)
            }
            guard first >= 0 else { return 0 }
            if last + 1 < columns, cells[start + last + 1].isContinuation {
                cells[start + last + 1].code = StoredCell.space
            }
            return last - first + 1
        }
    }

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

        /// Places one character (its code) of `width` cells; false when the line is full.
        mutating func place(_ code: UInt32, width: Int, on grid: inout Grid) -> Bool {
            if width == 0 { return true }
            let x = column + offset  // cannot overflow: offset ≤ limit ≤ columns - column
            if offset + width > limit {
                // A wide character with one cell left: fill that cell so it is not stale.
                if offset < limit, x >= 0 {
                    grid.put(StoredCell.space, width: 1, row: row, column: x, role: role, attributes: attributes)
                    used += 1
                }
                return false
            }
            if x >= 0 {
                grid.put(code, width: width, row: row, column: x, role: role, attributes: attributes)
                used += width
            } else if x + width > 0 {
                // The right half of a wide character at column 0: show a space, never half a glyph.
                grid.put(StoredCell.space, width: 1, row: row, column: 0, role: role, attributes: attributes)
                used += 1
            }
            offset += width
            return true
        }
    }

    /// Fills the part of `rect` inside the grid with `character` (a one-cell character; anything
    /// else fills with spaces).
    public mutating func fill(
        _ rect: Rect, role: Role = .normal, attributes: Attributes = [],
        character: Character = " "
    ) {
        let (rows, columns) = clip(rect)
        guard !rows.isEmpty, !columns.isEmpty else { return }
        let fillCode = CellWidth.of(character) == 1 ? code(for: character) : StoredCell.space
        for row in rows {
            for column in columns {
                put(fillCode, width: 1, row: row, column: column, role: role, attributes: attributes)
            }
        }
    }

    /// Draws a frame on the edge of `rect` (the inside is left alone) with box-drawing characters,
    /// or `+`, `-`, `|` when `ascii` (a terminal without UTF-8). A title goes into the top edge,
    /// cut with "…" when it does not fit. Parts outside the grid are skipped.
    public mutating func box(
        _ rect: Rect, title: String? = nil, role: Role = .border,
        titleRole: Role = .title, ascii: Bool = false
    ) {
        guard !rect.isEmpty else { return }
        // Box-drawing characters are one scalar each: their codes are their scalar values.
        let glyphs: (horizontal: UInt32, vertical: UInt32, corners: [UInt32]) =
            ascii ? (0x2D, 0x7C, [0x2B, 0x2B, 0x2B, 0x2B]) : (0x2500, 0x2502, [0x250C, 0x2510, 0x2514, 0x2518])
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
            write(
                " \(title) ", row: top, column: Self.saturatingAdd(left, 2), role: titleRole,
                maxWidth: rect.width - 4, overflow: .ellipsis)
        }
    }

    // MARK: - Reading the grid as text (golden tests)

    /// Each row as the terminal shows it, exactly `columns` cells wide: the right half of a wide
    /// character is omitted, so a CJK line reads naturally (and has fewer `Character`s than cells).
    public var rows: [String] {
        (0..<size.rows).map { row in
            var line = ""
            for stored in cells[row * size.columns..<(row + 1) * size.columns] where !stored.isContinuation {
                line.append(character(stored))
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
            String(cells[row * size.columns..<(row + 1) * size.columns].map(\.role.marker))
        }
    }

    // MARK: - Equality (cells hold the same scalars, roles and attributes)

    public static func == (lhs: Grid, rhs: Grid) -> Bool {
        guard lhs.size == rhs.size else { return false }
        if lhs.clusters.isEmpty, rhs.clusters.isEmpty { return lhs.cells == rhs.cells }
        return lhs.cells.indices.allSatisfy { lhs.sameCell(at: $0, as: rhs) }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(size)
        for stored in cells {
            if stored.isCluster {
                for scalar in clusters[stored.clusterIndex].unicodeScalars { hasher.combine(scalar.value) }
            } else {
                hasher.combine(stored.code)
            }
            hasher.combine(stored.role)
            hasher.combine(stored.attributes.rawValue)
        }
    }

    /// Whether the cell at (`row`, `column`) is the same in `other` (a grid of the same size), for a
    /// painter that redraws only what changed; false outside either grid.
    package func sameCell(as other: Grid, row: Int, column: Int) -> Bool {
        guard size == other.size, contains(row: row, column: column) else { return false }
        return sameCell(at: row * size.columns + column, as: other)
    }

    /// Whether the whole of `row` is the same in `other` (a grid of the same size): a painter skips
    /// unchanged rows in one call rather than asking cell by cell; false outside either grid.
    package func sameRow(as other: Grid, row: Int) -> Bool {
        guard size == other.size, row >= 0, row < size.rows else { return false }
        let start = row * size.columns
        for index in start..<start + size.columns where !sameCell(at: index, as: other) { return false }
        return true
    }

    /// Whether the cell at (`row`, `column`) is the right half of a wide character; false outside the grid.
    package func isContinuation(row: Int, column: Int) -> Bool {
        contains(row: row, column: column) && cells[row * size.columns + column].isContinuation
    }

    private func sameCell(at index: Int, as other: Grid) -> Bool {
        let (mine, theirs) = (cells[index], other.cells[index])
        guard mine.role == theirs.role, mine.attributes == theirs.attributes else { return false }
        guard mine.isCluster, theirs.isCluster else { return mine.code == theirs.code }
        return clusters[mine.clusterIndex].unicodeScalars
            .elementsEqual(other.clusters[theirs.clusterIndex].unicodeScalars)
    }

    // MARK: - Internals

    /// The code a cell stores for `character`: its scalar value, or a new entry in `clusters`.
    private mutating func code(for character: Character) -> UInt32 {
        var scalars = character.unicodeScalars.makeIterator()
        if let first = scalars.next(), scalars.next() == nil { return first.value }
        clusters.append(character)
        return StoredCell.cluster | UInt32(clusters.count - 1)
    }

    /// The character a cell stands for (not a continuation's).
    private func character(_ stored: StoredCell) -> Character {
        if stored.code < 0x80 { return Self.asciiCharacters[Int(stored.code)] }
        if stored.isCluster { return clusters[stored.clusterIndex] }
        return Unicode.Scalar(stored.code).map(Character.init) ?? " "
    }

    /// The ASCII characters by code, made once: reading a frame back (golden tests, the painter)
    /// would otherwise build a `Character` per cell.
    private static let asciiCharacters: [Character] = (0..<128).map { Character(Unicode.Scalar(UInt8($0))) }

    private func contains(row: Int, column: Int) -> Bool {
        row >= 0 && row < size.rows && column >= 0 && column < size.columns
    }

    /// Stores one character (its code) of `width` cells, repairing any wide character it cuts in half.
    fileprivate mutating func put(
        _ code: UInt32, width: Int, row: Int, column: Int,
        role: Role, attributes: Attributes
    ) {
        guard row >= 0, row < size.rows, column >= 0, column < size.columns,
            width <= size.columns - column
        else { return }
        let start = row * size.columns
        let last = column + width - 1
        if cells[start + column].isContinuation, column > 0 {
            cells[start + column - 1].code = StoredCell.space
        }
        if last + 1 < size.columns, cells[start + last + 1].isContinuation {
            cells[start + last + 1].code = StoredCell.space
        }
        cells[start + column] = StoredCell(code: code, role: role, attributes: attributes)
        if width == 2 {
            cells[start + column + 1] = StoredCell(code: StoredCell.continuation, role: role, attributes: attributes)
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
