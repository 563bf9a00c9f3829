import GRDB
import StoreCore

/// Opens the state's databases: WAL, the busy timeout of `StateLock`, every commit on the disk
/// before the write returns, and the schema migrated.
package enum DurablePool {
    /// `lock`: the file in the state directory that serialises opening and migrating this
    /// database across processes (see `StateDirectory.withOpenLock`); one per database, so the
    /// store and the ledger open side by side.
    package static func open(path: String, migrator: DatabaseMigrator, state: StateDirectory, lock: String) throws -> DatabasePool {
        try state.withOpenLock(lock) {
            let pool = try DatabasePool(path: path, configuration: StateLock.configuration())
            // GRDB sets WAL databases to `synchronous = NORMAL`, where a commit reaches the disk only
            // at the next checkpoint: after a power cut, a purchase already reported could be gone.
            // FULL syncs the WAL at every commit. The setting is per connection; only the writer writes.
            try pool.writeWithoutTransaction { try $0.execute(sql: "PRAGMA synchronous = FULL") }
            try migrator.migrate(pool)
            return pool
        }
    }
}
