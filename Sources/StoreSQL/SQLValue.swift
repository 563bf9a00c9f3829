import Foundation

/// One value as a SQL database holds it: the storage classes SQLite has, which PostgreSQL's
/// columns of the store's schema map onto (BIGINT, DOUBLE PRECISION, TEXT, BYTEA). Booleans are
/// integers 0 and 1 in both, so the same SQL compares them the same way.
public enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

/// A Swift value that is bound to a statement's parameter and read back from a column.
public protocol SQLValueConvertible: Sendable {
    var sqlValue: SQLValue { get }
    /// The value a column holds, or nil when it is NULL or of another kind.
    init?(sqlValue: SQLValue)
    /// What a column read as this type holds, for messages: "an integer", "text".
    static var kindInWords: String { get }
}

extension SQLValue: SQLValueConvertible {
    public var sqlValue: SQLValue { self }
    public init?(sqlValue: SQLValue) { self = sqlValue }
    public static var kindInWords: String { "a value" }
}

extension String: SQLValueConvertible {
    public var sqlValue: SQLValue { .text(self) }
    public init?(sqlValue: SQLValue) {
        switch sqlValue {
        case .text(let text): self = text
        default: return nil
        }
    }
    public static var kindInWords: String { "text" }
}

extension Int64: SQLValueConvertible {
    public var sqlValue: SQLValue { .integer(self) }
    public init?(sqlValue: SQLValue) {
        switch sqlValue {
        case .integer(let value): self = value
        // An aggregate over a REAL column, or a whole number PostgreSQL returns as NUMERIC.
        case .real(let value): self.init(exactly: value)
        default: return nil
        }
    }
    public static var kindInWords: String { "an integer" }
}

extension Int: SQLValueConvertible {
    public var sqlValue: SQLValue { .integer(Int64(self)) }
    public init?(sqlValue: SQLValue) {
        guard let value = Int64(sqlValue: sqlValue) else { return nil }
        self.init(exactly: value)
    }
    public static var kindInWords: String { "an integer" }
}

extension Int32: SQLValueConvertible {
    public var sqlValue: SQLValue { .integer(Int64(self)) }
    public init?(sqlValue: SQLValue) {
        guard let value = Int64(sqlValue: sqlValue) else { return nil }
        self.init(exactly: value)
    }
    public static var kindInWords: String { "an integer" }
}

extension Double: SQLValueConvertible {
    public var sqlValue: SQLValue { .real(self) }
    public init?(sqlValue: SQLValue) {
        switch sqlValue {
        case .real(let value): self = value
        case .integer(let value): self = Double(value)
        default: return nil
        }
    }
    public static var kindInWords: String { "a number" }
}

extension Bool: SQLValueConvertible {
    public var sqlValue: SQLValue { .integer(self ? 1 : 0) }
    public init?(sqlValue: SQLValue) {
        switch sqlValue {
        case .integer(let value): self = value != 0
        case .real(let value): self = value != 0
        default: return nil
        }
    }
    public static var kindInWords: String { "0 or 1" }
}

extension Data: SQLValueConvertible {
    public var sqlValue: SQLValue { .blob(self) }
    public init?(sqlValue: SQLValue) {
        switch sqlValue {
        case .blob(let data): self = data
        default: return nil
        }
    }
    public static var kindInWords: String { "bytes (a BLOB)" }
}
