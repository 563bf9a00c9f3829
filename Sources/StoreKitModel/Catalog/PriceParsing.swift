import Foundation
import JSONReading

/// Reads prices exactly: a plain decimal with `.` as separator, from a JSON string or number.
/// Never through `Double`, and never through `Decimal(string:)` alone, which accepts "1,60" as 1:
/// the text is checked first, and only then converted.
enum PriceText {
    /// Far above any App Store price tier in any currency; larger is a typo.
    static let maximum = Decimal(100_000_000)

    /// Why a text is not a price; the cases other than `notDecimal` name a common near miss.
    enum Problem: Error, Equatable {
        case notDecimal
        /// `" 1"`, `"1\n"`.
        case surroundingSpace
        /// `"+1"`.
        case plusSign
        /// `"1e2"`, `"4.8E2"`: written out, `suggestion` ("100", "480") when it is a sensible price.
        case exponent(suggestion: String?)
        /// `".5"`: written out, `suggestion` ("0.5").
        case noWholeDigits(suggestion: String)
        /// `"1."`: written out, `suggestion` ("1").
        case noFractionDigits(suggestion: String)
        /// `"-0"`, `"-0.00"`: zero, but with a minus sign.
        case negativeZero
        case negative
        case tooManyDecimals(allowed: Int)
        case tooLarge
        /// More than `maxLength` characters of digits.
        case tooLong
    }
    /// No price needs more; longer text is refused before it is converted.
    static let maxLength = 40

    /// Only `digits[.digits]`: no sign, no exponent, no spaces, digits on both sides of the point.
    static func parse(_ text: String, currency: String?) -> Result<Decimal, Problem> {
        if let first = text.unicodeScalars.first, let last = text.unicodeScalars.last,
            first.properties.isWhitespace || last.properties.isWhitespace
        {
            return .failure(.surroundingSpace)
        }
        var body = Substring(text)
        let sign = body.first == "-" || body.first == "+" ? body.removeFirst() : nil
        // An exponent is split off only to name the mistake; a price never has one.
        var mantissa = body
        var exponent: Substring?
        if let e = body.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = body[..<e]
            exponent = body[body.index(after: e)...]
        }
        let parts = mantissa.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts.first ?? ""
        let fraction = parts.count == 2 ? parts[1] : nil
        let allDigits = { (part: Substring) in part.utf8.allSatisfy { (0x30...0x39).contains($0) } }
        guard allDigits(whole), fraction.map(allDigits) ?? true, !whole.isEmpty || fraction?.isEmpty == false else {
            return .failure(.notDecimal)
        }
        if let exponent {
            let digits = exponent.first == "-" || exponent.first == "+" ? exponent.dropFirst() : exponent
            guard !digits.isEmpty, allDigits(digits) else { return .failure(.notDecimal) }
            let value = body.utf8.count <= maxLength ? Decimal(string: String(body)) : nil
            let plain = value.flatMap { $0.isFinite && $0 <= maximum ? "\(sign == "-" ? "-" : "")\($0)" : nil }
            return .failure(.exponent(suggestion: plain))
        }
        if sign == "+" { return .failure(.plusSign) }
        let minus = sign == "-" ? "-" : ""
        if whole.isEmpty { return .failure(.noWholeDigits(suggestion: minus + "0" + body)) }
        if fraction?.isEmpty == true { return .failure(.noFractionDigits(suggestion: minus + whole)) }
        guard body.utf8.count <= maxLength else { return .failure(.tooLong) }
        // No locale: `Decimal(string:)` then reads '.' as the separator without asking ICU, where
        // any locale, even en_US_POSIX, loads ICU's number data (0.8 ms of every start). The text
        // was checked above to be `digits[.digits]`, so no separator is left to interpret.
        guard let value = Decimal(string: String(body)) else {
            return .failure(.notDecimal)
        }
        if sign == "-" { return .failure(value.isZero ? .negativeZero : .negative) }
        // As many decimals as the currency's minor units (none for JPY, 3 for KWD); 2 while the
        // currency is not known. Trailing zeros change nothing: "160.0" JPY is 160.
        let allowed = currency.map(MinorUnits.of) ?? 2
        if let fraction, fraction.reversed().drop(while: { $0 == "0" }).count > allowed {
            return .failure(.tooManyDecimals(allowed: allowed))
        }
        if value > maximum { return .failure(.tooLarge) }
        return .success(value)
    }
}

/// A price text and its currency: `PriceText.parse` depends on nothing else.
struct PriceKey: Hashable {
    let text: String
    let currency: String?
}

extension Validation {
    /// `PriceText.parse`, remembered: a catalog repeats the same few price points (one per tier
    /// and currency) thousands of times, and parsing a decimal exactly is the costly part.
    mutating func parsePrice(_ text: String, currency: String?) -> Result<Decimal, PriceText.Problem> {
        let key = PriceKey(text: text, currency: currency)
        if let known = priceMemo[key] { return known }
        let result = PriceText.parse(text, currency: currency)
        if priceMemo.count < Self.priceMemoLimit { priceMemo[key] = result }
        return result
    }

    /// A price in `currency`, reporting the exact reason a value is refused.
    mutating func price(_ value: JSONValue?, _ path: @autoclosure () -> JSONPath, currency: String?) -> Decimal? {
        guard let value else { return nil }
        let text: String
        switch value {
        case .string(let string): text = string
        case .number(let number): text = number
        default:
            report(path(), "expected a price as a decimal string such as \"0.99\", found \(brief(value))")
            return nil
        }
        switch parsePrice(text, currency: currency) {
        case .success(let price):
            return price
        case .failure(.notDecimal):
            report(
                path(),
                "\(quoted(text)) is not a decimal number (expected digits with '.' as the decimal separator, e.g. \"1.60\")"
            )
        case .failure(.surroundingSpace):
            report(path(), "\(quoted(text)) is not a decimal number (remove the spaces around it)")
        case .failure(.plusSign):
            report(path(), "\(quoted(text)) is not a decimal number (a price has no sign; remove the '+')")
        case .failure(.exponent(let suggestion)):
            let example = suggestion.map { "; write \(quoted($0))" } ?? ""
            report(path(), "\(quoted(text)) is not a decimal number (exponents are not allowed\(example))")
        case .failure(.noWholeDigits(let suggestion)):
            report(
                path(),
                "\(quoted(text)) is not a decimal number (it needs a digit before '.'; write \(quoted(suggestion)))")
        case .failure(.noFractionDigits(let suggestion)):
            report(
                path(),
                "\(quoted(text)) is not a decimal number (it needs digits after '.'; write \(quoted(suggestion)))")
        case .failure(.negativeZero):
            report(path(), "\(quoted(text)) has a minus sign; a price has no sign, so write zero as \"0\"")
        case .failure(.negative):
            report(path(), "\(quoted(text)) is negative; a price must be zero or more")
        case .failure(.tooManyDecimals(let allowed)):
            let currencyName = currency ?? "the currency"
            report(
                path(),
                "\(quoted(text)) has more decimal places than \(currencyName) allows (\(allowed == 0 ? "none" : String(allowed)))"
            )
        case .failure(.tooLong):
            report(
                path(),
                "\(quoted(text)) is too long for a price: \(text.utf8.count) characters, at most \(PriceText.maxLength) (and at most \(PriceText.maximum))"
            )
        case .failure(.tooLarge):
            report(path(), "\(quoted(text)) is larger than any App Store price (at most \(PriceText.maximum))")
        }
        return nil
    }
}
