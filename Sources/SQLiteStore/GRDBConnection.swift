import Foundation
import GRDB
import StoreSQL

/// The engine's `SQLDatabase` over one of GRDB's connections, for the length of a read or write.
/// Statements come from GRDB's per-connection cache, so a statement the engine runs again is not
/// compiled again.
final class GRDBConnection: SQLDatabase {
    let db: Database

    init(_ db: Database) {
        self.db = db
    }

    var dialect: SQLDialect { .sqlite }

    func prepare(_ sql: String, cached: Bool) throws -> SQLStatement {
        let statement = cached ? try db.cachedStatement(sql: sql) : try db.makeStatement(sql: sql)
        return SQLStatement(sql: sql, database: self, handle: statement)
    }

    func execute(_ statement: SQLStatement, _ arguments: SQLArguments) throws {
        try grdb(statement).execute(arguments: Self.arguments(arguments))
    }

    func fetch(_ statement: SQLStatement, _ arguments: SQLArguments, _ each: (SQLRow) throws -> Bool) throws {
        let prepared = grdb(statement)
        let cursor = try Row.fetchCursor(prepared, arguments: Self.arguments(arguments))
        let columns = SQLColumns(prepared.columnNames)
        let count = prepared.columnCount
        while let row = try cursor.next() {
            var values: [SQLValue] = []
            values.reserveCapacity(count)
            for index in 0..<count {
                values.append(Self.value(row[index] as DatabaseValue))
            }
            guard try each(SQLRow(columns: columns, values: values)) else { return }
        }
    }

    func executeScript(_ sql: String) throws {
        try db.execute(sql: sql)
    }

    var changesCount: Int { db.changesCount }

    func afterCommit(_ action: @escaping @Sendable () -> Void) {
        db.afterNextTransaction { _ in action() }
    }

    private func grdb(_ statement: SQLStatement) -> Statement {
        // Every statement this connection runs was prepared by it (`prepare`).
        statement.handle as? Statement ?? { preconditionFailure("a statement of another connection") }()
    }

    static func arguments(_ arguments: SQLArguments) -> StatementArguments {
        StatementArguments(
            arguments.values.map { (value: SQLValue) -> DatabaseValue in
                switch value {
                case .null: .null
                case .integer(let integer): integer.databaseValue
                case .real(let real): real.databaseValue
                case .text(let text): text.databaseValue
                case .blob(let data): data.databaseValue
                }
            })
    }

    static func value(_ value: DatabaseValue) -> SQLValue {
        switch value.storage {
        case .null: .null
        case .int64(let integer): .integer(integer)
        case .double(let real): .real(real)
        case .string(let text): .text(text)
        case .blob(let data): .blob(data)
        }
    }
}
