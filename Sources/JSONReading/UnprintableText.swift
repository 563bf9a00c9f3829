/// Which characters catalog text may not hold: the rule of CellGrid's `TerminalText`, which the
/// terminal output applies, restated here because this module imports Foundation only. A
/// catalog then holds only text every terminal shows as written. `CatalogTextRuleTests` checks
/// the two agree on every scalar.
///
/// Unprintable: C0 and C1 controls, DEL, U+2028 and U+2029, and format characters (Cf), among
/// them the bidirectional controls and the zero-width characters. Three kinds of format
/// character are part of writing where they stand: U+200D after an emoji or a virama, U+200C
/// after a virama or in Arabic-script text, and tags in an emoji tag sequence after 🏴.
package struct UnprintableScan {
    private var previous: Unicode.Scalar?
    private var inTagSequence = false

    package init() {}

    /// Whether `scalar`, read after the scalars given before it, is unprintable.
    package mutating func isUnprintable(_ scalar: Unicode.Scalar) -> Bool {
        let (before, tagged) = (previous, inTagSequence)
        previous = scalar
        // WAVING BLACK FLAG starts a tag sequence; CANCEL TAG (U+E007F) ends it.
        inTagSequence = scalar.value == 0x1F3F4 || (tagged && (0xE0020...0xE007E).contains(scalar.value))
        switch scalar.value {
        case 0x200C: return !(Self.isVirama(before) || Self.isArabicScript(before))
        case 0x200D: return !(Self.isVirama(before) || Self.isEmoji(before))
        case 0xE0020...0xE007F: return !tagged
        default: return Self.isUnprintable(scalar)
        }
    }

    /// Unprintable wherever it stands (joiners and tags aside).
    package static func isUnprintable(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0xA0 { return value < 0x20 || value >= 0x7F }
        // No format character or separator in these ranges: most text needs no category lookup.
        switch value {
        case 0xA0...0x5FF: return value == 0xAD
        case 0x2070...0xFEFE, 0xFF00...0xFFF8: return false
        default: break
        }
        switch scalar.properties.generalCategory {
        case .format, .lineSeparator, .paragraphSeparator: return true
        default: return false
        }
    }

    private static func isVirama(_ scalar: Unicode.Scalar?) -> Bool {
        scalar?.properties.canonicalCombiningClass == .virama
    }

    private static func isArabicScript(_ scalar: Unicode.Scalar?) -> Bool {
        guard let value = scalar?.value else { return false }
        switch value {
        case 0x0620...0x06FF, 0x0750...0x077F, 0x08A0...0x08FF, 0xFB50...0xFDFF, 0xFE70...0xFEFC: return true
        default: return false
        }
    }

    /// ASCII digits, `#` and `*` are emoji in Unicode (keycaps start with them) but never join.
    private static func isEmoji(_ scalar: Unicode.Scalar?) -> Bool {
        guard let scalar else { return false }
        return scalar == "\u{FE0F}" || (scalar.value >= 0x80 && scalar.properties.isEmoji)
    }
}

/// What a message calls an unprintable character, and what to do about it.
package enum UnprintableName {
    package static func of(_ scalar: Unicode.Scalar) -> String {
        let code = codePoint(scalar)
        switch scalar {
        case "\n": return "a line break (\(code), \\n)"
        case "\r": return "a carriage return (\(code), \\r)"
        case "\t": return "a tab (\(code), \\t)"
        case "\u{0}": return "a NUL character (\(code))"
        case "\u{2028}": return "a line separator (\(code))"
        case "\u{2029}": return "a paragraph separator (\(code))"
        default: break
        }
        if let name = bidirectional[scalar.value] ?? invisible[scalar.value] { return "\(name) (\(code))" }
        return isControlOrLineBreak(scalar)
            ? "the control character \(code)" : "the invisible formatting character \(code)"
    }

    /// The rule broken by a format character (controls and line breaks have their own).
    package static func rule(for scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0x200C: "a zero-width non-joiner is accepted only after a virama or in Arabic-script text; remove it"
        case 0x200D: "a zero-width joiner is accepted only inside an emoji or after a virama; remove it"
        case 0xE0020...0xE007F: "tag characters are accepted only in an emoji flag after 🏴; remove it"
        case _ where bidirectional[scalar.value] != nil:
            "text must not contain bidirectional controls, which reorder what a terminal shows; remove it"
        default: "text must not contain invisible formatting characters, which hide text; remove it"
        }
    }

    package static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    private static let bidirectional: [UInt32: String] = [
        0x061C: "an Arabic letter mark", 0x200E: "a left-to-right mark", 0x200F: "a right-to-left mark",
        0x202A: "a left-to-right embedding", 0x202B: "a right-to-left embedding",
        0x202C: "a pop directional formatting",
        0x202D: "a left-to-right override", 0x202E: "a right-to-left override", 0x2066: "a left-to-right isolate",
        0x2067: "a right-to-left isolate", 0x2068: "a first strong isolate", 0x2069: "a pop directional isolate",
    ]

    private static let invisible: [UInt32: String] = [
        0x00AD: "a soft hyphen", 0x200B: "a zero-width space", 0x200C: "a zero-width non-joiner",
        0x200D: "a zero-width joiner",
        0x2060: "a word joiner", 0xFEFF: "a zero-width no-break space (byte order mark)",
    ]
}
