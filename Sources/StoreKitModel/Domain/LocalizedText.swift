/// Text in several languages, keyed by language tag (`en`, `zh-Hans`, or any other a catalog carries).
///
/// Kept as two arrays in step rather than a dictionary: every product has a title and a
/// description, and a dictionary each (every tag hashed into it) was a large share of loading a
/// catalog of 100,000 products. A text is read in a handful of languages, which a search finds
/// sooner than a hash; texts read in the catalog's own languages share one array of tags, so
/// each allocates only its array of texts.
public struct LocalizedText: Sendable, Hashable, Codable {
    /// Distinct language tags; `texts[i]` is the text in `tags[i]`.
    private let tags: [String]
    private let texts: [String]

    public init(_ values: [String: String]) {
        let sorted = values.sorted { $0.key < $1.key }
        tags = sorted.map(\.key)
        texts = sorted.map(\.value)
    }

    /// `texts[i]` in `tags[i]`; the tags must be distinct.
    init(tags: [String], texts: [String]) {
        self.tags = tags
        self.texts = texts
    }

    /// Every text by its language tag.
    public var values: [String: String] {
        Dictionary(zip(tags, texts), uniquingKeysWith: { first, _ in first })
    }

    /// The text in `language`, else English, else any one (sorted by tag so the choice is stable).
    public func text(in language: Language) -> String {
        text(tag: language.rawValue) ?? text(tag: Language.english.rawValue)
            ?? tags.indices.min { tags[$0] < tags[$1] }.map { texts[$0] }
            ?? ""
    }

    private func text(tag: String) -> String? {
        tags.firstIndex(of: tag).map { texts[$0] }
    }

    /// Equal when they have the same text in the same languages, in whatever order they were written.
    public static func == (lhs: LocalizedText, rhs: LocalizedText) -> Bool {
        if lhs.tags == rhs.tags { return lhs.texts == rhs.texts }
        return lhs.tags.count == rhs.tags.count
            && lhs.tags.indices.allSatisfy { rhs.text(tag: lhs.tags[$0]) == lhs.texts[$0] }
    }

    /// Independent of the order, as `==` is: each pair is hashed alone and the hashes are added up.
    public func hash(into hasher: inout Hasher) {
        var sum = 0
        for index in tags.indices {
            var pair = Hasher()
            pair.combine(tags[index])
            pair.combine(texts[index])
            sum &+= pair.finalize()
        }
        hasher.combine(tags.count)
        hasher.combine(sum)
    }

    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode([String: String].self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(values)
    }
}
