import CellGrid
import Foundation
import JSONReading
import Testing

@testable import StoreKitModel

/// Catalog text holds only what every terminal shows as written: bidirectional controls and
/// invisible format characters are refused where they are, with what to do; joiners where
/// writing needs them are not. The rule is the one `TerminalText` applies to output.
@Suite struct CatalogTextRuleTests {
    /// Decodes `bytes`, requires a problem at `path` and returns its message.
    static func message(_ bytes: [UInt8], at path: String, sourceLocation: Testing.SourceLocation = #_sourceLocation)
        throws -> String
    {
        let error = try #require(catalogError(bytes), "the catalog decoded", sourceLocation: sourceLocation)
        return try #require(
            error.problem(at: path), "no problem at \(path) in:\n\(error)", sourceLocation: sourceLocation
        ).message
    }

    static func title(_ english: String) -> [UInt8] {
        SampleCatalog.mutatingProduct(1) { $0["title"] = ["en": english, "zh-Hans": "移除广告"] }
    }

    @Test(
        arguments: [
            (0x202E, "a right-to-left override (U+202E)"), (0x202D, "a left-to-right override (U+202D)"),
            (0x202A, "a left-to-right embedding (U+202A)"), (0x202B, "a right-to-left embedding (U+202B)"),
            (0x202C, "a pop directional formatting (U+202C)"), (0x2066, "a left-to-right isolate (U+2066)"),
            (0x2067, "a right-to-left isolate (U+2067)"), (0x2068, "a first strong isolate (U+2068)"),
            (0x2069, "a pop directional isolate (U+2069)"), (0x200E, "a left-to-right mark (U+200E)"),
            (0x200F, "a right-to-left mark (U+200F)"), (0x061C, "an Arabic letter mark (U+061C)"),
        ] as [(UInt32, String)])
    func aBidirectionalControlInATitleIsRefused(_ value: UInt32, _ name: String) throws {
        let text = "Remove \(Unicode.Scalar(value)!)Ads"
        let found = try Self.message(Self.title(text), at: "products[1].title.en")
        #expect(
            found.hasPrefix(
                "\"Remove \\u{\(String(value, radix: 16, uppercase: true))}Ads\" contains \(name) at character 8; "),
            "\(found)")
        #expect(
            found.hasSuffix(
                "text must not contain bidirectional controls, which reorder what a terminal shows; remove it"),
            "\(found)")
        #expect(TerminalText.isPrintable(found))
    }

    @Test(
        arguments: [
            (0x200B, "a zero-width space (U+200B)"), (0x2060, "a word joiner (U+2060)"),
            (0x00AD, "a soft hyphen (U+00AD)"),
            (0xFEFF, "a zero-width no-break space (byte order mark) (U+FEFF)"),
            (0x2062, "the invisible formatting character U+2062"),
            (0xE0001, "the invisible formatting character U+E0001"),
        ] as [(UInt32, String)])
    func anInvisibleCharacterInADescriptionIsRefused(_ value: UInt32, _ name: String) throws {
        let bytes = SampleCatalog.mutatingProduct(1) {
            $0["description"] = ["en": "Removes\nall\(Unicode.Scalar(value)!) ads.", "zh-Hans": "移除所有广告。"]
        }
        let found = try Self.message(bytes, at: "products[1].description.en")
        #expect(
            found.contains("contains \(name) at character 12; text must not contain invisible formatting characters"),
            "\(found)")
    }

    @Test func joinersOutsideTheWritingThatNeedsThemAreRefused() throws {
        #expect(
            try Self.message(Self.title("Ge\u{200D}ms"), at: "products[1].title.en")
                .hasSuffix(
                    "contains a zero-width joiner (U+200D) at character 2; a zero-width joiner is accepted only inside an emoji or after a virama; remove it"
                ))
        #expect(
            try Self.message(Self.title("Ge\u{200C}ms"), at: "products[1].title.en")
                .contains("a zero-width non-joiner is accepted only after a virama or in Arabic-script text"))
        #expect(
            try Self.message(Self.title("Flag \u{E0067}\u{E0062}"), at: "products[1].title.en")
                .contains("tag characters are accepted only in an emoji flag after 🏴"))
    }

    /// Emoji sequences, Persian with its non-joiner, Indic conjuncts with a joiner, the flag of Scotland.
    @Test(arguments: [
        "👨‍👩‍👧 Family Pack", "🏳️‍🌈 Pride", "اشتراک می\u{200C}خواهم", "क्\u{200D}ष Pack", "🏴󠁧󠁢󠁳󠁣󠁴󠁿 Scotland", "e\u{301}té",
    ])
    func writingThatNeedsAFormatCharacterIsAccepted(_ text: String) throws {
        #expect(catalogError(Self.title(text)) == nil)
        #expect(
            catalogError(SampleCatalog.mutatingProduct(1) { $0["description"] = ["en": text, "zh-Hans": "移除所有广告。"] })
                == nil)
    }

    @Test func everyLanguageIsChecked() throws {
        let bytes = SampleCatalog.mutatingProduct(1) {
            $0["title"] = ["en": "Remove Ads", "zh-Hans": "移除\u{202E}广告", "fr": "Sans\u{200B}pub"]
        }
        let error = try #require(catalogError(bytes))
        #expect(Set(error.problems.map(\.path)) == ["products[1].title.zh-Hans", "products[1].title.fr"])
    }

    /// A value in any message shows these characters escaped, as the terminal output does.
    @Test func quotedValuesShowFormatCharactersEscaped() throws {
        let found = try Self.message(
            SampleCatalog.mutatingProduct(1) { $0["id"] = "a\u{202E}b\u{1B}c" }, at: "products[1].id")
        #expect(found.hasPrefix(#""a\u{202E}b\u{1B}c""#), "\(found)")
    }

    /// Every control, format character and separator of this Swift's Unicode data, between two
    /// letters of a title: refused by the whole check, the quick pass over the bytes included.
    @Test func everyUnprintableScalarInATitleIsRefused() {
        let unprintable = (UInt32(0)...0x10FFFF).compactMap(Unicode.Scalar.init).filter { scalar in
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator: true
            default: false
            }
        }
        #expect(unprintable.count > 200)
        let accepted = unprintable.filter { catalogError(Self.title("a\($0)a")) == nil }
        #expect(accepted.isEmpty, "accepted: \(accepted.map { String($0.value, radix: 16) })")
    }

    /// The catalog refuses, in text of one line, exactly what `TerminalText` would not show raw:
    /// every scalar between two letters, and the scalars whose neighbours matter next to each
    /// kind of neighbour.
    @Test func theCatalogRuleIsTerminalTextsRule() {
        func refused(_ text: String) -> Bool {
            var scan = UnprintableScan()
            return text.unicodeScalars.contains { scan.isUnprintable($0) }
        }
        var differ: [String] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = "a\(scalar)a"
            if refused(text) == TerminalText.isPrintable(text) { differ.append(String(value, radix: 16)) }
        }
        let contextual: [Unicode.Scalar] = ["\u{200C}", "\u{200D}", "\u{E0041}", "\u{E007F}"]
        for before in ["", "a", "💎", "\u{FE0F}", "क्", "ی", "🏴", "🏴\u{E0067}", "🏴\u{E007F}", "1"] {
            for scalar in contextual
            where refused("\(before)\(scalar)") == TerminalText.isPrintable("\(before)\(scalar)") {
                differ.append("\(before.debugDescription) + \(String(scalar.value, radix: 16))")
            }
        }
        #expect(differ.isEmpty, "differ for \(differ.prefix(20))")
    }
}
