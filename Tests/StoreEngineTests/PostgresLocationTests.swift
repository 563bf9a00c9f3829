import Foundation
import PostgresStore
import StoreCore
import Testing

/// A `--db` URL read as libpq reads one: every case of the scheme, `sslmode` honoured or refused,
/// every malformed form refused with what to write, and the password in no message or description.
@Suite struct PostgresLocationTests {
    /// A password no message may show.
    static let secret = "Hunter2Secret"

    @Test(arguments: [
        "Postgres://store:Hunter2Secret@db.internal/storefront",
        "POSTGRESQL://store:Hunter2Secret@db.internal/storefront",
        "pOsTgReS://store:Hunter2Secret@db.internal/storefront",
    ])
    func theSchemeIsReadInAnyCase(url: String) throws {
        let place = try #require(try PostgresLocation.argument(url))
        #expect(place.host == "db.internal" && place.username == "store" && place.password == Self.secret)
        #expect(place.description == "postgres://store@db.internal:5432/storefront")
    }

    @Test(arguments: [
        ("postgres:/storefront", "has no // after postgres:"),
        ("Postgres:/store:Hunter2Secret@db/x", "has no // after Postgres:"),
        ("postgresql:/var/lib/store", "has no // after postgresql:"),
        ("POSTGRES:store", "has no // after POSTGRES:"),
        ("mysql://store:Hunter2Secret@db/x", "is a mysql: URL, which is neither a directory nor a PostgreSQL URL"),
        ("x://anything", "is a x: URL"),
        ("file:///tmp/store", "is a file: URL"),
    ])
    func aURLIsNeverTakenForADirectory(value: String, problem: String) {
        #expect {
            _ = try PostgresLocation.argument(value)
        } throws: { error in
            let message = "\(error)"
            return message.contains(problem) && message.contains("postgres://user@") && !message.contains(Self.secret)
        }
    }

    @Test(arguments: ["/var/lib/storefront", "./mysql://x", "state:copy", "db", "c:/x"])
    func aPathIsADirectory(value: String) throws {
        #expect(try PostgresLocation.argument(value) == nil)
    }

    @Test(arguments: [
        ("postgres://store:Hunter2Secret@db/x?foo=1", "unknown parameter foo"),
        ("postgres://store:Hunter2Secret@db/x?connect_timeout=5", "--db-connect-timeout"),
        ("postgres://store:Hunter2Secret@db/x?sslmode=bogus", "sslmode=bogus is not an sslmode"),
        ("postgres://store:Hunter2Secret@db/x?sslmode=allow", "allow (try without TLS first) is not supported"),
        ("postgres://store:Hunter2Secret@db/x?sslmode=", "sslmode has no value"),
        ("postgres://store:Hunter2Secret@db/x?sslmode=require&sslmode=disable", "gives sslmode twice"),
        ("postgres://store:Hunter2Secret@db/x?password=Hunter2Secret", "gives a password twice"),
        ("postgres://store@/x?host=/run/pg&sslmode=require", "over a Unix socket"),
        ("postgres://store:Hunter2Secret@db/x?host=/run/pg", "names the host twice"),
        ("postgres://store:Hunter2Secret@db/x?sslmode=disable&sslrootcert=/ca.pem", "verifies nothing"),
        ("postgres://store:Hunter2Secret@db/x#top", "#fragment"),
        ("postgres://store:Hunter2Secret@db:5x/x", "is not a well-formed URL"),
        ("postgres://store:Hunter2Secret/@db/x", "is not a well-formed URL"),
        ("postgres://db/x?password=Hunter2Secret", "names no user"),
        ("postgres://store:Hunter2Secret@db/", "names no database"),
        ("postgres://store:Hunter2Secret@db:99999/x", "port 99999 is out of range"),
    ])
    func aMalformedURLIsRefusedWithWhatToDoAndNoPassword(url: String, problem: String) {
        #expect {
            _ = try PostgresLocation(url)
        } throws: { error in
            let message = "\(error)"
            return message.contains(problem) && !message.contains("Hunter") && !message.contains("2Secret")
        }
    }

    @Test func aPasswordInTheQueryIsUsedAndNeverShown() throws {
        let place = try PostgresLocation("postgres://store@db.internal/storefront?password=Hunter2Secret")
        #expect(place.password == Self.secret)
        var dumped = ""
        dump(place, to: &dumped)
        for shown in [place.description, "\(place)", String(reflecting: place), dumped] {
            #expect(!shown.contains(Self.secret), "\(shown)")
        }
    }

    @Test func percentEncodingIsDecodedOnce() throws {
        let place = try PostgresLocation("postgres://st%40re:a%2541b@db/my%20store")
        #expect(place.username == "st@re")
        #expect(place.password == "a%41b")
        #expect(place.database == "my store")
    }

    @Test func theSSLModeIsReadAndShownWhenNotTheDefault() throws {
        #expect(try PostgresLocation("postgres://s@db/x").sslMode == .prefer)
        for mode in PostgresLocation.SSLMode.allCases where mode != .disable {
            let place = try PostgresLocation("postgres://s@db/x?sslmode=\(mode.rawValue)&sslrootcert=/ca.pem")
            #expect(place.sslMode == mode && place.sslRootCertificate == "/ca.pem")
        }
        #expect(try PostgresLocation("postgres://s@db/x?sslmode=disable").sslMode == .disable)
        let place = try PostgresLocation("postgres://s:Hunter2Secret@db/x?sslmode=verify-full&sslrootcert=/ca.pem")
        #expect(place.description == "postgres://s@db:5432/x?sslmode=verify-full&sslrootcert=/ca.pem")
        let socket = try PostgresLocation("postgres://s@/x?host=/run/pg&sslmode=disable")
        #expect(socket.socketDirectory == "/run/pg" && socket.sslMode == .disable)
        let named = try PostgresLocation("postgres://s@/x?host=db.internal")
        #expect(named.host == "db.internal" && named.socketDirectory == nil)
    }
}
