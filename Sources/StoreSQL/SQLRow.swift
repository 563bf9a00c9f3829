/// The names of a result's columns, shared by its rows.
public final class SQLColumns: Sendable {
    public let names: [String]
    /// The statement whose result these are, for messages.
    public let sql: String
    private let positions: [String: Int]

    public init(_ names: [String], sql: String = "") {
        self.names = names
        self.sql = sql
        var positions: [String: Int] = [:]
        for (index, name) in names.enumerated() where positions[name] == nil {
            positions[name] = index
            positions[name.lowercased()] = positions[name.lowercased()] ?? index
        }
        self.positions = positions
    }

    public func position(of name: String) -> Int? {
        positions[name] ?? positions[name.lowercased()]
    }
}

/// One row of a result, read by position (cheapest: the store's wide rows are read that way) or
/// by column name. A typed read throws `SQLRowError` when the column holds another kind of value
/// (or NULL, read as a non-optional): a damaged database is refused by name, never trusted.
public struct SQLRow: Sendable {
    public let columns: SQLColumns
    public let values: [SQLValue]

    public init(columns: SQLColumns, values: [SQLValue]) {
        self.columns = columns
        self.values = values
    }

    public var count: Int { values.count }

    public subscript(position: Int) -> SQLValue {
        position < values.count ? values[position] : .null
    }

    public subscript(name: String) -> SQLValue {
        columns.position(of: name).map { values[$0] } ?? .null
    }

    /// The value at `position`: nil for NULL; a value of another kind throws `SQLRowError`.
    public subscript<T: SQLValueConvertible>(position: Int) -> T? {
        get throws(SQLRowError) { try optional(self[position], name(of: position)) }
    }

    public subscript<T: SQLValueConvertible>(name: String) -> T? {
        get throws(SQLRowError) { try optional(self[name], name) }
    }

    /// The value at `position`: NULL or a value of another kind throws `SQLRowError`.
    public subscript<T: SQLValueConvertible>(position: Int) -> T {
        get throws(SQLRowError) { try required(self[position], name(of: position)) }
    }

    public subscript<T: SQLValueConvertible>(name: String) -> T {
        get throws(SQLRowError) { try required(self[name], name) }
    }

    /// A column's JSON decoded by `decode`; NULL, or text that is not `what`, throws `SQLRowError`.
    public func json<T>(_ name: String, as what: String, _ decode: (String) throws -> T) throws(SQLRowError) -> T {
        let text: String = try self[name]
        return try decoded(text, name, what, decode)
    }

    /// `json` for a column that may hold NULL.
    public func jsonIfPresent<T>(_ name: String, as what: String, _ decode: (String) throws -> T)
        throws(SQLRowError) -> T?
    {
        guard let text: String = try self[name] else { return nil }
        return try decoded(text, name, what, decode)
    }

    private func decoded<T>(_ text: String, _ name: String, _ what: String, _ decode: (String) throws -> T)
        throws(SQLRowError) -> T
    {
        do {
            return try decode(text)
        } catch {
            throw self.error(name, expected: what, described: "text that is not one")
        }
    }

    /// The value at `position` made by `make` (an enum's raw value, a decimal's text); a value
    /// `make` refuses throws `SQLRowError` naming `what` was expected.
    public func parsed<Raw: SQLValueConvertible, T>(_ position: Int, as what: String, _ make: (Raw) -> T?)
        throws(SQLRowError) -> T
    {
        let raw: Raw = try self[position]
        guard let value = make(raw) else {
            throw error(name(of: position), expected: what, shown: self[position])
        }
        return value
    }

    /// `parsed` for a column that may hold NULL.
    public func parsedIfPresent<Raw: SQLValueConvertible, T>(_ position: Int, as what: String, _ make: (Raw) -> T?)
        throws(SQLRowError) -> T?
    {
        guard let raw: Raw = try self[position] else { return nil }
        guard let value = make(raw) else {
            throw error(name(of: position), expected: what, shown: self[position])
        }
        return value
    }

    /// `parsed` by column name.
    public func parsed<Raw: SQLValueConvertible, T>(_ name: String, as what: String, _ make: (Raw) -> T?)
        throws(SQLRowError) -> T
    {
        guard let position = columns.position(of: name) else {
            throw error(name, expected: what, found: .null)
        }
        return try parsed(position, as: what, make)
    }

    /// `parsedIfPresent` by column name.
    public func parsedIfPresent<Raw: SQLValueConvertible, T>(_ name: String, as what: String, _ make: (Raw) -> T?)
        throws(SQLRowError) -> T?
    {
        guard let position = columns.position(of: name) else { return nil }
        return try parsedIfPresent(position, as: what, make)
    }

    private func error(_ column: String, expected: String, found value: SQLValue) -> SQLRowError {
        error(column, expected: expected, described: value.kindInWords)
    }

    private func error(_ column: String, expected: String, shown value: SQLValue) -> SQLRowError {
        error(column, expected: expected, described: value.shown)
    }

    private func error(_ column: String, expected: String, described: String) -> SQLRowError {
        var error = SQLRowError(column: column, expected: expected, found: described)
        error.sql = columns.sql
        return error
    }

    private func name(of position: Int) -> String {
        position < columns.names.count ? columns.names[position] : "#\(position)"
    }

    private func optional<T: SQLValueConvertible>(_ value: SQLValue, _ column: String) throws(SQLRowError) -> T? {
        if value.isNull { return nil }
        guard let converted = T(sqlValue: value) else {
            throw error(column, expected: T.kindInWords, found: value)
        }
        return converted
    }

    private func required<T: SQLValueConvertible>(_ value: SQLValue, _ column: String) throws(SQLRowError) -> T {
        guard let converted = T(sqlValue: value) else {
            throw error(column, expected: T.kindInWords, found: value)
        }
        return converted
    }
}
