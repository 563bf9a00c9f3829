import Foundation
import GRDB
import LocalState
import StoreCore
import StoreSQL

/// A store's tables in one SQLite file of a state directory: WAL, every commit synced before it
/// is reported (`DurablePool`), writes grouped into shared commits under load (`GroupCommit`),
/// reads on snapshots beside the writer. Processes on the same directory share it safely.
public struct SQLiteStorage: StoreStorage {
    package let pool: DatabasePool
    /// Held while the file is open, so `storefront reset` refuses to delete it meanwhile.
    package let inUse: StateInUse
    package let writer: GroupCommit
    let kind: DatabaseKind
    let state: StateDirectory

    /// `name` in `state`, created and migrated if need be, refused with what to do when it is not
    /// a database of `kind`. `thorough`: check every index against its table before use.
    package init(
        file name: String, kind: DatabaseKind, migrations: [SchemaMigration], state: StateDirectory, lock: String,
        thorough: Bool
    ) throws {
        self.kind = kind
        self.state = state
        inUse = try StateInUse(sharing: state)
        pool = try DurablePool.open(
            name, kind: kind, migrator: Self.migrator(migrations), state: state, lock: lock, thorough: thorough)
        writer = GroupCommit(pool: pool)
    }

    public var location: String { pool.path }
    public var dialect: SQLDialect { .sqlite }
    public var health: StorageHealth { writer.health }

    public func read<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) throws -> T) async throws -> T {
        do {
            return try await pool.guardedRead { db in try body(GRDBConnection(db)) }
        } catch let error as SQLRowError {
            throw damaged(error)
        }
    }

    public func write<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) throws -> T) async throws -> T {
        do {
            return try await writer.write { db, memo in try body(GRDBConnection(db, memo: memo)) }
        } catch let error as SQLRowError {
            throw damaged(error)
        }
    }

    public func writeNow<T>(_ body: (any SQLDatabase) throws -> T) throws -> T {
        do {
            return try pool.write { db in try body(GRDBConnection(db)) }
        } catch let error as SQLRowError {
            throw damaged(error)
        }
    }

    /// A value of the wrong kind read from the file: the file refused by name, with the table
    /// and column that hold it and what to do. Nothing was written: the read or write that met it
    /// rolled back.
    func damaged(_ error: SQLRowError) -> StoreFailure {
        var located = error
        if located.origin == nil, let sql = error.sql, let table = try? table(of: error.column, in: sql) {
            located.origin = SQLRowError.Origin(table: table, column: error.column)
        }
        return DurablePool.damaged(pool.path, kind: kind, state: state, detail: located.detail)
    }

    /// The table, among those `sql` reads, that has a column named `column`.
    private func table(of column: String, in sql: String) throws -> String? {
        let words = sql.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "_" }).map(String.init)
        let named = zip(words, words.dropFirst()).filter { ["FROM", "JOIN"].contains($0.0.uppercased()) }.map(\.1)
        return try pool.read { db in
            try named.first { table in
                try Bool.fetchOne(
                    db, sql: "SELECT 1 FROM pragma_table_info(?) WHERE name = ?", arguments: [table, column]) == true
            }
        }
    }

    /// GRDB's migrator over the schema's history: it records each step it applies in the file.
    static func migrator(_ migrations: [SchemaMigration]) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for migration in migrations {
            migrator.registerMigration(migration.name) { db in try migration.apply(GRDBConnection(db)) }
        }
        return migrator
    }
}
