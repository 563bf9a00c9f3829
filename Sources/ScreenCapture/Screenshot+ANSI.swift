import CellGrid

extension Screenshot {
    /// The screen with SGR colours and attributes, a row per line. Every row starts from the
    /// terminal's own style and ends resetting to it, so a row pasted alone keeps its look;
    /// blanks at the end of a row are left out when nothing shows them.
    public var ansi: String {
        var output = ""
        for row in 0..<grid.size.rows {
            var runs = StyleRun.runs(of: grid, row: row)
            trimTrailingBlanks(&runs)
            // A row starts in the terminal's own style: a plain first run needs no escape.
            var previous: StyleRun.Look? = nil
            for run in runs {
                if run.look != previous, previous != nil || !run.look.isPlainStyle {
                    output += "\u{1B}[" + Self.sgr(run.look) + "m"
                }
                output += run.text
                previous = run.look
            }
            output += "\u{1B}[0m\n"
        }
        return output
    }

    static func sgr(_ look: StyleRun.Look) -> String {
        var codes = ["0"]
        if look.bold { codes.append("1") }
        if look.dim { codes.append("2") }
        if look.underline { codes.append("4") }
        if look.reverse { codes.append("7") }
        if look.foreground != RoleStyle.defaultColor { codes.append(String(30 + Int(look.foreground))) }
        if look.background != RoleStyle.defaultColor { codes.append(String(40 + Int(look.background))) }
        return codes.joined(separator: ";")
    }

    private func trimTrailingBlanks(_ runs: inout [StyleRun]) {
        while let last = runs.last, last.look.isPlain {
            var characters = last.characters
            while characters.last?.character == " " { characters.removeLast() }
            if characters.isEmpty {
                runs.removeLast()
                continue
            }
            runs[runs.count - 1].characters = characters
            return
        }
    }
}
