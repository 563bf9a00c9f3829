import Foundation
import JSONReading

/// Collects every problem while reading a `JSONValue` tree, so a catalog is reported in full
/// rather than stopping at the first mistake. Each accessor reports what it could not read and
/// returns nil; callers carry on with what they have. Public so that other documents read as
/// JSON (scenario files) report their problems as catalogs do.
public struct Validation {
    public private(set) var problems: [CatalogProblem] = []
    /// Prices already parsed (see `parsePrice`), up to `priceMemoLimit` distinct ones.
    var priceMemo: [PriceKey: Result<Decimal, PriceText.Problem>] = [:]
    static let priceMemoLimit = 4_096

    public init() {}

    public mutating func report(_ path: JSONPath, _ message: String) {
        problems.append(CatalogProblem(path: path.description, message: message))
    }

    /// Forgets the problems found so far (a reader that gives up on a value, to read it again another way).
    mutating func discardProblems() {
        problems.removeAll(keepingCapacity: true)
    }

    /// Problems found by another `Validation`, after the ones found so far.
    mutating func include(_ others: [CatalogProblem]) {
        problems += others
    }

    /// Reads an object, reporting duplicate keys, and unknown keys when `allowed` is given.
    public mutating func object(_ value: JSONValue?, _ path: @autoclosure () -> JSONPath, allowed: [String]? = nil)
        -> JSONObject?
    {
        guard let value else { return nil }
        guard case .object(let object) = value else {
            report(path(), "expected an object, found \(brief(value))")
            return nil
        }
        for key in object.duplicateKeys {
            report(path().key(key), "the key appears more than once; each key may appear only once")
        }
        if let allowed {
            for member in object.members where !allowed.contains(member.key) {
                report(path().key(member.key), "unknown key (expected one of: \(allowed.joined(separator: ", ")))")
            }
        }
        return object
    }

    public mutating func array(_ value: JSONValue?, _ path: @autoclosure () -> JSONPath) -> [JSONValue]? {
        guard let value else { return nil }
        guard case .array(let items) = value else {
            report(path(), "expected an array, found \(brief(value))")
            return nil
        }
        return items
    }

    /// A required member: reports its absence on the parent object's path.
    public mutating func require(_ object: JSONObject, _ key: String, _ path: JSONPath, _ what: String) -> JSONValue? {
        guard let value = object[key] else {
            report(path, "missing \"\(key)\" (\(what))")
            return nil
        }
        return value
    }

    /// A string of 1…`maxLength` characters with no control characters. Only `multiline` text
    /// (descriptions) may contain line feeds and tabs; everything else (titles, names, ids) is one
    /// line in a table or a message. No text may hold a bidirectional control or an invisible
    /// format character (`UnprintableScan`): a title could reorder the columns of a table, or two
    /// ids look the same.
    ///
    /// Lengths are in characters (grapheme clusters: "é" written as e + U+0301 is one, so is 👨‍👩‍👧),
    /// the unit a person counts, whatever the size of the text. Counting stops one character past
    /// the limit, and the checks that walk the text run only once it is known to be within it, so
    /// a 50 MB value is refused after reading a few hundred bytes of it, however busy the machine.
    public mutating func string(
        _ value: JSONValue?, _ path: @autoclosure () -> JSONPath, maxLength: Int = 200, multiline: Bool = false
    ) -> String? {
        guard let value else { return nil }
        guard case .string(let text) = value else {
            report(path(), "expected a string, found \(brief(value))")
            return nil
        }
        if text.isEmpty {
            report(path(), "is empty; expected text")
            return nil
        }
        // A text of at most `maxLength` bytes has at most that many characters: no need to count.
        if text.utf8.count > maxLength, text.prefix(maxLength + 1).count > maxLength {
            report(
                path(),
                "\(quoted(text)) is too long: at most \(maxLength) characters allowed"
            )
            return nil
        }
        if mayBeAllWhitespace(text), text.allSatisfy(\.isWhitespace) {
            report(path(), "is empty; expected text")
            return nil
        }
        let allowed: (Unicode.Scalar) -> Bool = { multiline && ($0 == "\n" || $0 == "\t") }
        if mayHoldUnprintable(text), holdsUnprintable(text, allowed: allowed),
            let (scalar, position) = firstForbidden(in: text, allowed: allowed)
        {
            report(
                path(),
                "\(quoted(text)) contains \(UnprintableName.of(scalar)) at character \(position); \(rule(for: scalar, multiline: multiline))"
            )
            return nil
        }
        return text
    }

