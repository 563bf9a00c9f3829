import Foundation
import TestSupport
import Testing

/// `--db` values that read as URLs are PostgreSQL URLs or refused, never a directory named after
/// them, and their password is in no output.
@Suite struct DatabaseURLTests {
    static let catalog = Executable.repositoryRoot.appendingPathComponent("products.json").path
    static let secret = "Hunter2Secret"

    /// Runs `arguments` in a new empty directory, and returns the result and what it left there.
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (
        Executable.Result, [String]
    ) {
        let here = scratchDirectory("db-url")
        try FileManager.default.createDirectory(at: here, withIntermediateDirectories: true)
        let result = try Executable.run(
            arguments,
            environment: ["STOREFRONT_HOME": here.appendingPathComponent("home").path].merging(environment) {
                $1
            }, directory: here)
        let left = try FileManager.default.contentsOfDirectory(atPath: here.path).filter { $0 != "home" }
        return (result, left)
    }

    @Test(arguments: [
        ("Postgres://store:Hunter2Secret@127.0.0.1:1/x?sslmode=bogus", "sslmode=bogus is not an sslmode"),
        ("postgres:/store:Hunter2Secret@db/x", "has no // after postgres:"),
        ("postgresql:/var/lib/store", "has no // after postgresql:"),
        ("mysql://store:Hunter2Secret@db/x", "is a mysql: URL, which is neither a directory nor a PostgreSQL URL"),
        ("postgres://store@db/x?password=Hunter2Secret&application_name=a", "unknown parameter application_name"),
        ("postgres://store:Hunter2Secret@db/x?sslmode=allow", "allow (try without TLS first) is not supported"),
    ])
    func serveRefusesAURLThatIsNoStoreAndMakesNoDirectory(value: String, problem: String) throws {
        for (arguments, environment) in [
            (["--db", value], [String: String]()), ([], ["STOREFRONT_DB": value]),
        ] {
            let (result, left) = try Self.run(
                ["serve", "--port", "0", "--catalog", Self.catalog, "--admin-token", "db-url-token-0123"] + arguments,
                environment: environment)
            #expect(result.status == 2, "\(result.stderr)")
            #expect(result.stderr.contains("--db: ") && result.stderr.contains(problem), "\(result.stderr)")
            #expect(!(result.stdout + result.stderr).contains(Self.secret), "\(result.stderr)")
            #expect(left.isEmpty, "a directory named after the URL: \(left)")
        }
    }

    @Test(arguments: ["Postgres:/store:Hunter2Secret@db/x", "https://store:Hunter2Secret@db/x"])
    func resetRefusesAURLThatIsNoStore(value: String) throws {
        let (result, left) = try Self.run(["reset", "--db", value, "--yes"])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("reset: --db: "), "\(result.stderr)")
        #expect(!(result.stdout + result.stderr).contains(Self.secret), "\(result.stderr)")
        #expect(left.isEmpty)
    }

    @Test func aServerThatCannotBeReachedIsNamedWithoutThePassword() throws {
        let (result, _) = try Self.run([
            "serve", "--port", "0", "--catalog", Self.catalog, "--admin-token", "db-url-token-0123",
            "--db", "POSTGRESQL://store:Hunter2Secret@127.0.0.1:1/x?sslmode=require", "--db-connect-timeout", "2",
        ])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(
            result.stderr.contains("cannot connect to PostgreSQL at postgres://store@127.0.0.1:1/x?sslmode=require"),
            "\(result.stderr)")
        #expect(!(result.stdout + result.stderr).contains(Self.secret), "\(result.stderr)")
    }
}
