import CSQLite
import Foundation
import GRDB
import StoreCore
import StoreSQL

/// The engine's `SQLDatabase` over one of GRDB's connections, for the length of a read or write.
/// Statements come from GRDB's per-connection cache, so a statement the engine runs again is not
/// compiled again.
final class GRDBConnection: SQLDatabase {
    let db: Database
    let memo: TransactionMemo

    /// `memo`: shared by the writes of one transaction; a read's or a lone write's own otherwise.
    init(_ db: Database, memo: TransactionMemo = TransactionMemo()) {
        self.db = db
        self.memo = memo
    }

    var dialect: SQLDialect { .sqlite }

    func prepare(_ sql: String, cached: Bool) throws -> SQLStatement {
        let statement = cached ? try db.cachedStatement(sql: sql) : try db.makeStatement(sql: sql)
        return SQLStatement(sql: sql, database: self, handle: statement)
    }

    func execute(_ statement: SQLStatement, _ arguments: SQLArguments) throws {
        let prepared = try bound(statement, arguments)
        try prepared.execute()
    }

    func fetch(_ statement: SQLStatement, _ arguments: SQLArguments, _ each: (SQLRow) throws -> Bool) throws {
        let prepared = try bound(statement, arguments)
        let cursor = try Row.fetchCursor(prepared)
        let columns = SQLColumns(prepared.columnNames, sql: statement.sql)
        let count = CInt(prepared.columnCount)
        let handle = prepared.sqliteStatement
        while try cursor.next() != nil {
            var values: [SQLValue] = []
            values.reserveCapacity(Int(count))
            for index in 0..<count {
                values.append(Self.column(handle, index))
            }
            do {
                guard try each(SQLRow(columns: columns, values: values)) else { return }
            } catch var error as SQLRowError {
                throw Self.locating(&error, in: handle, columns: columns)
            }
        }
    }

    /// The table and column a misread value came from, as SQLite records them for a result's
    /// columns (the statement is still on the row that was read).
    private static func locating(
        _ error: inout SQLRowError, in handle: OpaquePointer?, columns: SQLColumns
    ) -> SQLRowError {
        if let position = columns.position(of: error.column),
            let table = sqlite3_column_table_name(handle, CInt(position)),
            let column = sqlite3_column_origin_name(handle, CInt(position))
        {
            error.origin = SQLRowError.Origin(table: String(cString: table), column: String(cString: column))
        }
        return error
    }

    /// The statement with `arguments` bound straight through SQLite's C API. GRDB's own
    /// `StatementArguments` built from a sequence is generic across the module boundary and cost
    /// about 2,600 instructions an argument (callgrind, a payment's ~100 arguments).
    private func bound(_ statement: SQLStatement, _ arguments: SQLArguments) throws -> Statement {
        let prepared = grdb(statement)
        guard arguments.values.count == Int(sqlite3_bind_parameter_count(prepared.sqliteStatement)) else {
            throw StoreFailure(
                "the statement takes \(sqlite3_bind_parameter_count(prepared.sqliteStatement)) arguments, not \(arguments.values.count): \(statement.sql)"
            )
        }
        let handle = prepared.sqliteStatement
        // A reset reports the previous step's failure again (SQLite's legacy rule), which that
        // step's caller has had: ignored here, so that GRDB's own reset below finds nothing to
        // report. GRDB then takes the bindings as set, and executes without binding again.
        _ = sqlite3_reset(handle)
        prepared.setUncheckedArguments(StatementArguments())
        for (offset, value) in arguments.values.enumerated() {
            let index = CInt(offset + 1)
            let code: CInt =
                switch value {
                case .null: sqlite3_bind_null(handle, index)
                case .integer(let integer): sqlite3_bind_int64(handle, index, integer)
                case .real(let real): sqlite3_bind_double(handle, index, real)
                case .text(let text): sqlite3_bind_text(handle, index, text, -1, csqlite_transient())
                case .blob(let data):
                    data.withUnsafeBytes {
                        sqlite3_bind_blob(handle, index, $0.baseAddress, CInt($0.count), csqlite_transient())
                    }
                }
            guard code == SQLITE_OK else {
                throw StoreFailure("SQLite could not bind argument \(index) (error \(code)): \(statement.sql)")
            }
        }
        return prepared
    }

    /// The current row's column `index`, read by its storage class.
    private static func column(_ handle: OpaquePointer, _ index: CInt) -> SQLValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, index))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, index))
        case SQLITE_TEXT:
            guard let text = sqlite3_column_text(handle, index) else { return .text("") }
            let count = Int(sqlite3_column_bytes(handle, index))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, index))
            guard let bytes = sqlite3_column_blob(handle, index), count > 0 else { return .blob(Data()) }
            return .blob(Data(bytes: bytes, count: count))
        default: return .null
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
}
