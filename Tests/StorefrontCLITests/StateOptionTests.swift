import Foundation
import TestSupport
import Testing

/// Options that name where state lives and who may administer it: empty values are usage errors
/// rather than a fall-back to a default, loose permissions on files that hold keys are made
/// private (and said), and an admin token is a real secret, possibly read from a file.
@Suite struct StateOptionTests {
    static let catalog = Executable.repositoryRoot.appendingPathComponent("products.json").path

    func serve(_ arguments: [String], in directory: URL) throws -> Executable.Result {
        try Executable.run(["serve", "--port", "0", "--catalog", Self.catalog] + arguments, directory: directory)
    }

    @Test func anEmptyDatabaseDirectoryIsAUsageErrorAndWritesNothing() throws {
        let here = scratchDirectory("empty-db")
        try FileManager.default.createDirectory(at: here, withIntermediateDirectories: true)
        let result = try serve(["--db", "", "--admin-token", "long-enough-token"], in: here)
        #expect(result.status == 2)
        #expect(result.stderr.contains("--db needs a directory"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: here.path).isEmpty)
    }

    @Test func anEmptyStateIsAUsageError() throws {
        let home = scratchDirectory("empty-state")
        let result = try Executable.run(["wallet", "--state", ""], environment: ["STOREFRONT_HOME": home.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--state needs a directory"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home.path))
    }

    @Test(arguments: ["        ", "short", "has space1", "tab\tinside"])
    func aTokenThatIsNoSecretIsRefused(token: String) throws {
        let here = scratchDirectory("token")
        try FileManager.default.createDirectory(at: here, withIntermediateDirectories: true)
        let result = try serve(["--db", here.appendingPathComponent("db").path, "--admin-token", token], in: here)
        #expect(result.status == 2)
        #expect(
            result.stderr.contains("an admin token needs at least 8 characters, no spaces or control characters"),
            "\(result.stderr)")
    }

    @Test func theTokenCanComeFromAFile() async throws {
        let root = scratchDirectory("token-file")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let file = root.appendingPathComponent("token")
        try Data("from-a-file-0123\n".utf8).write(to: file)
        let server = try ServeProcess.start(
            db: root.appendingPathComponent("db"), arguments: ["--admin-token-file", file.path])
        defer { server.stop() }
        let refused = try await HTTP.send(
            "GET", server.baseURL + "/admin/transactions", headers: ["Authorization": "Bearer wrong-token-000"])
        #expect(refused.status == 401)
        let allowed = try await HTTP.send(
            "GET", server.baseURL + "/admin/transactions", headers: ["Authorization": "Bearer from-a-file-0123"])
        #expect(allowed.status == 200)
        #expect(!server.stdout.contains("from-a-file-0123"), "a given token is never printed")
    }

    @Test func looseStatePermissionsAreMadePrivateAndSaid() throws {
        let state = try StateDir()
        try #require(try state.buy("com.example.storefront.gems.100").status == 0)
        chmod(state.path, 0o777)
        chmod(state.storeDatabase, 0o644)
        let result = try state.run(["wallet"])
        #expect(result.status == 0)
        #expect(
            result.stderr.contains(
                "storefront: note: \(state.storeDatabase) was readable by others (mode 644); made 600"),
            "\(result.stderr)")
        #expect(result.stderr.contains("\(state.path) was readable by others (mode 777); made 700"), "\(result.stderr)")
        #expect(StatePermissionTests.mode(state.storeDatabase) == 0o600)
        #expect(StatePermissionTests.mode(state.path) == 0o700)
        #expect(!(try state.run(["wallet"])).stderr.contains("note:"), "said once")
    }
}
