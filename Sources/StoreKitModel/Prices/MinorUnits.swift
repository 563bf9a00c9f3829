import Foundation

/// ISO 4217's minor units: how many decimals an amount in a currency has. A price in it may be
/// written with no more, and a refund is rounded to them: 0 for the yen and the won, 3 for the
/// Kuwaiti dinar (1.250 KWD is one dinar and 250 fils), 2 for most others.
///
/// A table rather than ICU's currency data: the catalog decoder reads every price through this,
/// and asking ICU loads its data at every start (see `PriceText.parse`).
public enum MinorUnits {
    /// Currencies without minor units: an amount in them is whole.
    static let none: Set<String> = [
        "BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "UYI", "VND", "VUV", "XAF", "XOF",
        "XPF",
    ]
    /// Currencies with thousandths: the dinars of Bahrain, Iraq, Jordan, Kuwait, Libya and Tunisia,
    /// and the Omani rial.
    static let three: Set<String> = ["BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"]

    /// The decimals of `currency` (an ISO 4217 code); 2 for one not listed.
    public static func of(_ currency: String) -> Int {
        if none.contains(currency) { return 0 }
        if three.contains(currency) { return 3 }
        return 2
    }

    /// `amount` rounded to the minor units of `currency`, by `mode`.
    public static func round(_ amount: Decimal, in currency: String, _ mode: NSDecimalNumber.RoundingMode) -> Decimal {
        var value = amount
        var rounded = Decimal()
        NSDecimalRound(&rounded, &value, of(currency), mode)
        return rounded
    }
}
