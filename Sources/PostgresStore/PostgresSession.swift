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
    let memo = TransactionMemo()
    private var lastChanges = 0
    private(set) var afterCommitActions: [@Sendable () -> Void] = []
    /// Statements sent whose answers nobody has read yet, oldest first (`execute`), each with the
    /// write of a batch that sent it.
    private var pending: [(sql: String, answer: EventLoopFuture<PostgresQueryResult>, job: Int?)] = []
    /// The write of a batch whose statements run now (`WriteBatches`); nil outside a batch.
    var job: Int?

    /// A statement sent without waiting failed: `job` sent it, and its failure is that write's
    /// even when a later write's statement is the one that waits for it.
    struct SentFailure: Error {
        let job: Int
        let error: any Error
    }

    /// Rows the last statement changed, once every statement sent before it has answered.
    var changesCount: Int {
        get throws {
            try flush()
            return lastChanges
        }
    }

    init(_ connection: PooledConnection) {
        self.connection = connection
    }

    var dialect: SQLDialect { .postgres }

    func prepare(_ sql: String, cached: Bool) throws -> SQLStatement {
        SQLStatement(sql: sql, database: self, handle: connection.numbered(sql, cached: cached))
    }

    /// Whether `execute` sends without waiting: inside a write's transaction, whose COMMIT waits
    /// for everything sent before it.
    var pipelined = false

    /// Pipelined, sent without waiting: its failure, if any, is met by the next statement that
    /// reads an answer, by `changesCount`, or by `flush` at the end of the write.
    func execute(_ statement: SQLStatement, _ arguments: SQLArguments) throws {
        pending.append((statement.sql, try connection.send(query(statement, arguments)), job))
        if !pipelined { try flush() }
    }

    /// Waits for every statement sent and not yet answered; the first failure is thrown, as a
    /// `SentFailure` when a write of a batch sent it.
    func flush() throws {
        while !pending.isEmpty {
            let (sql, answer, job) = pending.removeFirst()
            do {
                lastChanges = try connection.answer(to: answer, sql: sql).metadata.rows ?? 0
            } catch {
                // PostgreSQL aborted the transaction: the statements behind it answer only that.
                pending.removeAll()
                guard let job else { throw error }
                throw SentFailure(job: job, error: error)
            }
        }
    }

    /// Forgets the statements sent: the transaction is being rolled back, and the ROLLBACK, sent
    /// after them, is answered after them.
    func discardPending() {
        pending.removeAll()
    }

    func fetch(_ statement: SQLStatement, _ arguments: SQLArguments, _ each: (SQLRow) throws -> Bool) throws {
        try flush()
        let result = try connection.query(query(statement, arguments), sql: statement.sql)
        lastChanges = result.metadata.rows ?? 0
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
        try flush()
        _ = try connection.query(PostgresQuery(unsafeSQL: sql), sql: sql)
    }

    private func query(_ statement: SQLStatement, _ arguments: SQLArguments) -> PostgresQuery {
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
        return PostgresQuery(unsafeSQL: numbered.text, binds: binds)
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
