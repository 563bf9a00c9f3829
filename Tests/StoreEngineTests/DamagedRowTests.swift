import Foundation
import GRDB
import LocalState
import SQLiteStore
import StoreCore
import TestSupport
import Testing

/// A value of the wrong kind in any column of any table of `store.sqlite` (text where an integer
/// belongs, bytes where text does) is refused when a server opens the store, in one line that
/// names the file, the table and the column and says what to do; nothing traps.
@Suite(.disabled(if: StoreFixture.onPostgres, "damages the SQLite file under the store"))
struct DamagedRowTests {
    struct Column {
        let table: String
        let name: String
        let type: String
        let notNull: Bool
        /// SQLite's rowid under another name: it holds integers only, SQLite refuses anything else.
        let isRowid: Bool
    }

    @Test func aWrongKindInAnyColumnOfAnyTableIsRefusedByName() throws {
        let (columns, template) = try Self.columns()
        #expect(columns.count > 150, "every column of the schema: \(columns.count)")
        for column in columns where !column.isRowid {
            // A copy of a new store, closed (so whole in its file): no migration per column.
            let directory = scratchDirectory("wrong-kind")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let path = directory.appendingPathComponent("store.sqlite").path
            try FileManager.default.copyItem(atPath: template, toPath: path)
            try DatabaseQueue(path: path).write { db in
                try Self.insertRow(damaging: column, columns.filter { $0.table == column.table }, db)
            }
            do {
                _ = try SQLiteStorage.store(in: StateDirectory(url: directory), thorough: true)
                Issue.record("\(column.table).\(column.name): a wrong kind was not refused")
            } catch let failure as StoreFailure {
                let message = failure.message
                #expect(
                    message.contains(
                        "\(path) (the store database) is damaged: table \(column.table), column \(column.name) holds"),
                    "\(message)")
                #expect(message.contains("storefront reset --state"), "\(message)")
                #expect(!message.contains("\n"), "one line: \(message)")
            }
        }
    }

    /// Every column of the store's schema as a new store has it, and the new store's file.
    static func columns() throws -> ([Column], String) {
        let directory = scratchDirectory("schema-columns")
        _ = try SQLiteStorage.store(in: StateDirectory(url: directory))
        let path = directory.appendingPathComponent("store.sqlite").path
        let columns = try DatabaseQueue(path: path).read { db in
            let tables = try String.fetchAll(
                db,
                sql: """
                    SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
                    AND name != 'grdb_migrations' ORDER BY name
                    """)
            return try tables.flatMap { table in
                let rows = try Row.fetchAll(db, sql: "SELECT * FROM pragma_table_info(?)", arguments: [table])
                let keys = rows.filter { ($0["pk"] as Int) > 0 }.count
                return rows.map { row in
                    let type: String = row["type"]
                    return Column(
                        table: table, name: row["name"], type: type.uppercased(), notNull: row["notnull"] as Int == 1,
                        isRowid: type.uppercased() == "INTEGER" && row["pk"] as Int > 0 && keys == 1)
                }
            }
        }
        return (columns, path)
    }

    /// One row of `column`'s table: every other column NOT NULL gets a value of its kind, and
    /// `column` one of another kind.
    static func insertRow(damaging column: Column, _ all: [Column], _ db: Database) throws {
        let filled = all.filter { $0.name == column.name || $0.notNull }
        let values = filled.map { each -> String in
            each.name == column.name ? wrongKind(for: each.type) : rightKind(for: each.type)
        }
        try db.execute(
            sql: """
                INSERT INTO "\(column.table)" (\(filled.map { "\"\($0.name)\"" }.joined(separator: ", ")))
                VALUES (\(values.joined(separator: ", ")))
                """)
    }

    static func rightKind(for type: String) -> String {
        switch type {
        case "INTEGER": "1"
        case "REAL": "1.5"
        case "BLOB": "X'00'"
        default: "'x'"
        }
    }

    static func wrongKind(for type: String) -> String {
        switch type {
        case "INTEGER", "REAL": "'not a number'"
        case "BLOB": "'text, not bytes'"
        default: "X'FF00'"
        }
    }
}
