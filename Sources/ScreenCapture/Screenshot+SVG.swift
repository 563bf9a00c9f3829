import CellGrid

extension Screenshot {
    /// The colours a picture uses for the terminal's own and the eight ANSI colours (a dark theme).
    struct Palette {
        static let background = "#1e1e1e"
        static let foreground = "#d4d4d4"
        static let ansi = ["#000000", "#cd3131", "#0dbc79", "#e5e510", "#2472c8", "#bc3fbc", "#11a8cd", "#e5e5e5"]

        static func color(_ number: Int16, default fallback: String) -> String {
            ansi.indices.contains(Int(number)) ? ansi[Int(number)] : fallback
        }
    }

    /// One cell, in pixels, at the font size below: a monospace font's advance is 0.6 em.
    static let cellWidth = 8.4, cellHeight = 17.0, fontSize = 14.0, baseline = 13.0

    /// An SVG picture of the screen: a rectangle per coloured run, a `<text>` per run of text,
    /// each held to its cells' width (`textLength`) so any monospace font keeps the columns. The
    /// root says the terminal's size (`data-columns`, `data-rows`) and the title what it shows.
    public var svg: String {
        let width = Self.number(Double(grid.size.columns) * Self.cellWidth)
        let height = Self.number(Double(grid.size.rows) * Self.cellHeight)
        var lines = [
            #"<svg xmlns="http://www.w3.org/2000/svg" width="\#(width)" height="\#(height)" viewBox="0 0 \#(width) \#(height)" "#
                + #"data-columns="\#(grid.size.columns)" data-rows="\#(grid.size.rows)" "#
                + #"font-family="'DejaVu Sans Mono', Menlo, Consolas, monospace" font-size="\#(Self.number(Self.fontSize))">"#,
            "<title>\(Self.escaped(title)) (\(grid.size.columns)×\(grid.size.rows))</title>",
            #"<rect width="100%" height="100%" fill="\#(Palette.background)"/>"#,
        ]
        for row in 0..<grid.size.rows {
            let runs = StyleRun.runs(of: grid, row: row)
            lines += runs.compactMap { backgroundRect($0, row: row) }
            lines += runs.flatMap { textElements($0, row: row) }
        }
        lines.append("</svg>")
        return lines.joined(separator: "\n") + "\n"
    }

    private func colors(_ look: StyleRun.Look) -> (foreground: String, background: String?) {
        let foreground = Palette.color(look.foreground, default: Palette.foreground)
        let background =
            look.background == RoleStyle.defaultColor
            ? nil : Palette.color(look.background, default: Palette.background)
        guard look.reverse else { return (foreground, background) }
        return (background ?? Palette.background, foreground)
    }

    private func backgroundRect(_ run: StyleRun, row: Int) -> String? {
        guard let fill = colors(run.look).background else { return nil }
        return #"<rect x="\#(Self.x(run.column))" y="\#(Self.number(Double(row) * Self.cellHeight))" "#
            + #"width="\#(Self.number(Double(run.width) * Self.cellWidth))" height="\#(Self.number(Self.cellHeight))" fill="\#(fill)"/>"#
    }

    /// ASCII stretches as one element each; any other character alone, so a wide one gets its two cells.
    private func textElements(_ run: StyleRun, row: Int) -> [String] {
        var elements: [String] = []
        var column = run.column
        var pending = ""
        var pendingColumn = column
        // Blanks around a stretch are left out: the background rectangle shows them.
        func flush() {
            let leading = pending.prefix { $0 == " " }.count
            let shown = pending.dropFirst(leading).reversed().drop { $0 == " " }.reversed()
            if !shown.isEmpty {
                elements.append(
                    element(
                        String(shown), column: pendingColumn + leading, cells: shown.count, row: row, look: run.look))
            }
            pending = ""
        }
        for glyph in run.characters {
            let (character, width) = (glyph.character, glyph.width)
            if character.isASCII {
                if pending.isEmpty { pendingColumn = column }
                pending.append(character)
            } else {
                flush()
                elements.append(element(String(character), column: column, cells: width, row: row, look: run.look))
            }
            column += width
        }
        flush()
        return elements
    }

    private func element(_ text: String, column: Int, cells: Int, row: Int, look: StyleRun.Look) -> String {
        var attributes =
            #"x="\#(Self.x(column))" y="\#(Self.number(Double(row) * Self.cellHeight + Self.baseline))" "#
            + #"textLength="\#(Self.number(Double(cells) * Self.cellWidth))" lengthAdjust="spacingAndGlyphs" fill="\#(colors(look).foreground)""#
        if look.bold { attributes += #" font-weight="bold""# }
        if look.dim { attributes += #" fill-opacity="0.6""# }
        if look.underline { attributes += #" text-decoration="underline""# }
        return #"<text \#(attributes) xml:space="preserve">\#(Self.escaped(text))</text>"#
    }

    private static func x(_ column: Int) -> String { number(Double(column) * cellWidth) }

    /// A coordinate with at most one decimal, without a trailing ".0".
    static func number(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return tenths % 10 == 0 ? String(tenths / 10) : "\(tenths / 10).\(abs(tenths % 10))"
    }

    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }
}
