/// The share of a transaction a prorated refund gives back, as Apple's `revocationPercentage`
/// counts it: thousandths of a percent (25.5 % is 25500). A full refund has none; a prorated one
/// is above 0 and below 100 %.
public struct RefundPercentage: Sendable, Hashable {
    public let milliunits: Int

    /// What a full refund signs: 100 %.
    public static let fullMilliunits = 100_000
    /// The option and query parameter that give it.
    public static let option = "--percentage"
    /// What a prorated share may be, as the command line and `/admin` spell it.
    public static let inWords = "a percentage above 0 and below 100, with at most three decimals (25 or 25.5)"

    /// nil unless above 0 and below 100 %.
    public init?(milliunits: Int) {
        guard milliunits > 0, milliunits < Self.fullMilliunits else { return nil }
        self.milliunits = milliunits
    }

    /// From a percentage as the command line, a scenario and `/admin` spell it: digits with at
    /// most one '.' and three decimals (`25`, `25.5`, `0.015`); nil for anything else or a share
    /// that is not above 0 and below 100.
    public init?(text: String) {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard text.utf8.count <= 8, let whole = parts.first, !whole.isEmpty,
            whole.allSatisfy({ $0.isASCII && $0.isNumber })
        else { return nil }
        let decimals = parts.count > 1 ? parts[1] : ""
        guard decimals.count <= 3, parts.count == 1 || !decimals.isEmpty,
            decimals.allSatisfy({ $0.isASCII && $0.isNumber }), let units = Int(whole),
            let thousandths = Int(decimals.padding(toLength: 3, withPad: "0", startingAt: 0))
        else { return nil }
        self.init(milliunits: units * 1000 + thousandths)
    }

    /// The percentage as it was given, without trailing zeros: `25`, `25.5`, `0.015`.
    public var text: String {
        let thousandths = milliunits % 1000
        guard thousandths != 0 else { return String(milliunits / 1000) }
        var decimals = String(thousandths)
        decimals = String(repeating: "0", count: 3 - decimals.count) + decimals
        while decimals.hasSuffix("0") { decimals.removeLast() }
        return "\(milliunits / 1000).\(decimals)"
    }
}
