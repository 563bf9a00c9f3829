/// A column that does not hold what the store's schema puts there: NULL where a value belongs,
/// or a value of another kind (text in an integer column, bytes that are not the JSON the column
/// keeps). Only a damaged or hand-edited database holds one; the storage names the table it
/// came from and the database's file, and the user reads what to do.
public struct SQLRowError: Error, Sendable, Hashable {
    /// The column as the result names it.
    public let column: String
    /// What the store reads there: "an integer", "text", "JSON of a retention message".
    public let expected: String
    /// What the column holds instead: "NULL", "text", "an integer".
    public let found: String
    /// Where the value was read from, when the storage knows it.
    public var origin: Origin?
    /// The statement that read it.
    public var sql: String?

    /// A table and a column of it.
    public struct Origin: Sendable, Hashable {
        public let table: String
        public let column: String

        public init(table: String, column: String) {
            self.table = table
            self.column = column
        }
    }

    public init(column: String, expected: String, found: String) {
        self.column = column
        self.expected = expected
        self.found = found
    }

    /// "table transactions, column quantity holds text, not an integer".
    public var detail: String {
        let place =
            origin.map { "table \($0.table), column \($0.column)" }
            ?? "column \(column)\(sql.map { " of `\($0.prefix(120))`" } ?? "")"
        return "\(place) holds \(found), not \(expected)"
    }
}

extension SQLValue {
    /// The kind of value, as a message names it.
    public var kindInWords: String {
        switch self {
        case .null: "NULL"
        case .integer: "an integer"
        case .real: "a real number"
        case .text: "text"
        case .blob: "bytes (a BLOB)"
        }
    }
}

extension SQLValue {
    /// The value itself, short, for a message about a value that means nothing to the store.
    public var shown: String {
        switch self {
        case .null: "NULL"
        case .integer(let value): "\(value)"
        case .real(let value): "\(value)"
        case .text(let text): "\"" + (text.count > 40 ? text.prefix(40) + "…" : text) + "\""
        case .blob: kindInWords
        }
    }
}
