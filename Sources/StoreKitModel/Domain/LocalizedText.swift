/// Text in several languages, keyed by language tag (`en`, `zh-Hans`, or any other a catalog carries).
public struct LocalizedText: Sendable, Hashable, Codable {
    public let values: [String: String]

    public init(_ values: [String: String]) {
        self.values = values
    }

    /// The text in `language`, else English, else any one (sorted by tag so the choice is stable).
    public func text(in language: Language) -> String {
        values[language.rawValue]
            ?? values[Language.english.rawValue]
            ?? values.sorted(by: { $0.key < $1.key }).first?.value
            ?? ""
    }

    public init(from decoder: any Decoder) throws {
        values = try decoder.singleValueContainer().decode([String: String].self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(values)
    }
}
