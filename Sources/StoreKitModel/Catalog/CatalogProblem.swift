/// One thing wrong with a catalog: where (a JSON path such as `products[3].prices.JPN`, or a
/// line and column for syntax) and what, including the offending value and what was expected.
public struct CatalogProblem: Sendable, Hashable, CustomStringConvertible {
    public let path: String
    public let message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}

/// Every problem found in one catalog source, reported together.
public struct CatalogError: Error, Sendable, CustomStringConvertible {
    /// The file path or URL the catalog came from.
    public let source: String
    public let problems: [CatalogProblem]
    /// How many problems are printed before "… and N more".
    public static let shownLimit = 50

    public init(source: String, problems: [CatalogProblem]) {
        self.source = source
        self.problems = problems
    }

    public init(source: String, message: String) {
        self.init(source: source, problems: [CatalogProblem(path: "", message: message)])
    }

    public var description: String {
        if problems.count == 1 { return "\(source): \(problems[0])" }
        var lines = ["\(source): \(problems.count) problems"]
        lines += problems.prefix(Self.shownLimit).map { "  \($0)" }
        if problems.count > Self.shownLimit {
            lines.append("  … and \(problems.count - Self.shownLimit) more")
        }
        return lines.joined(separator: "\n")
    }
}

/// Renders a value for a message: quoted, control characters escaped, long text cut short
/// with its length, so a 50 MB string yields a one-line message.
func quoted(_ text: String, limit: Int = 40) -> String {
    var shown = ""
    var count = 0
    for character in text {
        if count == limit { break }
        count += 1
        switch character {
        case "\"": shown += "\\\""
        case "\n": shown += "\\n"
        case "\t": shown += "\\t"
        default:
            if let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1,
               scalar.value < 0x20 || scalar.value == 0x7F {
                shown += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                shown.append(character)
            }
        }
    }
    guard count == limit, text.unicodeScalars.count > limit else { return "\"\(shown)\"" }
    let total = text.utf8.count
    return "\"\(shown)…\" (\(total) bytes)"
}

/// Renders any JSON value briefly, for "found …" in messages.
func brief(_ value: JSONValue) -> String {
    switch value {
    case .string(let text): quoted(text)
    case .number(let text): text.count > 40 ? String(text.prefix(40)) + "…" : text
    case .bool(let flag): String(flag)
    case .null: "null"
    case .object: "an object"
    case .array(let items): "an array of \(items.count)"
    }
}
