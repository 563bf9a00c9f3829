/// The names of a result's columns, shared by its rows.
public final class SQLColumns: Sendable {
    public let names: [String]
    private let positions: [String: Int]

    public init(_ names: [String]) {
        self.names = names
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
/// by column name. A column read as a non-optional value must hold one: the schema says which
/// columns are NOT NULL, and reading NULL from one is a defect of the query, not of the input.
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

    public subscript<T: SQLValueConvertible>(position: Int) -> T? {
        T(sqlValue: self[position])
    }

    public subscript<T: SQLValueConvertible>(name: String) -> T? {
        T(sqlValue: self[name])
    }

    public subscript<T: SQLValueConvertible>(position: Int) -> T {
        required(T(sqlValue: self[position]), "column \(position)")
    }

    public subscript<T: SQLValueConvertible>(name: String) -> T {
        required(T(sqlValue: self[name]), "column \(name)")
    }

    private func required<T>(_ value: T?, _ column: @autoclosure () -> String) -> T {
        guard let value else {
            preconditionFailure(
                "\(column()) holds \(values.count > 0 ? "NULL or another kind" : "nothing"), not \(T.self)")
        }
        return value
    }
}
