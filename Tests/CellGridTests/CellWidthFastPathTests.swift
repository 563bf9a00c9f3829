import CellGrid
import SyntheticData
import Testing

/// `CellWidth` measures and cuts ASCII byte by byte and other simple text scalar by scalar; both
/// must agree exactly with the definition, character by character (grapheme clusters), on any
/// text, including scalars that join their neighbours (combining marks, joiners, selectors, CR LF).
@Suite struct CellWidthFastPathTests {
    /// Scalars from every path: ASCII and controls, CR LF, Latin, the UI's symbols, CJK, and the
    /// joiners that force the slow path.
    static let pool: [Unicode.Scalar] = [
        "a", "Z", "7", " ", ".", "\r", "\n", "\t", "\u{7F}", "é", "\u{A0}", "\u{AD}", "·", "—", "…", "⚠", "│", "×", "→",
        "宝", "石", "、", "（", "Ｇ", "\u{301}", "\u{FE0F}", "\u{200D}", "\u{200F}", "💎", "\u{1F1FA}", "\u{1F1F8}", "ᄀ", "ᅡ",
        "\u{0600}",
    ]

    /// The definition: one character at a time.
    static func referenceWidth(_ text: String) -> Int { text.reduce(0) { $0 + CellWidth.of($1) } }

    static func referenceTruncate(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        guard referenceWidth(text) > width else { return text }
        var result = ""
        var used = 0
        for character in text {
            let cells = CellWidth.of(character)
            if used + cells > width - 1 { break }
            result.append(character)
            used += cells
        }
        return result + "…"
    }

    @Test func fastPathsAgreeWithTheCharacterByCharacterDefinition() {
        var random = SplitMix64(state: 7)  // seeded, so a failure names a case that reproduces
        for index in 0..<20_000 {
            // Mostly one family at a time, so the fast paths are taken often, sometimes mixed.
            let family = Int.random(in: 0..<4, using: &random)
            let candidates =
                family == 0 ? Array(Self.pool.prefix(10)) : family == 1 ? Array(Self.pool.prefix(24)) : Self.pool
            var scalars = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0..<24, using: &random) {
                scalars.append(candidates.randomElement(using: &random)!)
            }
            let text = String(scalars)
            #expect(
                CellWidth.of(text) == Self.referenceWidth(text),
                "case \(index): \(text.unicodeScalars.map { String($0.value, radix: 16) })")
            let width = Int.random(in: 0..<20, using: &random)
            #expect(
                CellWidth.truncate(text, to: width) == Self.referenceTruncate(text, to: width),
                "case \(index), width \(width): \(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    @Test func theUIsOwnSymbolsTakeTheScalarPath() {
        #expect(CellWidth.isOneScalarPerCharacter("⚠ invalid product identifiers: a, b · c — d…"))
        #expect(CellWidth.isOneScalarPerCharacter("⚠ 无效的商品 ID：宝石、（月度）"))
        #expect(!CellWidth.isOneScalarPerCharacter("e\u{301}"))
        #expect(!CellWidth.isOneScalarPerCharacter("⚠\u{FE0F}"))
    }
}
