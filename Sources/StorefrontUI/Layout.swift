import CellGrid

/// Where each part of the main screen goes at a given size. Computed from the size alone (and
/// whether the banner shows), so the reducer pages by the same number of rows the view draws.
public struct Layout: Sendable, Hashable {
    public static let minimum = TerminalSize(columns: 60, rows: 16)
    /// From this width the product details get their own pane on the right.
    static let detailPaneWidth = 100

    public let size: TerminalSize
    public let banner: Bool

    public init(size: TerminalSize, banner: Bool = true) {
        self.size = size
        self.banner = banner
    }

    public var fits: Bool { size.fits(Self.minimum) }

    var sidePane: Bool { size.columns >= Self.detailPaneWidth }
    var transactionRows: Int { size.rows >= 34 ? 6 : size.rows >= 20 ? 4 : 2 }
    /// Header, banner, products title, invalid-ids line, transactions title, wallet, status, footer.
    var chromeRows: Int { 7 + (banner ? 1 : 0) }
    var detailRows: Int { sidePane ? 0 : 2 }

    public var listRows: Int { max(1, size.rows - chromeRows - transactionRows - detailRows) }

    var listTop: Int { 2 + (banner ? 1 : 0) }
    var listWidth: Int { sidePane ? size.columns * 3 / 5 : size.columns }
    var invalidRow: Int { listTop + listRows + detailRows }
    var transactionsTitleRow: Int { invalidRow + 1 }
    var walletRow: Int { size.rows - 3 }
    var statusRow: Int { size.rows - 2 }
    var footerRow: Int { size.rows - 1 }
}
