/// Width of text in terminal cells, as a terminal draws it: East Asian wide and fullwidth
/// characters and emoji take two cells; combining marks, zero-width joiners and bidirectional
/// marks (which ICU puts in Arabic prices) take none; everything else, including the no-break
/// spaces U+00A0 and U+202F in formatted prices, takes one.
public enum CellWidth {
    public static func of(_ text: String) -> Int {
        if let ascii = asciiWidth(text) { return ascii }
        if let simple = scalarWidth(text) { return simple }
        var total = 0
        for character in text { total += of(character) }
        return total
    }

    /// True when every scalar of `text` is one the grapheme rules never join to a neighbour, so
    /// each scalar is a character of its own and scalars can be measured without the (much
    /// slower) character iteration. Printable ASCII, Latin, general punctuation, arrows and
    /// symbols (box drawing, ⚠), CJK punctuation and ideographs, fullwidth forms: the text of this
    /// UI. Combining marks, joiners, selectors, controls, Hangul jamo, regional indicators and
    /// the rest are outside these ranges and send the text the slow, exact way.
    public static func isOneScalarPerCharacter(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy(isStandalone)
    }

    /// Whether `scalar` is a character of its own wherever it stands (see `isOneScalarPerCharacter`).
    package static func isStandalone(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x20...0x7E, 0xA0...0x2FF, 0x2010...0x2027, 0x2030...0x205E, 0x2190...0x2BFF, 0x3000...0x3029,
            0x4E00...0x9FFF, 0xFF01...0xFF60, 0xFFE0...0xFFE6:
            return true
        default:
            return false
        }
    }

    /// The width of `text` measured scalar by scalar, in one pass; nil unless every scalar is
    /// one of `isOneScalarPerCharacter`'s.
    static func scalarWidth(_ text: String) -> Int? {
        var width = 0
        for scalar in text.unicodeScalars {
            guard isStandalone(scalar) else { return nil }
            width += of(scalar)
        }
        return width
    }

    /// The width of ASCII text byte by byte, nil for any other text: every ASCII character is one
    /// byte except CR LF, and control characters (CR and LF included) take no cells.
    static func asciiWidth(_ text: String) -> Int? {
        // A native string's bytes are contiguous: a loop over them is several times faster than over the view.
        text.utf8.withContiguousStorageIfAvailable(asciiWidth) ?? asciiWidth(text.utf8)
    }

    private static func asciiWidth(_ bytes: some Sequence<UInt8>) -> Int? {
        var width = 0
        for byte in bytes {
            if byte >= 0x80 { return nil }
            if byte >= 0x20 && byte < 0x7F { width += 1 }
        }
        return width
    }

    public static func of(_ character: Character) -> Int {
        // ASCII ("\r\n" reports 0x0A, and both of its scalars are controls of width 0 too).
        if let ascii = character.asciiValue { return ascii >= 0x20 && ascii < 0x7F ? 1 : 0 }
        var width = 0
        for scalar in character.unicodeScalars {
            let scalarWidth = of(scalar)
            if scalarWidth > width { width = scalarWidth }
        }
        // An emoji presentation selector turns a text-style symbol into a two-cell emoji.
        if character.unicodeScalars.contains("\u{FE0F}") && width > 0 { return 2 }
        return width
    }

    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x7F { return value < 0x20 ? 0 : 1 }
        if value < 0xA0 { return 0 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        if isWide(value) { return 2 }
        if scalar.properties.isEmojiPresentation { return 2 }
        return 1
    }

    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF,
            0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
            0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
            0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }

    /// Cuts `text` to at most `width` cells, ending with `…` when something was cut. ASCII is cut
    /// byte by byte and simple text scalar by scalar (see `isOneScalarPerCharacter`), the rest by
    /// character; all three give the same result.
    public static func truncate(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        if let ascii = asciiWidth(text) {
            guard ascii > width else { return text }
            // Control bytes (CR LF too) take no cells, so they never end the cut.
            return String(
                decoding: prefix(text.utf8, fitting: width - 1) { $0 >= 0x20 && $0 < 0x7F ? 1 : 0 }, as: UTF8.self)
                + "…"
        }
        if let simple = scalarWidth(text) {
            guard simple > width else { return text }
            return String(prefix(text.unicodeScalars, fitting: width - 1, of)) + "…"
        }
        guard of(text) > width else { return text }
        return String(prefix(text, fitting: width - 1, of)) + "…"
    }

    /// The longest prefix of `items` whose widths add up to at most `cells`.
    private static func prefix<Items: Collection>(_ items: Items, fitting cells: Int, _ width: (Items.Element) -> Int)
        -> Items.SubSequence
    {
        var used = 0
        var end = items.startIndex
        while end != items.endIndex {
            let cellsOfItem = width(items[end])
            if used + cellsOfItem > cells { break }
            used += cellsOfItem
            items.formIndex(after: &end)
        }
        return items[..<end]
    }

    /// Pads (or truncates) to exactly `width` cells; `alignRight` for numbers and prices.
    public static func pad(_ text: String, to width: Int, alignRight: Bool = false) -> String {
        let cut = truncate(text, to: width)
        let fill = String(repeating: " ", count: max(0, width - of(cut)))
        return alignRight ? fill + cut : cut + fill
    }
}
