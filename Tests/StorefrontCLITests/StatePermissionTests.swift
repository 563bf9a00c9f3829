import Foundation
import TestSupport
import Testing

/// State directories are 0700 and every file in them 0600 (the databases, their -wal and -shm
/// files, the lock file), whatever the umask of whoever started the program: the store holds
/// receipts and signing keys. Each test runs the binary under umask 000 and checks with stat.
@Suite struct StatePermissionTests {
    /// The permission bits of `path` (nil when it does not exist).
    static func mode(_ path: String) -> Int? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return nil }
        return (attributes[.posixPermissions] as? NSNumber)?.intValue
    }

    /// Every entry of `directory`: files must be 0600, the directory itself 0700.
    static func expectOwnerOnly(_ directory: String, sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
        #expect(
            mode(directory) == 0o700, "\(directory) is \(String(mode(directory) ?? -1, radix: 8))",
            sourceLocation: sourceLocation)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for name in names {
            let path = directory + "/" + name
            #expect(
                mode(path) == 0o600, "\(path) is \(String(mode(path) ?? -1, radix: 8))", sourceLocation: sourceLocation)
        }
        return names
    }

    /// Runs `storefront ARGUMENTS` under `umask 000`.
    static func runUnderOpenUmask(_ arguments: [String], environment: [String: String] = [:]) throws -> Int32 {
        try SpawnedProcess.run(
            executable: "/bin/sh",
            arguments: ["-c", "umask 000 && exec \"$0\" \"$@\"", Executable.url.path] + arguments,
            environment: ProcessInfo.processInfo.environment.merging(environment) { _, new in new },
            directory: Executable.repositoryRoot
        ).status
    }

    /// The server's --db directory while it runs, after purchases: the SQLite files of both
    /// databases, with their write-ahead logs and shared-memory files, are the owner's only.
    @Test func theServersFilesAreOwnerOnlyWhileItRuns() async throws {
        let root = scratchDirectory("storefront-perm")
        let db = root.appendingPathComponent("nested/db")
        let server = try ServeProcess.start(db: db, umask: "000")
        defer { server.stop() }
        let body = #"{"account":"alice","productId":"com.example.storefront.gems.100"}"#
        for _ in 0..<3 {
            let paid = try await HTTP.json(
                "POST", server.baseURL + "/v1/payments", body, headers: ["Idempotency-Key": UUID().uuidString])
            #expect(paid.status == 201)
        }
        _ = try await HTTP.send("GET", server.baseURL + "/v1/accounts/alice/updates?after=0&wait=5")
        let names = Self.expectOwnerOnly(db.path)
        for expected in ["store.sqlite", "store.sqlite-wal", "store.sqlite-shm"] {
            #expect(names.contains(expected), "\(expected) is missing: \(names.sorted())")
        }
    }

    /// Without --db the server keeps its state in `$STOREFRONT_HOME/server`: both directories it
    /// creates are 0700, since the first is also the client's state directory.
    @Test func theDefaultServerDirectoryAndItsParentAreOwnerOnly() async throws {
        let root = scratchDirectory("storefront-perm")
        let home = root.appendingPathComponent("home")
        let server = try ServeProcess.start(
            db: root.appendingPathComponent("unused"), environment: ["STOREFRONT_HOME": home.path],
            umask: "000", defaultDB: true)
        defer { server.stop() }
        #expect(try await HTTP.send("GET", server.baseURL + "/v1/health").status == 200)
        #expect(Self.mode(home.path) == 0o700, "\(home.path) is \(String(Self.mode(home.path) ?? -1, radix: 8))")
        _ = Self.expectOwnerOnly(home.appendingPathComponent("server").path)
    }

    /// The client's state directory after a purchase and a restore (store.sqlite, app.sqlite, the lock).
    @Test func theClientsStateDirectoryIsOwnerOnly() throws {
        let state = scratchDirectory("storefront-perm").appendingPathComponent("a/b/state").path
        #expect(try Self.runUnderOpenUmask(["buy", "com.example.storefront.removeads", "--state", state]) == 0)
        #expect(try Self.runUnderOpenUmask(["restore", "--state", state]) == 0)
        let names = Self.expectOwnerOnly(state)
        #expect(names.contains("store.sqlite") && names.contains("app.sqlite"), "\(names.sorted())")
    }
}
