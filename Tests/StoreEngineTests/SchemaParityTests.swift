import Foundation
import LocalState
import PostgresStore
import SQLiteStore
import StoreSQL
import TestSupport
import Testing

/// The store's schema has two histories, SQLite's (`SQLiteStorage.storeMigrations`) and
/// PostgreSQL's (`PostgresStorage.storeMigrations`). Migrated from nothing, both make the same
/// tables: the same columns with corresponding types and NOT NULL, the same primary keys and
/// unique constraints, the same indexes. Runs in the conformance pass, which has a server.
@Suite(.enabled(if: StoreFixture.onPostgres, "needs STOREFRONT_TEST_POSTGRES, as the conformance pass of .ci/run sets"))
struct SchemaParityTests {
    struct Column: Hashable, CustomStringConvertible {
        let name: String
        /// SQLite's storage class: integer, real, text or blob.
        let type: String
        let notNull: Bool

        var description: String { "\(name) \(type)\(notNull ? " NOT NULL" : "")" }
    }

    struct Index: Hashable, CustomStringConvertible {
        let name: String
        let columns: [String]
        let unique: Bool

        var description: String { "\(unique ? "UNIQUE " : "")\(name)(\(columns.joined(separator: ", ")))" }
    }

    struct Table: Hashable {
        var columns: [Column] = []
        var primaryKey: [String] = []
        var uniques: Set<[String]> = []
        var indexes: Set<Index> = []
    }

    @Test func bothHistoriesMakeTheSameTables() async throws {
        let sqlite = try await Self.sqliteTables()
        let postgres = try await Self.postgresTables()
        #expect(sqlite.keys.sorted() == postgres.keys.sorted(), "the same tables")
        for name in sqlite.keys.sorted() {
            guard let lite = sqlite[name], let pg = postgres[name] else { continue }
            #expect(lite.columns == pg.columns, "columns of \(name)")
            #expect(lite.primaryKey == pg.primaryKey, "primary key of \(name)")
            #expect(lite.uniques == pg.uniques, "unique constraints of \(name)")
            #expect(lite.indexes == pg.indexes, "indexes of \(name)")
        }
        #expect(sqlite["transactions"]?.columns.count ?? 0 > 40, "the comparison read the tables")
    }

    @Test func neitherHistoryOrdersByAnImplicitColumn() async throws {
        for (name, table) in try await Self.postgresTables() {
            #expect(!table.columns.map(\.name).contains("rowid"), "\(name) has a column standing in for SQLite's rowid")
        }
    }

    static func sqliteTables() async throws -> [String: Table] {
        let storage = try SQLiteStorage.store(in: StateDirectory(url: scratchDirectory("schema-parity")))
        return try await storage.read { db in
            let names = try String.fetchAll(
                db,
                sql: """
                    SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
                    AND name != 'grdb_migrations' ORDER BY name
                    """)
            var tables: [String: Table] = [:]
            for name in names {
                var table = Table()
                var keyed: [(Int, String)] = []
                for row in try SQLRow.fetchAll(
                    db, sql: "SELECT name, type, \"notnull\", pk FROM pragma_table_info(?)", arguments: [name])
                {
                    let (column, type, notNull, key): (String, String, Int, Int) =
                        (try row[0], try row[1], try row[2], try row[3])
                    table.columns.append(
                        Column(name: column, type: type.lowercased(), notNull: notNull == 1 || key > 0))
                    if key > 0 { keyed.append((key, column)) }
                }
                table.columns.sort { $0.name < $1.name }
                table.primaryKey = keyed.sorted { $0.0 < $1.0 }.map(\.1)
                for row in try SQLRow.fetchAll(
                    db, sql: "SELECT name, \"unique\", origin FROM pragma_index_list(?)", arguments: [name])
                {
                    let (index, unique, origin): (String, Int, String) = (try row[0], try row[1], try row[2])
                    let columns = try String.fetchAll(
                        db, sql: "SELECT name FROM pragma_index_info(?) ORDER BY seqno", arguments: [index])
                    switch origin {
                    case "u": table.uniques.insert(columns)
                    case "c": table.indexes.insert(Index(name: index, columns: columns, unique: unique == 1))
                    default: break  // the primary key's own index
                    }
                }
                tables[name] = table
            }
            return tables
        }
    }

    static func postgresTables() async throws -> [String: Table] {
        let url = try #require(StoreFixture.testPostgres)
        let storage = try PostgresStorage(
            PostgresLocation(url), migrations: PostgresStorage.storeMigrations, poolSize: 1,
            schema: "parity_\(UUID().uuidString.prefix(8).lowercased())")
        defer { storage.close() }
        return try await storage.read { db in
            let names = try String.fetchAll(
                db,
                sql: """
                    SELECT table_name::text FROM information_schema.tables WHERE table_schema = current_schema()
                    AND table_type = 'BASE TABLE' AND table_name NOT IN ('storefront_migrations', 'storefront_servers')
                    ORDER BY table_name
                    """)
            var tables: [String: Table] = [:]
            for name in names {
                var table = Table()
                for row in try SQLRow.fetchAll(
                    db,
                    sql: """
                        SELECT column_name::text, data_type::text, is_nullable::text FROM information_schema.columns
                        WHERE table_schema = current_schema() AND table_name = ?
                        """, arguments: [name])
                {
                    let (column, type, nullable): (String, String, String) = (try row[0], try row[1], try row[2])
                    table.columns.append(Column(name: column, type: Self.storageClass(type), notNull: nullable == "NO"))
                }
                table.columns.sort { $0.name < $1.name }
                let relation = "to_regclass(quote_ident(current_schema()) || '.' || quote_ident(?))"
                for row in try SQLRow.fetchAll(
                    db,
                    sql: """
                        SELECT c.contype::text, array_to_string(ARRAY(SELECT a.attname::text FROM unnest(c.conkey)
                            WITH ORDINALITY k(n, o) JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n
                            ORDER BY k.o), ',')
                        FROM pg_constraint c WHERE c.conrelid = \(relation) AND c.contype IN ('p', 'u')
                        """, arguments: [name])
                {
                    let (kind, columns): (String, String) = (try row[0], try row[1])
                    let list = columns.split(separator: ",").map(String.init)
                    if kind == "p" { table.primaryKey = list } else { table.uniques.insert(list) }
                }
                for row in try SQLRow.fetchAll(
                    db,
                    sql: """
                        SELECT i.relname::text, CASE WHEN x.indisunique THEN 1 ELSE 0 END,
                            array_to_string(ARRAY(SELECT a.attname::text FROM unnest(x.indkey::int2[])
                            WITH ORDINALITY k(n, o) JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.n
                            ORDER BY k.o), ',')
                        FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
                        WHERE x.indrelid = \(relation)
                            AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)
                        """, arguments: [name])
                {
                    let (index, unique, columns): (String, Int, String) = (try row[0], try row[1], try row[2])
                    table.indexes.insert(
                        Index(name: index, columns: columns.split(separator: ",").map(String.init), unique: unique == 1)
                    )
                }
                tables[name] = table
            }
            return tables
        }
    }

    /// The SQLite storage class a PostgreSQL type of the schema stands for.
    static func storageClass(_ type: String) -> String {
        switch type {
        case "bigint", "integer", "smallint": "integer"
        case "double precision", "real": "real"
        case "bytea": "blob"
        case "text": "text"
        default: type
        }
    }
}
