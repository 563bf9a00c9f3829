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

    /// `name` in `state`, created and migrated if need be, refused with what to do when it is not
    /// a database of `kind`. `thorough`: check every index against its table before use.
    package init(
        file name: String, kind: DatabaseKind, migrations: [SchemaMigration], state: StateDirectory, lock: String,
        thorough: Bool
    ) throws {
        inUse = try StateInUse(sharing: state)
        pool = try DurablePool.open(
            name, kind: kind, migrator: Self.migrator(migrations), state: state, lock: lock, thorough: thorough)
        writer = GroupCommit(pool: pool)
    }

    public var location: String { pool.path }
    public var dialect: SQLDialect { .sqlite }
    public var health: StorageHealth { writer.health }

    public func read<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) throws -> T) async throws -> T {
        try await pool.guardedRead { db in try body(GRDBConnection(db)) }
    }

    public func write<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) throws -> T) async throws -> T {
        try await writer.write { db in try body(GRDBConnection(db)) }
    }

    public func writeNow<T>(_ body: (any SQLDatabase) throws -> T) throws -> T {
        try pool.write { db in try body(GRDBConnection(db)) }
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