    private func rule(for scalar: Unicode.Scalar, multiline: Bool) -> String {
        guard isControlOrLineBreak(scalar) else { return UnprintableName.rule(for: scalar) }
        return multiline
            ? "a description may contain line breaks (\\n) and tabs (\\t), but no other control characters"
            : "this text must be a single line without control characters (only descriptions may contain line breaks and tabs)"
    }

    /// False when no byte of `text` can start an unprintable character: bytes below 0x20 and 0x7F
    /// are C0 controls and DEL; 0xC2 leads the C1 controls and U+00AD, 0xE2 0x80 and 0xE2 0x81
    /// U+2000…U+207F (the zero-width, bidirectional and separator characters; the rest of
    /// U+2000…U+2FFF has none), 0xEF 0xBB U+FEFF and 0xEF 0xBF U+FFF9…U+FFFB (the rest of
    /// U+F000…U+FFFF, such as the full-width punctuation of Chinese text, has none), and the
    /// others lead the remaining format characters (Arabic, Syriac, Mongolian, and beyond U+FFFF).
    /// Printable ASCII is passed over eight bytes at a time, so most text is settled by one quick
    /// pass over its bytes.
    private func mayHoldUnprintable(_ text: String) -> Bool {
        var text = text
        return text.withUTF8(Self.mayHoldUnprintable)
    }

