import CellGrid
import Crypto
import Foundation

/// A golden screen's colours and emphasis, kept beside its text as `Golden/NAME.styles`, so a
/// screen whose meaning is in its colour (an error in red, the selection, a warning) cannot lose
/// it unnoticed. Line N describes line N of `NAME.txt`: the row's number, then each run of cells
/// painted alike as `FIRST-LAST role` (columns from 0, a single cell as `FIRST role`), `+bold`,
/// `+reverse` or `+underline` for what the view adds to the role. Cells in the normal role with no
/// attribute are left out. A legend after the rows says how each role used looks, with colours
/// and without.
///
/// Every golden screen, with a `.styles` file or not, ends with the map's digest
/// (`digestLine`), so a colour or an attribute changed anywhere fails a golden too.
enum StyleMap {
    struct Run: Equatable {
        var first: Int
        var last: Int
        var role: Role
        var attributes: Attributes

        var text: String {
            let cells = first == last ? "\(first)" : "\(first)-\(last)"
            return cells + " " + String(describing: role) + StyleMap.names(of: attributes).map { "+" + $0 }.joined()
        }
    }

    /// `# styles sha256:` and the first 16 hex digits of the SHA-256 of `map` (`text(of:)`): the
    /// last line of a golden's text. `sha256sum NAME.styles` prints the same digits first.
    static func digestLine(of map: String) -> String {
        let digest = SHA256.hash(data: Data(map.utf8)).map { String(format: "%02x", $0) }.joined()
        return "# styles sha256:" + digest.prefix(16)
    }

    static func text(of grid: Grid) -> String {
        var used: Set<Role> = []
        var lines: [String] = []
        for row in 0..<grid.size.rows {
            let runs = runs(of: grid, row: row)
            used.formUnion(runs.map(\.role))
            let number = String(repeating: " ", count: max(0, 2 - String(row).count)) + String(row)
            lines.append(runs.isEmpty ? number + ":" : number + ": " + runs.map(\.text).joined(separator: ", "))
        }
        lines.append("")
        lines += Role.allCases.filter(used.contains).map(legend)
        return lines.joined(separator: "\n") + "\n"
    }

    /// The row's cells left to right, cut where the role or the attributes change.
    static func runs(of grid: Grid, row: Int) -> [Run] {
        var runs: [Run] = []
        for column in 0..<grid.size.columns {
            let cell = grid[row, column]
            if let last = runs.last, last.last == column - 1, last.role == cell.role, last.attributes == cell.attributes
            {
                runs[runs.count - 1].last = column
            } else if cell.role != .normal || !cell.attributes.isEmpty {
                runs.append(Run(first: column, last: column, role: cell.role, attributes: cell.attributes))
            }
        }
        return runs
    }

    /// `# error: red, bold (without colour: bold, underline)`, from `RoleStyle`.
    static func legend(_ role: Role) -> String {
        let style = RoleStyle.of(role)
        let color = [
            colorName(style.foreground),
            style.background == RoleStyle.defaultColor ? nil : "on " + (colorName(style.background) ?? ""),
        ]
        .compactMap { $0 }.joined(separator: " ")
        let withColor = ([color].filter { !$0.isEmpty } + names(of: style.colorLook)).joined(separator: ", ")
        let without = names(of: style.monochromeLook).joined(separator: ", ")
        return
            "# \(role): \(withColor.isEmpty ? "plain" : withColor) (without colour: \(without.isEmpty ? "plain" : without))"
    }

    static func colorName(_ color: Int16) -> String? {
        let names = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"]
        return names.indices.contains(Int(color)) ? names[Int(color)] : nil
    }

    static func names(of attributes: Attributes) -> [String] {
        [(Attributes.bold, "bold"), (.reverse, "reverse"), (.underline, "underline")].filter {
            attributes.contains($0.0)
        }.map(\.1)
    }

    static func names(of look: RoleStyle.Look) -> [String] {
        [(RoleStyle.Look.bold, "bold"), (.dim, "dim"), (.reverse, "reverse"), (.underline, "underline")].filter {
            look.contains($0.0)
        }.map(\.1)
    }
}
