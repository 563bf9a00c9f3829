import GRDB
import SQLiteStore
import StoreEngine

extension StoreDatabase {
    /// The SQLite file's pool, for tests that read, change or damage the file under the engine.
    package var pool: DatabasePool { sqlite.pool }
    /// Its group commit, for tests of what the engine's writes share.
    package var writer: GroupCommit { sqlite.writer }

    private var sqlite: SQLiteStorage {
        guard let sqlite = storage as? SQLiteStorage else { preconditionFailure("this test needs a SQLite store") }
        return sqlite
    }
}
