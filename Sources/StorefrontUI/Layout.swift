import CellGrid

/// Where each part of the main screen goes at a given size. Computed from the size alone (and
/// whether the banner shows), so the reducer pages by the same number of rows the view draws.
public struct Layout: Sendable, Hashable {
    public static let minimum = TerminalSize(columns: 60, rows: 16)
    /// Each product takes two lines: its title, type and price, then its description and id, as
    /// a table cell with a subtitle does on iOS.
    static let linesPerProduct = 2
    /// From this screen width a product's id shows on its description line, in a column of its own.
    static let idsFromWidth = 100

    public let size: TerminalSize
    public let banner: Bool

    public init(size: TerminalSize, banner: Bool = true) {
        self.size = size
        self.banner = banner
    }

    public var fits: Bool { size.fits(Self.minimum) }

    var transactionRows: Int { size.rows >= 34 ? 6 : size.rows >= 20 ? 4 : 2 }
    /// Header, banner, products title, invalid-ids line, transactions title, wallet, status, footer.
    var chromeRows: Int { 7 + (banner ? 1 : 0) }
    /// The screen lines the list has; an odd one left over stays blank under it.
    var listLines: Int { max(Self.linesPerProduct, size.rows - chromeRows - transactionRows) }

    /// Products on one page of the list (each `linesPerProduct` screen lines).
    public var listRows: Int { max(1, listLines / Self.linesPerProduct) }

    var listTop: Int { 2 + (banner ? 1 : 0) }
    var showsIds: Bool { size.columns >= Self.idsFromWidth }
    var invalidRow: Int { listTop + listLines }
    var transactionsTitleRow: Int { invalidRow + 1 }
    var walletRow: Int { size.rows - 3 }
    var statusRow: Int { size.rows - 2 }
    var footerRow: Int { size.rows - 1 }
}
