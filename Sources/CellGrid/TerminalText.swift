/// The one rule for what text may reach a terminal as itself. A terminal acts on control
/// characters (ESC starts sequences that move the cursor, clear lines or write the clipboard),
/// reorders text around bidirectional controls, and shows nothing for invisible format
/// characters, so text from a catalog or a store could rewrite or disguise what is shown.
///
/// Unprintable, and never sent raw:
/// - C0 controls (U+0000–U+001F), DEL (U+007F) and C1 controls (U+0080–U+009F);
/// - the line and paragraph separators U+2028 and U+2029;
/// - format characters (Unicode category Cf): the bidirectional controls U+061C, U+200E, U+200F,
///   U+202A–U+202E and U+2066–U+2069, the invisible U+00AD, U+200B–U+200D, U+2060–U+2064 and
///   U+FEFF, and the rest of the category.
///
/// Some format characters are part of writing where they stand, and stay: the zero-width joiner
/// U+200D after an emoji (👨‍👩‍👧) or a virama (Indic half forms), the zero-width non-joiner U+200C
/// after a virama or in Arabic-script text (Persian "می‌خواهم"), and the tag characters
/// U+E0020–U+E007F in an emoji tag sequence after 🏴 (the flag of Scotland).
///
/// `escaped` shows each unprintable character as an escape; `replacingUnprintable` writes it
/// another way (JSON escapes keep a value exact), `removingUnprintable` drops it. Catalog
/// validation refuses the same characters (`UnprintableScan` in StoreKitModel, which cannot
/// import this module), so only text a store holds can carry them.
public enum TerminalText {
    /// Under a non-UTF-8 locale, the one-cell punctuation the views use gets a readable ASCII
    /// stand-in instead of "?"; anything else non-ASCII the terminal still draws as "?".
    public static func asciiStandIn(for character: Character) -> Character {
        switch character {
        case "·", "—", "–", "─", "━": "-"
        case "│", "┃", "▏": "|"
        case "┌", "┐", "└", "┘", "├", "┤": "+"
        case "…": "."
        case "×": "x"
        case "✓": "v"
        case "⚠": "!"
        case "\u{00A0}", "\u{202F}": " "
        case "“", "”": "\""
        case "‘", "’": "'"
        default: character
        }
    }

    /// `text` with each unprintable character written as in a Swift string literal: `\n`, `\r`,
    /// `\t`, and `\u{…}` with the code point in uppercase hex for the rest (`\u{1B}`,
    /// `\u{202E}`). The result is printable, so escaping it again changes nothing.
    public static func escaped(_ text: String) -> String {
        replacingUnprintable(text, with: escape)
    }

    /// `text` without its unprintable characters.
    public static func removingUnprintable(_ text: String) -> String {
        replacingUnprintable(text) { _ in "" }
    }

    /// `text` with each unprintable character replaced by `replacement(scalar)`; `text` itself
    /// when it has none.
    public static func replacingUnprintable(_ text: String, with replacement: (Unicode.Scalar) -> String) -> String {
        // Read twice when something is replaced, so printable text, nearly all of it, is not copied.
        guard !isPrintable(text) else { return text }
        var scan = Scan()
        var result = ""
        for scalar in text.unicodeScalars {
            if scan.isUnprintable(scalar) {
                result += replacement(scalar)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether every character of `text` may be shown as itself.
    public static func isPrintable(_ text: String) -> Bool {
        guard !isPrintableASCII(text) else { return true }
        var scan = Scan()
        return !text.unicodeScalars.contains { scan.isUnprintable($0) }
    }

    /// The escape `escaped` writes for `scalar`.
    static func escape(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\n": "\\n"
        case "\r": "\\r"
        case "\t": "\\t"
        default: "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        }
    }

    /// Whether `text` is all printable ASCII, settled byte by byte: nearly all text is.
    private static func isPrintableASCII(_ text: String) -> Bool {
        let printable = { (byte: UInt8) in byte >= 0x20 && byte < 0x7F }
        return text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy(printable) }
            ?? text.utf8.allSatisfy(printable)
    }

    /// Reads text left to right, deciding each scalar from the one before it.
    struct Scan {
        private var previous: Unicode.Scalar?
        /// Inside an emoji tag sequence: after 🏴 and the tags that followed it.
        private var inTagSequence = false

        mutating func isUnprintable(_ scalar: Unicode.Scalar) -> Bool {
            let (before, tagged) = (previous, inTagSequence)
            previous = scalar
            // WAVING BLACK FLAG starts a tag sequence; CANCEL TAG (U+E007F) ends it.
            inTagSequence = scalar.value == 0x1F3F4 || (tagged && (0xE0020...0xE007E).contains(scalar.value))
            switch scalar.value {
            case 0x200C: return !(isVirama(before) || isArabicScript(before))
            case 0x200D: return !(isVirama(before) || isEmoji(before))
            case 0xE0020...0xE007F: return !tagged
            default: return TerminalText.isUnprintable(scalar)
            }
        }

        private func isVirama(_ scalar: Unicode.Scalar?) -> Bool {
            scalar?.properties.canonicalCombiningClass == .virama
        }

        /// The Arabic, Arabic Supplement, Arabic Extended-A and both presentation-form blocks.
        private func isArabicScript(_ scalar: Unicode.Scalar?) -> Bool {
            guard let value = scalar?.value else { return false }
            switch value {
            case 0x0620...0x06FF, 0x0750...0x077F, 0x08A0...0x08FF, 0xFB50...0xFDFF, 0xFE70...0xFEFC: return true
            default: return false
            }
        }

        /// An emoji, a skin tone, or the variation selector that gives a symbol emoji presentation
        /// (❤️‍🔥 joins after U+FE0F). ASCII digits, `#` and `*` count as emoji in Unicode (keycaps
        /// start with them) but never join with U+200D.
        private func isEmoji(_ scalar: Unicode.Scalar?) -> Bool {
            guard let scalar else { return false }
            return scalar == "\u{FE0F}" || (scalar.value >= 0x80 && scalar.properties.isEmoji)
        }
    }

    /// Whether `scalar` is unprintable wherever it stands (joiners and tags aside, see `Scan`).
    static func isUnprintable(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0xA0 { return value < 0x20 || value >= 0x7F }
        if isPlainlyPrintable(value) { return false }
        switch scalar.properties.generalCategory {
        case .format, .lineSeparator, .paragraphSeparator: return true
        default: return false
        }
    }

    /// Ranges with no format character or separator, settled without looking up the category:
    /// Latin to Hebrew (less U+00AD), and from superscripts to the Hangul syllables and the
    /// fullwidth forms (U+2070–U+FEFE, U+FF00–U+FFF8).
    private static func isPlainlyPrintable(_ value: UInt32) -> Bool {
        switch value {
        case 0xA0...0x5FF: value != 0xAD
        case 0x2070...0xFEFE, 0xFF00...0xFFF8: true
        default: false
        }
    }
}
