import Foundation
import TestSupport
import Testing

/// One server per --db. Two servers on one store each left the other's in-flight purchases in
/// `purchasing` (each completes only orphans of dead processes, and the other was alive); the
/// second is now refused, and the directory is free again once the first has gone, however.
@Suite struct ServeExclusiveTests {
    @Test func aSecondServerOnTheSameDatabaseIsRefusedUntilTheFirstIsGone() throws {
        let db = scratchDirectory("exclusive").appendingPathComponent("server")
        let first = try ServeProcess.start(db: db, arguments: ["--admin-token", "exclusive-token-0123"])
        let second = try Executable.run([
            "serve", "--db", db.path, "--port", "0", "--admin-token", "exclusive-token-0123",
            "--catalog", Executable.repositoryRoot.appendingPathComponent("products.json").path,
        ])
        #expect(second.status == 1)
        #expect(
            second.stderr.contains(
                "another storefront serve (pid \(first.process.processIdentifier)) is using --db \(db.path)"),
            "\(second.stderr)")
        // SIGKILL: no chance to clean up; the kernel drops the lock with the process.
        #expect(first.signal(SIGKILL))
        let third = try ServeProcess.start(db: db, arguments: ["--admin-token", "exclusive-token-0123"])
        third.stop()
    }

    /// A copy of a served database (a backup restored beside it, a second server started from a
    /// copy) is the same store: a second server on it would issue the first's ids again.
    @Test func aServerOnACopyOfAServedStoreIsRefused() throws {
        let root = scratchDirectory("copied")
        let db = root.appendingPathComponent("server")
        let first = try ServeProcess.start(db: db, arguments: ["--admin-token", "exclusive-token-0123"])
        defer { first.stop() }
        let copy = root.appendingPathComponent("copy")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        _ = try Python.run(
            """
            import sqlite3, sys
            source = sqlite3.connect(sys.argv[1])
            target = sqlite3.connect(sys.argv[2])
            source.backup(target)
            """,
            arguments: [
                db.appendingPathComponent("store.sqlite").path, copy.appendingPathComponent("store.sqlite").path,
            ])
        // Whatever the second one's temporary and runtime directories.
        let elsewhere = root.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let second = try Executable.run(
            [
                "serve", "--db", copy.path, "--port", "0", "--admin-token", "exclusive-token-0123",
                "--catalog", Executable.repositoryRoot.appendingPathComponent("products.json").path,
            ], environment: ["TMPDIR": elsewhere.path, "XDG_RUNTIME_DIR": elsewhere.path])
        #expect(second.status == 1, "\(second)")
        #expect(
            second.stderr.contains(
                "is served already by another storefront serve (pid \(first.process.processIdentifier))"),
            "\(second.stderr)")
    }
}
