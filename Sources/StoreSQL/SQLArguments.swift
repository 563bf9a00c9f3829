/// A statement's parameters, in the order of its placeholders (`?`, or `?N` for the Nth).
public struct SQLArguments: Sendable, Hashable, ExpressibleByArrayLiteral {
    public var values: [SQLValue]

    public init(_ values: [SQLValue] = []) {
        self.values = values
    }

    public init<S: Sequence>(_ values: S) where S.Element == (any SQLValueConvertible)? {
        self.values = values.map { $0?.sqlValue ?? .null }
    }

    public init(arrayLiteral elements: (any SQLValueConvertible)?...) {
        values = elements.map { $0?.sqlValue ?? .null }
    }

    public var isEmpty: Bool { values.isEmpty }

    public mutating func append(_ value: (any SQLValueConvertible)?) {
        values.append(value?.sqlValue ?? .null)
    }

    public mutating func append(contentsOf other: SQLArguments) {
        values += other.values
    }

    public static func += (left: inout SQLArguments, right: SQLArguments) {
        left.values += right.values
    }

    public static func + (left: SQLArguments, right: SQLArguments) -> SQLArguments {
        SQLArguments(left.values + right.values)
    }
}
