import JSONReading

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
    /// A download that got no answer (or only 502, 503, 504) until it gave up: the server is
    /// unreachable rather than the catalog wrong.
    public var unreachable = false
    /// How many problems are printed before "… and N more".
    public static let shownLimit = 50

    public init(source: String, problems: [CatalogProblem]) {
        self.source = source
        self.problems = problems
    }

    public init(source: String, message: String) {
        self.init(source: source, problems: [CatalogProblem(path: "", message: message)])
    }

    public var description: String { lines.joined(separator: "\n") }

    /// The message a line at a time: the source and the problem, or the source, the number of
    /// problems and a line for each of the first `shownLimit`.
    public var lines: [String] {
        if problems.count == 1 { return ["\(source): \(problems[0])"] }
        var lines = ["\(source): \(problems.count) problems"]
        lines += problems.prefix(Self.shownLimit).map { "  \($0)" }
        if problems.count > Self.shownLimit {
            lines.append("  … and \(problems.count - Self.shownLimit) more")
        }
        return lines
    }
}

/// A list for a message: the first `limit` items, then how many there are in all (`total`, when
/// `items` holds only the first ones), so a catalog with thousands of storefronts or languages still
/// gets short messages.
func listed(_ items: [String], total: Int? = nil, limit: Int = 10) -> String {
    let total = total ?? items.count
    guard total > limit else { return items.joined(separator: ", ") }
    return items.prefix(limit).joined(separator: ", ") + ", … (\(total) in all)"
}

/// Renders any JSON value briefly, for "found …" in messages.
/// A value as a message shows it: a string quoted and cut short (`quoted`), a number as written,
/// a container by its kind.
public func brief(_ value: JSONValue) -> String {
    switch value {
    case .string(let text): quoted(text)
    case .number(let text): text.utf8.count > 40 ? String(text.prefix(40)) + "…" : text  // numbers are ASCII
    case .bool(let flag): String(flag)
    case .null: "null"
    case .object: "an object"
    case .array(let items): "an array of \(items.count)"
    }
}
