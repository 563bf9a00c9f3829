import Foundation

/// Reads prices exactly: a plain decimal with `.` as separator, from a JSON string or number.
/// Never through `Double`, and never through `Decimal(string:)` alone, which accepts "1,60" as 1.
enum PriceText {
    /// ISO 4217 currencies without minor units (a price in them must be whole).
    static let zeroDecimalCurrencies: Set<String> = [
        "BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "UYI", "VND", "VUV", "XAF", "XOF", "XPF",
    ]
    /// Far above any App Store price tier in any currency; larger is a typo.
    static let maximum = Decimal(100_000_000)

    enum Problem: Error, Equatable {
        case notDecimal, negative, tooManyDecimals(allowed: Int), tooLarge
    }

    static func parse(_ text: String, currency: String?) -> Result<Decimal, Problem> {
        var body = Substring(text)
        let negative = body.first == "-"
        if negative { body = body.dropFirst() }
        let parts = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let isDigits = { (part: Substring) in !part.isEmpty && part.utf8.allSatisfy { (0x30...0x39).contains($0) } }
        guard let whole = parts.first, isDigits(whole), parts.count == 1 || isDigits(parts[1]),
              body.utf8.count <= 40, let value = Decimal(string: String(body), locale: Locale(identifier: "en_US_POSIX")) else {
            return .failure(.notDecimal)
        }
        if negative && !value.isZero { return .failure(.negative) }
        let allowed = currency.map { zeroDecimalCurrencies.contains($0) ? 0 : 2 } ?? 2
        if parts.count == 2, parts[1].count > allowed, parts[1].contains(where: { $0 != "0" }) {
            return .failure(.tooManyDecimals(allowed: allowed))
        }
        if value > maximum { return .failure(.tooLarge) }
        return .success(value)
    }
}

extension Validation {
    /// A price in `currency`, reporting the exact reason a value is refused.
    mutating func price(_ value: JSONValue?, _ path: JSONPath, currency: String?) -> Decimal? {
        guard let value else { return nil }
        let text: String
        switch value {
        case .string(let string): text = string
        case .number(let number): text = number
        default:
            report(path, "expected a price as a decimal string such as \"0.99\", found \(brief(value))")
            return nil
        }
        switch PriceText.parse(text, currency: currency) {
        case .success(let price):
            return price
        case .failure(.notDecimal):
            report(path, "\(quoted(text)) is not a decimal number (expected digits with '.' as the decimal separator, e.g. \"1.60\")")
        case .failure(.negative):
            report(path, "\(quoted(text)) is negative; a price must be zero or more")
        case .failure(.tooManyDecimals(let allowed)):
            let currencyName = currency ?? "the currency"
            report(path, "\(quoted(text)) has more decimal places than \(currencyName) allows (\(allowed == 0 ? "none" : String(allowed)))")
        case .failure(.tooLarge):
            report(path, "\(quoted(text)) is larger than any App Store price (at most \(PriceText.maximum))")
        }
        return nil
    }
}
