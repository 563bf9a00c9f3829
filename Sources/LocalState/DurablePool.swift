import GRDB
import StoreCore

/// Opens the state's databases: WAL, the busy timeout of `StateLock`, every commit on the disk
/// before the write returns, and the schema migrated. A missing file is made; an emptied, foreign
/// or damaged one is refused with what to do (see `DatabaseFile`).
package enum DurablePool {
    /// What to do about a database of the state directory that cannot be used as it is.
    static func remedy(_ state: StateDirectory) -> String {
        "To start anew (what it held is lost): storefront reset \(state.option) \(state.url.path) --yes; or pass another \(state.option)."
    }

    /// A database whose contents are damaged (`detail` says where), with what to do.
    package static func damaged(_ path: String, kind: DatabaseKind, state: StateDirectory, detail: String)
        -> StoreFailure
    {
        DatabaseFile.damaged(path, kind: kind, detail: detail, remedy: remedy(state))
    }

    /// `name`: the file in the state directory. `lock`: the file that serialises opening and
    /// migrating this database across processes (see `StateDirectory.withOpenLock`); one per
    /// database, so the store and the ledger open side by side.
    /// `thorough`: check every index against its table too (a server's start), not only each page.
    package static func open(
        _ name: String, kind: DatabaseKind, migrator: DatabaseMigrator, state: StateDirectory,
        lock: String, thorough: Bool = false
    ) throws -> DatabasePool {
        try state.withOpenLock(lock) {
            let path = try state.filePath(name)
            let remedy = remedy(state)
            switch try DatabaseFile.state(of: path) {
            case .absent:
                try DatabaseFile.create(at: path, kind: kind, migrator: migrator)
            case .empty:
                throw StoreFailure(
                    "\(path) (\(kind.description)) is empty (0 bytes): it was truncated or emptied, and what it held is gone. "
                        + "Nothing was changed; restore it from a backup. \(remedy)")
            case .foreign(let start):
                throw StoreFailure(
                    "\(path) is not \(kind.description): it is not a SQLite file (it starts with \"\(start)\"). Nothing was changed. \(remedy)"
                )
            case .sqlite:
                break
            }
            let pool: DatabasePool
            do {
                pool = try DatabasePool(path: path, configuration: StateLock.configuration())
                // GRDB sets WAL databases to `synchronous = NORMAL`, where a commit reaches the disk only
                // at the next checkpoint: after a power cut, a purchase already reported could be gone.
                // FULL syncs the WAL at every commit. The setting is per connection; only the writer writes.
                try pool.writeWithoutTransaction { db in
                    try db.execute(sql: "PRAGMA synchronous = FULL")
                    try DatabaseFile.check(db, path: path, kind: kind, thorough: thorough, remedy: remedy)
                }
            } catch let error as DatabaseError
                where error.resultCode == .SQLITE_NOTADB || error.resultCode == .SQLITE_CORRUPT
            {
                throw DatabaseFile.damaged(
                    path, kind: kind, detail: error.message ?? "\(error.resultCode)", remedy: remedy)
            }
            try migrator.migrate(pool)
            return pool
        }
    }
}
