import Foundation
import TestSupport
import Testing

/// A state file that is emptied, foreign or damaged is refused with the file and what to do, and
/// nothing is changed; before, an emptied one was silently replaced by a new, empty store (with new
/// signing keys) or ledger (with every delivery forgotten).
@Suite struct DamagedStateTests {
    static let gems = "com.example.storefront.gems.100"

    /// A state directory with one purchase delivered.
    func bought() throws -> StateDir {
        let state = try StateDir()
        try #require(try state.buy(Self.gems).status == 0)
        return state
    }

    func expectRefused(
        _ result: CommandRun, file: String, saying words: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.status == 1, "\(result)", sourceLocation: sourceLocation)
        #expect(
            result.stderr.contains(file) && result.stderr.contains(words), "\(result.stderr)",
            sourceLocation: sourceLocation)
        #expect(
            result.stderr.contains("storefront reset --state") && result.stderr.contains("Nothing was changed"),
            "\(result.stderr)",
            sourceLocation: sourceLocation)
    }

    func size(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? -1
    }

    @Test func anEmptiedLedgerIsRefusedNotForgotten() throws {
        let state = try bought()
        try Data().write(to: URL(fileURLWithPath: state.appDatabase))
        expectRefused(try state.run(["wallet"]), file: state.appDatabase, saying: "is empty (0 bytes)")
        expectRefused(try state.run(["buy", Self.gems]), file: state.appDatabase, saying: "is empty (0 bytes)")
        #expect(size(state.appDatabase) == 0)
    }

    @Test func anEmptiedStoreIsRefusedNotReplaced() throws {
        let state = try bought()
        try Data().write(to: URL(fileURLWithPath: state.storeDatabase))
        expectRefused(try state.run(["transactions"]), file: state.storeDatabase, saying: "is empty (0 bytes)")
        #expect(size(state.storeDatabase) == 0)
    }

    @Test func aFileThatIsNotSQLiteIsRefused() throws {
        let state = try bought()
        try Data("not a database at all".utf8).write(to: URL(fileURLWithPath: state.storeDatabase))
        expectRefused(
            try state.run(["wallet"]), file: state.storeDatabase,
            saying: "it is not a SQLite file (it starts with \"not a database a\")")
    }

    @Test func anotherProgramsSQLiteFileIsRefused() throws {
        let state = try bought()
        try FileManager.default.removeItem(atPath: state.appDatabase)
        _ = try Python.run(
            "import sqlite3, sys; db = sqlite3.connect(sys.argv[1]); db.execute('CREATE TABLE notes (text)'); db.commit()",
            arguments: [state.appDatabase])
        expectRefused(
            try state.run(["wallet"]), file: state.appDatabase,
            saying: "a SQLite file of another program (tables notes)")
        #expect(
            try state.query(state.appDatabase, "SELECT name FROM sqlite_master").map { $0["name"] as? String } == [
                "notes"
            ])
    }

    @Test func aDamagedPageIsRefused() throws {
        let state = try bought()
        _ = try Python.run(
            """
            import sys
            with open(sys.argv[1], "r+b") as f:
                f.seek(4096 * 2)
                f.write(b"\\xff" * 4096)
            """, arguments: [state.storeDatabase])
        expectRefused(try state.run(["wallet"]), file: state.storeDatabase, saying: "is damaged")
    }

    @Test func resetAsksThenStartsAnew() throws {
        let state = try bought()
        try Data().write(to: URL(fileURLWithPath: state.appDatabase))
        let asked = try state.run(["reset"])
        #expect(asked.status == 2 && asked.stderr.contains("add --yes"), "\(asked)")
        #expect(size(state.storeDatabase) > 0)
        let reset = try state.run(["reset", "--yes"])
        #expect(reset.status == 0 && reset.stdout.contains("deleted store.sqlite, app.sqlite"), "\(reset)")
        #expect(try state.buy(Self.gems).status == 0)
        #expect(try state.wallet().balances == ["gems": 100])
    }

    /// A running server keeps its store open: reset refuses, naming it, and deletes nothing; once
    /// the server is gone, reset goes ahead.
    @Test func resetRefusesWhileAServerUsesTheStore() throws {
        let root = scratchDirectory("reset-served")
        let db = root.appendingPathComponent("db")
        let server = try ServeProcess.start(db: db)
        let refused = try Executable.run(["reset", "--db", db.path, "--yes"])
        #expect(refused.status == 1, "\(refused)")
        #expect(refused.stderr.contains("is in use by pid \(server.process.processIdentifier)"), "\(refused.stderr)")
        #expect(refused.stderr.contains("serve --port"), "the holder's command line: \(refused.stderr)")
        #expect(size(db.appendingPathComponent("store.sqlite").path) > 0)
        server.stop()
        let reset = try Executable.run(["reset", "--db", db.path, "--yes"])
        #expect(reset.status == 0 && reset.stdout.contains("deleted store.sqlite"), "\(reset)")
    }

    /// The same for any process with the store or the ledger open: here, this test's own.
    @Test func resetRefusesWhileAnyProcessHasTheStoreOpen() throws {
        let state = try bought()
        let open = try StoreFixture(directory: URL(fileURLWithPath: state.path))
        let refused = try state.run(["reset", "--yes"])
        #expect(refused.status == 1 && refused.stderr.contains("is in use by pid \(getpid())"), "\(refused)")
        #expect(try state.wallet().balances == ["gems": 100])
        withExtendedLifetime(open) {}
    }

    /// A new database is made under a temporary name and renamed into place, so one left behind by
    /// a crash is replaced, never opened.
    @Test func aHalfMadeDatabaseIsMadeAgain() throws {
        let state = try StateDir()
        try FileManager.default.createDirectory(atPath: state.path, withIntermediateDirectories: true)
        try Data("half written".utf8).write(to: URL(fileURLWithPath: state.storeDatabase + ".new"))
        #expect(try state.buy(Self.gems).status == 0)
        #expect(!FileManager.default.fileExists(atPath: state.storeDatabase + ".new"))
    }

    /// An index that lost entries reads as sound page by page; a server checks every index against
    /// its table before it serves.
    @Test func aServerRefusesAStoreWhoseIndexLostEntries() throws {
        let state = try bought()
        _ = try Python.run(
            """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("CREATE INDEX partial ON transactions(account, finished) WHERE seq < 0")
            root = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'partial'").fetchone()[0]
            db.execute("PRAGMA writable_schema = ON")
            db.execute("UPDATE sqlite_master SET rootpage = ? WHERE name = 'transactions_account'", (root,))
            db.execute("DELETE FROM sqlite_master WHERE name = 'partial'")
            db.commit()
            """, arguments: [state.storeDatabase])
        let served = try Executable.run([
            "serve", "--db", state.path, "--port", "0", "--admin-token", "damaged-index-token",
        ])
        #expect(served.status == 1, "\(served.stderr)")
        #expect(served.stderr.contains("\(state.storeDatabase) (the store database) is damaged"), "\(served.stderr)")
        #expect(served.stderr.contains("storefront reset --db"), "\(served.stderr)")
    }

    /// A value of the wrong kind where the store reads it: the command refuses the file in one
    /// line naming the table and the column, instead of trapping.
    @Test func aWrongKindOfValueIsRefusedByTableAndColumn() throws {
        let state = try bought()
        _ = try Python.run(
            """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("UPDATE transactions SET quantity = 'many'")
            db.commit()
            """, arguments: [state.storeDatabase])
        for command in [["transactions"], ["wallet"], ["buy", Self.gems]] {
            let result = try state.run(command)
            expectRefused(
                result, file: state.storeDatabase,
                saying: "table transactions, column quantity holds text, not an integer")
            #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
        }
    }

    /// A server looks at every value of every table before it serves: one in a table only the
    /// server reads is refused at the start, not when a route meets it.
    @Test func aServerRefusesAWrongKindInAnyTable() throws {
        let state = try bought()
        _ = try Python.run(
            """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("INSERT INTO retention_performance_tests (id, target, started_at) VALUES ('t', 'u', 'soon')")
            db.commit()
            """, arguments: [state.storeDatabase])
        let served = try Executable.run([
            "serve", "--db", state.path, "--port", "0", "--admin-token", "wrong-kind-token",
        ])
        #expect(served.status == 1, "\(served.stderr)")
        #expect(
            served.stderr.contains(
                "\(state.storeDatabase) (the store database) is damaged: table retention_performance_tests, column started_at holds text, not a number"
            ), "\(served.stderr)")
    }
}
