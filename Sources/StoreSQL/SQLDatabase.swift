/// A connection inside one of the store's reads or writes: what the engine's SQL runs on, the
/// same for SQLite and PostgreSQL. Writes are serialised (one writer at a time for the whole
/// store, whichever process it is in), so a write reads what it then changes without a race.
///
/// The SQL the engine writes is the common part of the two dialects; `dialect` supplies the few
/// fragments that differ. Placeholders are `?` (the next parameter) or `?N` (the Nth).
public protocol SQLDatabase: AnyObject {
    var dialect: SQLDialect { get }
    /// A prepared statement; `cached`: kept for the next use of the same SQL on this connection.
    func prepare(_ sql: String, cached: Bool) throws -> SQLStatement
    func execute(_ statement: SQLStatement, _ arguments: SQLArguments) throws
    /// Calls `each` with the result's rows in order until it returns false.
    func fetch(_ statement: SQLStatement, _ arguments: SQLArguments, _ each: (SQLRow) throws -> Bool) throws
    /// Statements separated by semicolons, without parameters (a schema).
    func executeScript(_ sql: String) throws
    /// Rows the last INSERT, UPDATE or DELETE changed.
    var changesCount: Int { get throws }
    /// Runs once the write this connection is in has committed (not if it rolls back).
    func afterCommit(_ action: @escaping @Sendable () -> Void)
    /// Values read in this transaction that later statements of it may use again.
    var memo: TransactionMemo { get }
}

/// A statement prepared on one connection; used inside the read or write that prepared it.
public struct SQLStatement {
    public let sql: String
    public let database: any SQLDatabase
    /// The connection's own prepared form.
    public let handle: AnyObject?

    public init(sql: String, database: any SQLDatabase, handle: AnyObject?) {
        self.sql = sql
        self.database = database
        self.handle = handle
    }

    public func execute(arguments: SQLArguments = []) throws {
        try database.execute(self, arguments)
    }
}

extension SQLDatabase {
    public func cachedStatement(sql: String) throws -> SQLStatement {
        try prepare(sql, cached: true)
    }

    /// One statement with `arguments`, or several separated by semicolons without any.
    public func execute(sql: String, arguments: SQLArguments = []) throws {
        if arguments.isEmpty, sql.contains(";") {
            try executeScript(sql)
        } else {
            try execute(prepare(sql, cached: false), arguments)
        }
    }
}

extension SQLRow {
    public static func fetchAll(_ statement: SQLStatement, arguments: SQLArguments = []) throws -> [SQLRow] {
        var rows: [SQLRow] = []
        try statement.database.fetch(statement, arguments) { row in
            rows.append(row)
            return true
        }
        return rows
    }

    public static func fetchOne(_ statement: SQLStatement, arguments: SQLArguments = []) throws -> SQLRow? {
        var first: SQLRow?
        try statement.database.fetch(statement, arguments) { row in
            first = row
            return false
        }
        return first
    }

    public static func fetchAll(_ db: any SQLDatabase, sql: String, arguments: SQLArguments = []) throws -> [SQLRow] {
        try fetchAll(db.prepare(sql, cached: false), arguments: arguments)
    }

    public static func fetchOne(_ db: any SQLDatabase, sql: String, arguments: SQLArguments = []) throws -> SQLRow? {
        try fetchOne(db.prepare(sql, cached: false), arguments: arguments)
    }
}

/// Single values from the first column, as GRDB reads them: `Int.fetchOne(db, sql: …)`.
extension SQLValueConvertible {
    public static func fetchOne(_ statement: SQLStatement, arguments: SQLArguments = []) throws -> Self? {
        try SQLRow.fetchOne(statement, arguments: arguments).flatMap { row throws(SQLRowError) in try row[0] as Self? }
    }

    public static func fetchAll(_ statement: SQLStatement, arguments: SQLArguments = []) throws -> [Self] {
        var values: [Self] = []
        try statement.database.fetch(statement, arguments) { row in
            if let value: Self = try row[0] { values.append(value) }
            return true
        }
        return values
    }

    public static func fetchOne(_ db: any SQLDatabase, sql: String, arguments: SQLArguments = []) throws -> Self? {
        try fetchOne(db.prepare(sql, cached: false), arguments: arguments)
    }

    public static func fetchAll(_ db: any SQLDatabase, sql: String, arguments: SQLArguments = []) throws -> [Self] {
        try fetchAll(db.prepare(sql, cached: false), arguments: arguments)
    }

    /// Whether any row's first column holds a value for which `match` is true, reading no further.
    public static func first(
        _ statement: SQLStatement, arguments: SQLArguments = [], where match: (Self) throws -> Bool
    ) throws -> Self? {
        var found: Self?
        try statement.database.fetch(statement, arguments) { row in
            guard let value: Self = try row[0], try match(value) else { return true }
            found = value
            return false
        }
        return found
    }
}

extension SQLValueConvertible where Self: Hashable {
    public static func fetchSet(_ db: any SQLDatabase, sql: String, arguments: SQLArguments = []) throws -> Set<Self> {
        Set(try fetchAll(db, sql: sql, arguments: arguments))
    }
}
