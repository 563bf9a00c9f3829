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
    /// A line says which test controls are not at their defaults.
    public let controls: Bool

    public init(size: TerminalSize, banner: Bool = true, controls: Bool = false) {
        self.size = size
        self.banner = banner
        self.controls = controls
    }

    public var fits: Bool { size.fits(Self.minimum) }

    /// A third of what the chrome leaves: the list keeps two thirds, and both grow with the screen.
    var transactionRows: Int { max(2, (size.rows - chromeRows) / 3) }
    /// Header, banner, controls line, products title, invalid-ids line, transactions title, wallet,
    /// status, footer.
    var chromeRows: Int { 7 + (banner ? 1 : 0) + (controls ? 1 : 0) }
    /// The screen lines the list has; an odd one left over stays blank under it.
    var listLines: Int { max(Self.linesPerProduct, size.rows - chromeRows - transactionRows) }

    /// Products on one page of the list (each `linesPerProduct` screen lines).
    public var listRows: Int { max(1, listLines / Self.linesPerProduct) }

    var controlsRow: Int { 1 + (banner ? 1 : 0) }
    var listTop: Int { 2 + (banner ? 1 : 0) + (controls ? 1 : 0) }
    var showsIds: Bool { size.columns >= Self.idsFromWidth }
    var invalidRow: Int { listTop + listLines }
    var transactionsTitleRow: Int { invalidRow + 1 }
    var walletRow: Int { size.rows - 3 }
    var statusRow: Int { size.rows - 2 }
    var footerRow: Int { size.rows - 1 }
}