    private static func mayHoldUnprintable(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let raw = UnsafeRawBufferPointer(bytes)
        return suspectBytes.withUnsafeBufferPointer { suspect in
            var index = 0
            while index < bytes.count {
                if index + 8 <= bytes.count, isPrintableASCII(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                {
                    index += 8
                    continue
                }
                let end = min(index + 8, bytes.count)
                while index < end {
                    if suspect[Int(bytes[index])], mayStartUnprintable(bytes, at: index) { return true }
                    index += 1
                }
            }
            return false
        }
    }

    /// The bytes `mayStartUnprintable` looks at more closely, by value: a lookup per byte, where
    /// most bytes of text in other scripts are continuation bytes or lead bytes of no interest.
    private static let suspectBytes: [Bool] = (0...255).map { byte in
        byte < 0x20 || [0x7F, 0xC2, 0xD8, 0xDB, 0xDC, 0xE0, 0xE1, 0xE2, 0xEF, 0xF0, 0xF3].contains(byte)
    }

    /// Whether every byte of `word` is printable ASCII, 0x20…0x7E.
    private static func isPrintableASCII(_ word: UInt64) -> Bool {
        ByteWord.nonASCII(in: word) | ByteWord.below(0x20, in: word) | ByteWord.equal(to: 0x7F, in: word) == 0
    }

    private static func mayStartUnprintable(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int) -> Bool {
        let next = position + 1 < bytes.count ? bytes[position + 1] : 0
        switch bytes[position] {
        case 0x00..<0x20, 0x7F, 0xC2, 0xD8, 0xDB, 0xDC, 0xE0, 0xE1, 0xF0, 0xF3: return true
        case 0xE2: return next < 0x82
        case 0xEF: return next == 0xBB || next == 0xBF
        default: return false
        }
    }

    /// Scalar by scalar, without the slower walk by character that finds the position.
    private func holdsUnprintable(_ text: String, allowed: (Unicode.Scalar) -> Bool) -> Bool {
        var scan = UnprintableScan()
        return text.unicodeScalars.contains { scan.isUnprintable($0) && !allowed($0) }
    }

    /// False when the first character is plainly not whitespace: `Character.isWhitespace` looks
    /// at the character's first scalar, which is the text's first scalar (an ASCII first byte
    /// other than tab, line feed, vertical tab, form feed, carriage return and space is settled
    /// without looking up its properties, and so is a first scalar where Unicode has no white
    /// space, U+00A1…U+167F and above U+3000, such as every Chinese character).
    private func mayBeAllWhitespace(_ text: String) -> Bool {
        guard let first = text.utf8.first else { return true }
        guard first < 0x80 else {
            guard let scalar = text.unicodeScalars.first else { return true }
            if (0xA1..<0x1680).contains(scalar.value) || scalar.value > 0x3000 { return false }
            return scalar.properties.isWhitespace
        }
        return (0x09...0x0D).contains(first) || first == 0x20
    }

    /// The first unprintable character in `text` that is not `allowed`, with its position counted
    /// in characters from 1, as an editor shows it.
    private func firstForbidden(in text: String, allowed: (Unicode.Scalar) -> Bool) -> (Unicode.Scalar, Int)? {
        var scan = UnprintableScan()
        var position = 0
        for character in text {
            position += 1
            // Every scalar goes through the scan, in order: a joiner is judged by the one before it.
            let forbidden = character.unicodeScalars.filter { scan.isUnprintable($0) && !allowed($0) }
            if let scalar = forbidden.first { return (scalar, position) }
        }
        return nil
    }

    public mutating func bool(_ value: JSONValue?, _ path: @autoclosure () -> JSONPath) -> Bool? {
        guard let value else { return nil }
        guard case .bool(let flag) = value else {
            report(path(), "expected true or false, found \(brief(value))")
            return nil
        }
        return flag
    }

    public mutating func integer(_ value: JSONValue?, _ path: @autoclosure () -> JSONPath, in range: ClosedRange<Int>)
        -> Int?
    {
        guard let value else { return nil }
        guard case .number(let text) = value, let number = Int(text) else {
            let expected =
                range.count == 1
                ? "the whole number \(range.lowerBound)"
                : "a whole number from \(range.lowerBound) to \(range.upperBound)"
            if case .number(let text) = value, isWholeNumber(text) {  // too many digits for Int
                report(path(), "\(brief(value)) is out of range; expected \(range.lowerBound) to \(range.upperBound)")
            } else {
                report(path(), "expected \(expected), found \(brief(value))")
            }
            return nil
        }
        guard range.contains(number) else {
            report(path(), "\(number) is out of range; expected \(range.lowerBound) to \(range.upperBound)")
            return nil
        }
        return number
    }

    /// Digits with an optional minus sign, as the JSON parser keeps a number without fraction or exponent.
    private func isWholeNumber(_ text: String) -> Bool {
        let digits = text.utf8.first == UInt8(ascii: "-") ? text.utf8.dropFirst() : text.utf8.dropFirst(0)
        return !digits.isEmpty && digits.allSatisfy { (0x30...0x39).contains($0) }
    }

    /// One of a fixed set of words, such as a product type.
    public mutating func choice<T>(
        _ value: JSONValue?, _ path: @autoclosure () -> JSONPath, _ what: String,
        options: [(String, T)]
    ) -> T? {
        guard let text = string(value, path()) else { return nil }
        guard let match = options.first(where: { $0.0 == text }) else {
            report(
                path(), "\(quoted(text)) is not \(what) (expected one of: \(options.map(\.0).joined(separator: ", ")))")
            return nil
        }
        return match.1
    }

    mutating func period(_ value: JSONValue?, _ path: @autoclosure () -> JSONPath) -> SubscriptionPeriod? {
        guard let text = string(value, path()) else { return nil }
        guard let period = SubscriptionPeriod(iso8601: text) else {
            report(
                path(),
                "\(quoted(text)) is not a subscription period (expected ISO 8601 such as P1W, P1M, P3M, P6M, P1Y)")
            return nil
        }
        return period
    }
}

extension Product {
    /// The longest product identifier a catalog accepts, in characters.
    public static let maxIdLength = 255

    /// Why `id` could not be a product identifier, by the rule both catalog formats read ids with
    /// (one line of text, not blank, at most `maxIdLength` characters); nil when it could. A
    /// products.json also limits the characters (`ProductsDecoder.isProductId`), a `.storekit` file
    /// does not, and the server may serve either.
    public static func identifierProblem(_ id: String) -> String? {
        var check = Validation()
        _ = check.string(.string(id), .root, maxLength: maxIdLength)
        return check.problems.first?.message
    }
}
