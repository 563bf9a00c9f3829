import Foundation
import GRDB
import StoreCore

/// Which of Storefront's databases a file is meant to be: SQLite's `application_id` marks the
/// file as ours, so an emptied, foreign or damaged file is refused instead of being taken for a
/// new store (with new signing keys) or a new app ledger (with every delivery forgotten).
package struct DatabaseKind: Sendable {
    /// "the store database", "the app ledger", for messages.
    package let description: String
    /// `PRAGMA application_id` of files of this kind.
    package let applicationId: Int32
    /// A table only this kind has: a file made before application ids were set is recognised by it.
    package let signatureTable: String

    package init(description: String, applicationId: Int32, signatureTable: String) {
        self.description = description
        self.applicationId = applicationId
        self.signatureTable = signatureTable
    }
}

/// What is at a database path before it is opened.
enum DatabaseFileState: Equatable {
    case absent
    case empty
    /// Not SQLite: the file's first bytes, for the message.
    case foreign(String)
    case sqlite
}

enum DatabaseFile {
    static let sqliteHeader = Array("SQLite format 3\u{0}".utf8)

    static func state(of path: String) throws -> DatabaseFileState {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return .absent }
            throw StoreFailure(
                "cannot read \(path): \(String(cString: strerror(errno))); check its permissions or pass another directory"
            )
        }
        defer { close(descriptor) }
        var header = [UInt8](repeating: 0, count: sqliteHeader.count)
        let count = read(descriptor, &header, header.count)
        if count == 0 { return .empty }
        guard count == header.count, header == sqliteHeader else {
            let printable = String(decoding: header.prefix(max(0, count)), as: UTF8.self).unicodeScalars
                .map { $0.properties.generalCategory == .control ? "." : String($0) }.joined()
            return .foreign(printable)
        }
        return .sqlite
    }

    /// Makes a new database of `kind` at `path`: written and migrated under a temporary name, then
    /// renamed into place, so a file at `path` is always a whole database (never the empty file a
    /// crash between creating and migrating would leave).
    static func create(at path: String, kind: DatabaseKind, migrator: DatabaseMigrator) throws {
        let temporary = path + ".new"
        unlink(temporary)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw StoreFailure(
                "cannot create \(temporary): \(String(cString: strerror(errno))); pass a writable directory")
        }
        close(descriptor)
        do {
            let queue = try DatabaseQueue(path: temporary)
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA application_id = \(kind.applicationId)")
            }
            try migrator.migrate(queue)
            try queue.close()
        } catch {
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            throw StoreFailure("cannot move \(temporary) to \(path): \(String(cString: strerror(errno)))")
        }
        syncDirectory(of: path)
    }

    /// The rename is durable only once the directory entry is on the disk.
    private static func syncDirectory(of path: String) {
        let directory = open((path as NSString).deletingLastPathComponent, O_RDONLY | O_CLOEXEC)
        guard directory >= 0 else { return }
        fsync(directory)
        close(directory)
    }

    /// Refuses a SQLite file that is not of `kind` or fails SQLite's check; marks a file of `kind`
    /// made before application ids were set. `thorough`: the integrity check, which also compares
    /// every index with its table (0.24 s for 100,000 transactions, against 0.06 s for the quick
    /// check, which reads each page once but misses an index that lost entries).
    static func check(_ db: Database, path: String, kind: DatabaseKind, thorough: Bool, remedy: String) throws {
        let applicationId = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        if applicationId != kind.applicationId {
            let tables = try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            guard applicationId == 0, tables.contains(kind.signatureTable) || tables.isEmpty else {
                let holds = tables.isEmpty ? "no tables" : "tables \(tables.prefix(5).joined(separator: ", "))"
                throw StoreFailure(
                    "\(path) is not \(kind.description) but a SQLite file of another program (\(holds)). Nothing was changed. \(remedy)"
                )
            }
            try db.execute(sql: "PRAGMA application_id = \(kind.applicationId)")
        }
        let problems = try String.fetchAll(db, sql: thorough ? "PRAGMA integrity_check(5)" : "PRAGMA quick_check(5)")
        guard problems == ["ok"] else {
            let lines = problems.flatMap { $0.split(separator: "\n") }.filter { !$0.hasPrefix("***") }
            throw damaged(
                path, kind: kind, detail: "SQLite finds " + lines.prefix(3).joined(separator: "; "), remedy: remedy)
        }
        if thorough, let misfit = try wrongKind(db) {
            throw damaged(path, kind: kind, detail: misfit, remedy: remedy)
        }
    }

    /// The first value, in any table, of another kind than its column's declared type keeps
    /// (text in an INTEGER column, say): SQLite stores what it is given, and a file edited by
    /// hand can hold one the program would only meet when it reads that row. One scan per table.
    static func wrongKind(_ db: Database) throws -> String? {
        let tables = try String.fetchAll(
            db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        for table in tables {
            let columns = try Row.fetchAll(db, sql: "SELECT name, type FROM pragma_table_info(?)", arguments: [table])
                .compactMap { row -> (name: String, kind: ColumnKind)? in
                    let type: String = row["type"]
                    return ColumnKind(declared: type).map { (row["name"], $0) }
                }
            guard !columns.isEmpty else { continue }
            let misfits = columns.map { column in
                let kinds = (column.kind.storedAs + ["null"]).map { "'\($0)'" }.joined(separator: ", ")
                return "typeof(\(quoted(column.name))) NOT IN (\(kinds))"
            }
            let which = misfits.enumerated().map { "WHEN \($1) THEN \($0)" }.joined(separator: " ")
            let sql =
                "SELECT CASE \(which) END FROM \(quoted(table)) WHERE \(misfits.joined(separator: " OR ")) LIMIT 1"
            guard let position = try Int.fetchOne(db, sql: sql) else { continue }
            let column = columns[position]
            let found =
                try String.fetchOne(
                    db,
                    sql: """
                        SELECT typeof(\(quoted(column.name))) FROM \(quoted(table))
                        WHERE \(misfits[position]) LIMIT 1
                        """) ?? "another kind"
            return
                "table \(table), column \(column.name) holds \(ColumnKind.words(typeof: found)), not \(column.kind.words)"
        }
        return nil
    }

    private static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    static func damaged(_ path: String, kind: DatabaseKind, detail: String, remedy: String) -> StoreFailure {
        StoreFailure(
            "\(path) (\(kind.description)) is damaged: \(detail). Nothing was changed; restore it from a backup. \(remedy)"
        )
    }
}

/// What SQLite keeps in a column of a declared type, for the schemas Storefront writes.
enum ColumnKind {
    case integer, real, text, blob

    init?(declared: String) {
        switch declared.uppercased() {
        case "INTEGER": self = .integer
        case "REAL": self = .real
        case "TEXT": self = .text
        case "BLOB": self = .blob
        default: return nil
        }
    }

    /// `typeof` of the values it may hold besides NULL: a REAL column holds whole numbers as integers.
    var storedAs: [String] {
        switch self {
        case .integer: ["integer"]
        case .real: ["real", "integer"]
        case .text: ["text"]
        case .blob: ["blob"]
        }
    }

    var words: String {
        switch self {
        case .integer: "an integer"
        case .real: "a number"
        case .text: "text"
        case .blob: "bytes (a BLOB)"
        }
    }

    /// What SQLite's `typeof` names, as a message says it.
    static func words(typeof kind: String) -> String {
        switch kind {
        case "integer": "an integer"
        case "real": "a real number"
        case "text": "text"
        case "blob": "bytes (a BLOB)"
        default: kind
        }
    }
}
