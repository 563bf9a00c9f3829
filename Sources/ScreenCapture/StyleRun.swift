import CellGrid

/// A row of a grid cut where the look changes: what every screenshot format walks. The look is
/// the role's colour style plus the cell's own attributes; a wide character's two cells are one
/// element of `characters` with `width` 2.
struct StyleRun: Equatable {
    struct Glyph: Equatable {
        let character: Character
        /// Cells: 2 for a wide character.
        let width: Int
    }

    struct Look: Equatable {
        var foreground: Int16
        var background: Int16
        var bold: Bool
        var dim: Bool
        var underline: Bool
        var reverse: Bool

        init(_ cell: Cell) {
            let style = RoleStyle.of(cell.role)
            foreground = style.foreground
            background = style.background
            bold = style.colorLook.contains(.bold) || cell.attributes.contains(.bold)
            dim = style.colorLook.contains(.dim)
            underline = style.colorLook.contains(.underline) || cell.attributes.contains(.underline)
            reverse = style.colorLook.contains(.reverse) || cell.attributes.contains(.reverse)
        }

        /// No colour and no attribute: what SGR 0 sets.
        var isPlainStyle: Bool { isPlain && !bold && !dim }

        /// Nothing but the terminal's own colours: a blank in this look shows nothing.
        var isPlain: Bool {
            foreground == RoleStyle.defaultColor && background == RoleStyle.defaultColor && !underline && !reverse
        }
    }

    var look: Look
    /// The first cell's column.
    var column: Int
    var characters: [Glyph]

    var width: Int { characters.reduce(0) { $0 + $1.width } }
    var text: String { String(characters.map(\.character)) }

    /// The runs of one row, left to right, covering every cell.
    static func runs(of grid: Grid, row: Int) -> [StyleRun] {
        var runs: [StyleRun] = []
        for column in 0..<grid.size.columns {
            let cell = grid[row, column]
            guard let character = cell.character else { continue }
            let width = column + 1 < grid.size.columns && grid[row, column + 1].isContinuation ? 2 : 1
            let look = Look(cell)
            if let last = runs.last, last.look == look {
                runs[runs.count - 1].characters.append(Glyph(character: character, width: width))
            } else {
                runs.append(
                    StyleRun(look: look, column: column, characters: [Glyph(character: character, width: width)]))
            }
        }
        return runs
    }
}
