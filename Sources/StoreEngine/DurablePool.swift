import GRDB

/// Opens the state's databases: WAL, the busy timeout of `StateLock`, and every commit on the disk
/// before the write returns.
enum DurablePool {
    static func open(path: String) throws -> DatabasePool {
        let pool = try DatabasePool(path: path, configuration: StateLock.configuration())
        // GRDB sets WAL databases to `synchronous = NORMAL`, where a commit reaches the disk only at
        // the next checkpoint: after a power cut, a purchase already reported could be gone. FULL
        // syncs the WAL at every commit. The setting is per connection, and only the writer writes.
        try pool.writeWithoutTransaction { try $0.execute(sql: "PRAGMA synchronous = FULL") }
        return pool
    }
}
