import Foundation
import StoreCore
import StoreSQL
import TestSupport
import Testing

@testable import PostgresStore

/// `sslmode` against a real server: `.ci/postgres` starts one with TLS on and a self-signed
/// certificate (`ssl_cert_file`), which is also its root.
@Suite(.enabled(if: StoreFixture.onPostgres, "needs STOREFRONT_TEST_POSTGRES, as the conformance pass of .ci/run sets"))
struct PostgresTLSTests {
    /// A certificate authority that signed nothing of the test server's.
    static let otherRoot = """
        -----BEGIN CERTIFICATE-----
        MIIBnzCCAUWgAwIBAgIUMCKY7xU5VxvJULhXVUoobvO1i6IwCgYIKoZIzj0EAwIw
        JDEiMCAGA1UEAwwZbm90IHRoZSB0ZXN0IGNsdXN0ZXIncyBDQTAgFw0yNjExMjgy
        MzIxNDJaGA8yMTI2MTEwNDIzMjE0MlowJDEiMCAGA1UEAwwZbm90IHRoZSB0ZXN0
        IGNsdXN0ZXIncyBDQTBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABJj8mCUuakBQ
        mvszBe3rZepUfPnI5WnRBw9V1Ymjj+idXCe8RzGAwR5FHU7Bh7dg8A8Q/y5k08tm
        g/8G9OZxWi+jUzBRMB0GA1UdDgQWBBRx8Vasorx4ReBXqvPSmoJP7M/GNTAfBgNV
        HSMEGDAWgBRx8Vasorx4ReBXqvPSmoJP7M/GNTAPBgNVHRMBAf8EBTADAQH/MAoG
        CCqGSM49BAMCA0gAMEUCIQCmPJ/GUbGqYZgsz0UOkCpyev1Uvfn3PTPuu6vMLia9
        JwIgIBzogf0r0Ni6a17G1ms+DTYXrM1geBtDm2obHl1D2YI=
        -----END CERTIFICATE-----

        """

    /// The test server's URL with `parameters` added, and a password it does not need (it trusts
    /// local users) that no message may show.
    static func url(_ parameters: String, host: String? = nil) throws -> String {
        let base = try #require(StoreFixture.testPostgres)
        var url = base.replacing("postgres://postgres@", with: "postgres://postgres:Hunter2Secret@")
        if let host { url = url.replacing("@127.0.0.1:", with: "@\(host):") }
        return url + (url.contains("?") ? "&" : "?") + parameters
    }

    /// A schema of its own for each storage: tests that create one at once would collide.
    static func schema() -> String { "tls_test_" + UUID().uuidString.prefix(8).lowercased() }

    /// Whether the storage's connection is encrypted, as the server sees it.
    static func encrypted(_ url: String) throws -> Bool {
        let storage = try PostgresStorage(PostgresLocation(url), migrations: [], poolSize: 1, schema: schema())
        defer { storage.close() }
        // What `/v1/health` and every message of the storage show.
        #expect(!storage.location.contains("Hunter2Secret"))
        return try storage.writeNow { db in
            try Int.fetchOne(db, sql: "SELECT CAST(ssl AS INTEGER) FROM pg_stat_ssl WHERE pid = pg_backend_pid()")
        } == 1
    }

    /// The server's certificate, which signs itself.
    static func serverRoot() throws -> String {
        let storage = try PostgresStorage(
            PostgresLocation(url("sslmode=disable")), migrations: [], poolSize: 1, schema: schema())
        defer { storage.close() }
        let file = try storage.writeNow { db in try String.fetchOne(db, sql: "SELECT current_setting('ssl_cert_file')")
        }
        return try #require(file, "the server has no ssl_cert_file: start it with .ci/postgres, which turns TLS on")
    }

    @Test func requireEncryptsAndDisableDoesNot() throws {
        #expect(try Self.encrypted(Self.url("sslmode=require")))
        #expect(try !Self.encrypted(Self.url("sslmode=disable")))
        #expect(try Self.encrypted(Self.url("sslmode=prefer")))
    }

    @Test func verifyFullWithTheServersRootConnects() throws {
        let root = try Self.serverRoot()
        #expect(try Self.encrypted(Self.url("sslmode=verify-full&sslrootcert=\(root)")))
        #expect(try Self.encrypted(Self.url("sslmode=verify-full&sslrootcert=\(root)", host: "localhost")))
        #expect(try Self.encrypted(Self.url("sslmode=verify-ca&sslrootcert=\(root)")))
    }

    @Test(arguments: ["verify-full", "verify-ca", "require"])
    func anotherRootIsRefusedReadably(mode: String) throws {
        let file = scratchDirectory("tls-root").appendingPathComponent("other.pem")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(Self.otherRoot.utf8).write(to: file)
        #expect {
            _ = try Self.encrypted(Self.url("sslmode=\(mode)&sslrootcert=\(file.path)"))
        } throws: { error in
            let message = "\(error)"
            return message.contains("cannot connect to PostgreSQL at postgres://postgres@127.0.0.1:")
                && message.contains("the TLS handshake failed (CERTIFICATE_VERIFY_FAILED)")
                && message.contains("Check that sslrootcert names the certificate authority")
                && !message.contains("Hunter2Secret")
        }
    }
}

/// The TLS each `sslmode` makes, without a server.
@Suite struct PostgresTLSConfigurationTests {
    @Test func eachSSLModeMakesItsTLS() throws {
        let disable = try PostgresLocation("postgres://s@db/x?sslmode=disable").tls()
        #expect(!disable.isAllowed)
        let prefer = try PostgresLocation("postgres://s@db/x").tls()
        #expect(prefer.isAllowed && !prefer.isEnforced)
        let require = try PostgresLocation("postgres://s@db/x?sslmode=require").tls()
        #expect(require.isEnforced)
        let system = try PostgresLocation("postgres://s@db/x?sslmode=verify-full&sslrootcert=system").tls()
        #expect(system.isEnforced)
        let socket = try PostgresLocation("postgres://s@/x?host=/run/pg").connectionConfiguration()
        #expect(!socket.tls.isAllowed)
    }

    @Test(arguments: [
        ("verify-full", "", "needs the certificates that sign the server's: add sslrootcert=FILE"),
        ("verify-ca", "&sslrootcert=/nonexistent/ca.pem", "sslrootcert /nonexistent/ca.pem is no readable file"),
        ("require", "&sslrootcert=/etc/hostname", "holds no PEM certificate"),
    ])
    func aVerifyingModeWithoutRootsIsRefused(mode: String, root: String, problem: String) {
        #expect {
            _ = try PostgresLocation("postgres://s:Hunter2Secret@db/x?sslmode=\(mode)\(root)").tls()
        } throws: { error in
            "\(error)".contains(problem) && !"\(error)".contains("Hunter2Secret")
        }
    }
}
