import Foundation
import StoreCore
import StoreSQL

/// `storefront reset --db postgres://…`: drops a Storefront store's own tables, and nothing else,
/// only while no server runs on it.
extension PostgresStorage {
    /// Drops the store's `tables`, the record of its migrations and its servers' presence, in one
    /// transaction, holding the presence lock exclusively throughout so no server starts meanwhile.
    /// Refused while a server holds the lock or touched its presence lately, when the database
    /// holds no Storefront store (its migrations table and identity), and when another object
    /// depends on one of the tables (nothing is dropped then). Returns the tables dropped.
    public static func reset(_ place: PostgresLocation, tables: [String]) throws -> [String] {
        let storage = try PostgresStorage(place, migrations: [], poolSize: 1, use: .reset)
        defer { storage.close() }
        return try storage.connections.with { connection in
            let session = PostgresSession(connection)
            let locked = try Int.fetchOne(
                session, sql: "SELECT CASE WHEN pg_try_advisory_lock(\(ServerPresence.lock)) THEN 1 ELSE 0 END")
            guard locked == 1 else { throw inUse(place, servers: try runningServers(session)) }
            defer { try? session.command("SELECT pg_advisory_unlock(\(ServerPresence.lock))") }
            let recent = try recentlySeen(session)
            guard recent.isEmpty else { throw inUse(place, servers: recent) }
            guard try holdsStore(place, session) else { return [] }
            return try drop(tables + [migrationsTable, ServerPresence.table], place, session)
        }
    }

    /// Servers with the presence lock, as `pg_stat_activity` names their clients.
    private static func runningServers(_ db: any SQLDatabase) throws -> [String] {
        try SQLRow.fetchAll(
            db,
            sql: """
                SELECT COALESCE(host(a.client_addr), 'a local socket') AS client, a.pid::bigint AS pid
                FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
                WHERE l.locktype = 'advisory' AND l.classid = 0 AND l.objid = \(ServerPresence.lock) AND l.objsubid = 1
                  AND l.granted AND l.pid <> pg_backend_pid()
                ORDER BY a.pid
                """
        ).map { "a server connected from \(try $0["client"] as String) (backend \(try $0["pid"] as Int64))" }
    }

    /// Servers whose presence row was touched within its lifetime: running, though perhaps not
    /// connected this moment.
    private static func recentlySeen(_ db: any SQLDatabase) throws -> [String] {
        guard try String.fetchOne(db, sql: "SELECT to_regclass('\(ServerPresence.table)')::text") != nil else {
            return []
        }
        return try SQLRow.fetchAll(
            db,
            sql: """
                SELECT host, pid, EXTRACT(EPOCH FROM clock_timestamp() - seen_at)::float8 AS age
                FROM \(ServerPresence.table)
                WHERE seen_at > clock_timestamp() - interval '\(ServerPresence.lifetimeSeconds) seconds'
                ORDER BY host, pid
                """
        ).map { row in
            let age = max(0, try row["age"] as Double)
            return
                "the server on \(try row["host"] as String) (pid \(try row["pid"] as Int64)), seen \(String(format: "%.1f", age)) s ago"
        }
    }

    private static func inUse(_ place: PostgresLocation, servers: [String]) -> StoreFailure {
        let named = servers.isEmpty ? "a storefront server" : servers.joined(separator: "; ")
        return StoreFailure(
            "\(place.description) is in use by \(named): stop the servers on it first, then reset. A server killed without stopping counts as running for \(ServerPresence.lifetimeSeconds) s after its last sign of life."
        )
    }

    /// Whether the database holds a Storefront store (false: no tables at all); refuses one
    /// whose tables are not a store's: tables of the same names there are someone else's.
    private static func holdsStore(_ place: PostgresLocation, _ db: any SQLDatabase) throws -> Bool {
        let migrations = try String.fetchOne(db, sql: "SELECT to_regclass('\(migrationsTable)')::text")
        let settings = try String.fetchOne(db, sql: "SELECT to_regclass('settings')::text")
        let identity =
            migrations != nil && settings != nil
            ? try String.fetchOne(db, sql: "SELECT value FROM settings WHERE key = 'store_id'") : nil
        guard migrations != nil, identity != nil else {
            let present = try String.fetchAll(
                db, sql: "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename")
            if present.isEmpty { return false }
            throw StoreFailure(
                "\(place.description) holds no Storefront store (no \(migrations == nil ? "\(migrationsTable) table" : "store identity in its settings table")), though it has tables (\(present.prefix(5).joined(separator: ", "))\(present.count > 5 ? ", …" : "")): they are not Storefront's, and nothing was dropped. Check the URL's database (and search_path)."
            )
        }
        return true
    }

    /// Drops the tables of `names` that exist, without CASCADE, all or none.
    private static func drop(_ names: [String], _ place: PostgresLocation, _ db: PostgresSession) throws -> [String] {
        let present = try String.fetchAll(
            db, sql: "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
        ).filter(names.contains).sorted()
        try db.command("BEGIN")
        do {
            try db.command("SELECT pg_advisory_xact_lock(\(writeLock))")
            for table in present { try db.command("DROP TABLE \(PostgresFailure.quoted(table))") }
            try db.command("COMMIT")
        } catch let failure as StoreFailure {
            try? db.command("ROLLBACK")
            throw StoreFailure(
                "nothing was dropped from \(place.description): \(failure.message). Another object (a view, a foreign key of a table not Storefront's) depends on the store's tables: drop it or move it to another database first."
            )
        }
        return present
    }
}
