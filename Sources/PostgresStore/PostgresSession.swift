import Foundation
import Logging
import NIOCore
import PostgresNIO
import StoreCore
import StoreSQL

/// The engine's `SQLDatabase` over one PostgreSQL connection, for the length of a read or write.
/// Runs on a thread of the storage's own pool, never on an event loop or the concurrency pool:
/// each statement waits for its answer there.
final class PostgresSession: SQLDatabase {
    let connection: PooledConnection
    private(set) var changesCount = 0
    private(set) var afterCommitActions: [@Sendable () -> Void] = []

    init(_ connection: PooledConnection) {
        self.connection = connection
    }

    var dialect: SQLDialect { .postgres }

    func prepare(_ sql: String, cached: Bool) throws -> SQLStatement {
        SQLStatement(sql: sql, database: self, handle: connection.numbered(sql, cached: cached))
    }

    func execute(_ statement: SQLStatement, _ arguments: SQLArguments) throws {
        let result = try run(statement, arguments)
        changesCount = result.metadata.rows ?? 0
    }

    func fetch(_ statement: SQLStatement, _ arguments: SQLArguments, _ each: (SQLRow) throws -> Bool) throws {
        let result = try run(statement, arguments)
        changesCount = result.metadata.rows ?? 0
        var columns: SQLColumns?
        for row in result.rows {
            let names = columns ?? SQLColumns(row.map(\.columnName), sql: statement.sql)
            columns = names
            guard try each(SQLRow(columns: names, values: try row.map(Self.value))) else { return }
        }
    }

    /// Statement by statement: postgres-nio speaks the extended protocol, one statement a message.
    func executeScript(_ sql: String) throws {
        for statement in Placeholders.statements(of: sql) {
            try command(statement)
        }
    }

    func afterCommit(_ action: @escaping @Sendable () -> Void) {
        afterCommitActions.append(action)
    }

    /// Runs plain SQL of the storage's own (BEGIN, COMMIT, locks).
    func command(_ sql: String) throws {
        _ = try connection.query(PostgresQuery(unsafeSQL: sql), sql: sql)
    }

    private func run(_ statement: SQLStatement, _ arguments: SQLArguments) throws -> PostgresQueryResult {
        let numbered = statement.handle as? NumberedSQL ?? connection.numbered(statement.sql, cached: false)
        var binds = PostgresBindings(capacity: arguments.values.count)
        for value in arguments.values {
            switch value {
            case .null: binds.appendNull()
            case .integer(let integer): binds.append(integer)
            case .real(let real): binds.append(real)
            case .text(let text): binds.append(text)
            case .blob(let data): binds.append(ByteBuffer(bytes: data))
            }
        }
        return try connection.query(PostgresQuery(unsafeSQL: numbered.text, binds: binds), sql: statement.sql)
    }

    /// A cell as one of SQLite's storage classes, which is what the engine reads.
    static func value(_ cell: PostgresCell) throws -> SQLValue {
        guard cell.bytes != nil else { return .null }
        switch cell.dataType {
        case .int2, .int4, .int8, .oid: return .integer(try cell.decode(Int64.self))
        case .float4, .float8: return .real(try cell.decode(Double.self))
        case .numeric:
            let text = try cell.decode(String.self)
            return Int64(text).map(SQLValue.integer) ?? .real(Double(text) ?? 0)
        case .bool: return .integer(try cell.decode(Bool.self) ? 1 : 0)
        case .bytea:
            var buffer = try cell.decode(ByteBuffer.self)
            return .blob(Data(buffer.readBytes(length: buffer.readableBytes) ?? []))
        default: return .text(try cell.decode(String.self))
        }
    }
}

/// SQL with PostgreSQL's `$N` placeholders, made once per text and connection.
final class NumberedSQL {
    let text: String

    init(_ text: String) {
        self.text = text
    }
}
