import CellGrid
import Foundation
import StoreCore
import StoreKitModel

/// The pure view: state and size to a grid of styled cells. Only the visible rows of the
/// catalog are touched, so the cost follows the screen, not the catalog.
public enum View {
    public static func render(_ state: AppState) -> Grid {
        var grid = Grid(size: state.size)
        let layout = state.layout
        let strings = UIStrings(state.language)
        guard layout.fits else {
            let need = "\(Layout.minimum.columns)×\(Layout.minimum.rows)"
            let texts = strings.tooSmall(need)
            let text = texts.first { CellWidth.of($0) <= state.size.columns } ?? texts[texts.count - 1]
            let rows = min(
                state.size.rows, (CellWidth.of(text) + max(1, state.size.columns) - 1) / max(1, state.size.columns))
            wrap(
                &grid, text, row: max(0, (state.size.rows - rows) / 2), column: 0, width: state.size.columns,
                maxRows: max(1, rows), role: .warning)
            return grid
        }
        header(&grid, state, strings)
        if layout.banner { banner(&grid, state, strings) }
        if layout.controls {
            let key = strings.controlsResetKeys + " "
            let width = state.size.columns
            grid.write(
                " " + strings.controlsInForce(ControlRow.changed(state)), row: layout.controlsRow, column: 0,
                role: .warning,
                maxWidth: width - CellWidth.of(key) - 1, overflow: .ellipsis)
            grid.write(key, row: layout.controlsRow, column: width - CellWidth.of(key), role: .warning)
        }
        catalog(&grid, state, layout, strings)
        transactions(&grid, state, layout, strings)
        wallet(&grid, state, layout, strings)
        statusLine(&grid, state, layout, strings)
        let footer = KeyHints(language: state.language, ascii: state.asciiOnly).footer(width: state.size.columns)
        grid.write(footer, row: layout.footerRow, column: 0, role: .key, overflow: .ellipsis)
        if let sheet = state.sheet { Sheets.draw(sheet, on: &grid, state, strings) }
        if let echo = state.keyEcho?.text {
            let width = min(CellWidth.of(echo), state.size.columns)
            grid.write(
                echo, row: layout.footerRow, column: state.size.columns - width, role: .selected, maxWidth: width,
                overflow: .ellipsis)
        }
        return grid
    }

    static func header(_ grid: inout Grid, _ state: AppState, _ strings: UIStrings) {
        let width = state.size.columns
        grid.fill(Rect(row: 0, column: 0, width: width, height: 1), role: .title)
        let text =
            " \(strings.appName) · \(state.storeLabel) · \(state.account.name) (\(state.storefront.id)) · \(state.locale)"
        let right = strings.help + " "
        grid.write(
            text, row: 0, column: 0, role: .title, attributes: .bold, maxWidth: width - CellWidth.of(right) - 1,
            overflow: .ellipsis)
        grid.write(right, row: 0, column: width - CellWidth.of(right), role: .title)
    }

    static func banner(_ grid: inout Grid, _ state: AppState, _ strings: UIStrings) {
        let width = state.size.columns
        grid.fill(Rect(row: 1, column: 0, width: width, height: 1), role: .banner)
        let key = strings.bannerKey + " "
        var text =
            " "
            + (state.unconfirmed.isEmpty
                ? strings.banner(
                    paid: state.pending.count { $0.reason != .awaitingApproval },
                    askToBuy: state.pending.count { $0.reason == .awaitingApproval })
                : strings.bannerUnconfirmed(state.unconfirmed.count))
        if state.asciiOnly { text = text.replacingOccurrences(of: "⚠", with: "!") }
        grid.write(
            text, row: 1, column: 0, role: .banner, attributes: .bold, maxWidth: width - CellWidth.of(key) - 1,
            overflow: .ellipsis)
        grid.write(key, row: 1, column: width - CellWidth.of(key), role: .banner)
    }

    static func spinner(_ state: AppState) -> String {
        let frames = state.asciiOnly ? ["|", "/", "-", "\\"] : ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
        return frames[state.spinner % frames.count]
    }

    static func statusLine(_ grid: inout Grid, _ state: AppState, _ layout: Layout, _ strings: UIStrings) {
        if state.list.filtering || !state.list.query.isEmpty {
            let cursor = state.list.filtering ? "▏" : ""
            let used = grid.write(strings.filterPrompt, row: layout.statusRow, column: 0, role: .key)
            grid.write(
                state.list.query + (state.asciiOnly ? (state.list.filtering ? "_" : "") : cursor),
                row: layout.statusRow, column: used,
                role: .input, maxWidth: state.size.columns / 2 - used)
        }
        guard let status = state.status else {
            if let problem = state.storeProblem {
                var text = strings.storeUnreachable(problem)
                if state.asciiOnly { text = text.replacingOccurrences(of: "⚠", with: "!") }
                grid.write(text, row: layout.statusRow, column: 0, role: .error, overflow: .ellipsis)
            }
            return
        }
        let role: Role =
            switch status.level {
            case .info: .info
            case .warning: .warning
            case .error: .error
            }
        let column = state.list.filtering || !state.list.query.isEmpty ? state.size.columns / 2 : 0
        let busy = state.inFlight.isEmpty ? "" : spinner(state) + " "
        grid.write(busy + status.text, row: layout.statusRow, column: column, role: role, overflow: .ellipsis)
    }
}
