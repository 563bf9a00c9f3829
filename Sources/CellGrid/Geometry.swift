/// The size of a terminal (or of a grid) in cells. Negative values are clamped to zero, so a size
/// read from a terminal in an odd state can never make an index go negative.
public struct TerminalSize: Hashable, Sendable, CustomStringConvertible {
    public var columns: Int
    public var rows: Int

    public init(columns: Int, rows: Int) {
        self.columns = max(0, columns)
        self.rows = max(0, rows)
    }

    public static let zero = TerminalSize(columns: 0, rows: 0)

    /// True when `other` fits inside this size (to check a minimum size for the layout).
    public func fits(_ other: TerminalSize) -> Bool {
        columns >= other.columns && rows >= other.rows
    }

    public var description: String { "\(columns)×\(rows)" }
}

/// A rectangle of cells. Any values are allowed (negative, empty, larger than the grid): every grid
/// operation clips it, so layout code does not have to.
public struct Rect: Hashable, Sendable {
    public var row: Int
    public var column: Int
    public var width: Int
    public var height: Int

    public init(row: Int, column: Int, width: Int, height: Int) {
        self.row = row
        self.column = column
        self.width = width
        self.height = height
    }

    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// The rectangle shrunk by `amount` cells on every side (for the inside of a box).
    public func inset(by amount: Int) -> Rect {
        Rect(
            row: row + amount, column: column + amount,
            width: max(0, width - 2 * amount), height: max(0, height - 2 * amount))
    }
}
