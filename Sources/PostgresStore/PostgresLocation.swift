import Foundation
import StoreCore

/// A PostgreSQL URL as `serve --db`, `reset --db` and `$STOREFRONT_DB` take it, read as libpq reads
/// one: `postgres://user[:password]@host[:port]/database`, or a Unix socket's directory as
/// `postgres://user@/database?host=/var/run/postgresql`. The scheme is `postgres` or `postgresql`
/// in any case (RFC 3986). The query takes `host`, `password`, `sslmode` and `sslrootcert`; any
/// other parameter is refused, as libpq refuses one it does not know.
///
/// Its `description` (and so `"\(location)"`, `dump` and every message) never shows the password.
public struct PostgresLocation: Sendable, Hashable {
    public let username: String
    public let password: String?
    public let host: String
    public let port: Int
    public let database: String
    /// A directory with the server's socket (`.s.PGSQL.PORT`), instead of a TCP host.
    public let socketDirectory: String?
    /// Whether and how the connection is encrypted, as libpq's `sslmode`.
    public let sslMode: SSLMode
    /// `sslrootcert`: a PEM file of the certificates that may sign the server's, or `system` for
    /// the system's; nil: libpq's default, `~/.postgresql/root.crt` when it exists.
    public let sslRootCertificate: String?

    /// libpq's `sslmode` values but `allow`, which tries without TLS first.
    public enum SSLMode: String, Sendable, CaseIterable {
        /// Never encrypted.
        case disable
        /// Encrypted when the server offers TLS, else not: libpq's default, and this one's.
        case prefer
        /// Always encrypted; the certificate is verified only against an `sslrootcert`.
        case require
        /// Encrypted, and the certificate signed by a root of `sslrootcert`.
        case verifyCA = "verify-ca"
        /// As `verify-ca`, and the certificate names the URL's host.
        case verifyFull = "verify-full"

        /// Whether the certificate's chain is checked, whatever the root certificates.
        var verifies: Bool { self == .verifyCA || self == .verifyFull }
    }

    public static let defaultSSLMode = SSLMode.prefer

    /// The query parameters read, as the messages list them.
    static let parameters = ["host", "password", "sslmode", "sslrootcert"]

    /// Whether `text` is meant as a PostgreSQL URL: its scheme is `postgres` or `postgresql` in
    /// any case, whether or not the rest is well formed.
    public static func isPostgres(_ text: String) -> Bool {
        scheme(of: text).map { ["postgres", "postgresql"].contains($0.lowercased()) } ?? false
    }

    /// A `--db` value read: nil for a directory, the location for a PostgreSQL URL. A malformed
    /// PostgreSQL URL, and a URL of any other scheme (`mysql://…`), are refused: neither is meant
    /// as a directory, and a store quietly kept in one named after the URL would be lost.
    public static func argument(_ value: String) throws -> PostgresLocation? {
        guard let scheme = scheme(of: value) else { return nil }
        guard isPostgres(value) else {
            throw StoreFailure(
                "\(redacted(value)) is a \(scheme): URL, which is neither a directory nor a PostgreSQL URL: pass postgres://user@host/database, or a directory (a directory whose name looks like a URL: write it as ./NAME)"
            )
        }
        return try PostgresLocation(value)
    }

    /// The scheme of text that reads as a URL: `scheme://…`, or `postgres:` and `postgresql:`
    /// followed by anything; nil for a path (`./a:b`, `dir:name`).
    static func scheme(of text: String) -> String? {
        guard let end = URLCredentials.schemeEnd(of: text) else { return nil }
        let scheme = String(text[..<text.index(before: end)])
        let postgres = ["postgres", "postgresql"].contains(scheme.lowercased())
        return postgres || text[end...].hasPrefix("//") ? scheme : nil
    }

    public init(_ text: String) throws {
        let shown = Self.redacted(text)
        guard let scheme = Self.scheme(of: text), Self.isPostgres(text) else {
            throw StoreFailure(
                "\(shown) is not a PostgreSQL URL: expected postgres://user[:password]@host[:port]/database")
        }
        guard text.dropFirst(scheme.count + 1).hasPrefix("//") else {
            throw StoreFailure(
                "\(shown) has no // after \(scheme):, so it names no server: write postgres://user@host/database (or postgres://user@/database?host=/socket/directory)"
            )
        }
        guard let components = URLComponents(string: text) else {
            throw StoreFailure(
                "\(shown) is not a well-formed URL: percent-encode any @ : / ? # % or space in the user, password or database (%40 for @, %3A for :, %2F for /, %20 for a space)"
            )
        }
        let query = try Self.query(components, shown: shown)
        try self.init(components, query: query, shown: shown)
    }

    private init(_ components: URLComponents, query: [String: String], shown: String) throws {
        guard components.fragment == nil else {
            throw StoreFailure("\(shown) ends in a #fragment, which no PostgreSQL URL has: remove it")
        }
        guard let user = components.user, !user.isEmpty else {
            throw StoreFailure("\(shown) names no user: write postgres://USER@host/database")
        }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else {
            throw StoreFailure("\(shown) names no database: write postgres://user@host/DATABASE")
        }
        if components.password != nil, query["password"] != nil {
            throw StoreFailure(
                "\(shown) gives a password twice (user:PASSWORD@ and ?password=): keep one")
        }
        let (host, socket) = try Self.server(components, query: query, shown: shown)
        if let port = components.port, !(1...65535).contains(port) {
            throw StoreFailure("\(shown): port \(port) is out of range (1 to 65535)")
        }
        let mode = try Self.sslMode(query, socket: socket, shown: shown)
        username = user
        password = components.password ?? query["password"]
        self.host = host
        port = components.port ?? 5432
        self.database = database
        socketDirectory = socket
        sslMode = mode
        sslRootCertificate = query["sslrootcert"]
    }

    /// The query's parameters, each named once, known and given a value.
    private static func query(_ components: URLComponents, shown: String) throws -> [String: String] {
        var query: [String: String] = [:]
        for item in components.queryItems ?? [] {
            guard parameters.contains(item.name) else {
                let instead = item.name == "connect_timeout" ? " (serve takes --db-connect-timeout)" : ""
                throw StoreFailure(
                    "\(shown): unknown parameter \(item.name)\(instead); a URL here takes \(parameters.joined(separator: ", ")): remove it"
                )
            }
            guard query[item.name] == nil else {
                throw StoreFailure("\(shown) gives \(item.name) twice: keep one")
            }
            guard let value = item.value, !value.isEmpty else {
                throw StoreFailure("\(shown): \(item.name) has no value: write \(item.name)=VALUE, or remove it")
            }
            query[item.name] = value
        }
        return query
    }

    /// The TCP host, or the socket's directory: `?host=` with a path is a socket's directory, and
    /// with a name the host, as libpq reads it.
    private static func server(_ components: URLComponents, query: [String: String], shown: String) throws -> (
        host: String, socket: String?
    ) {
        let authority = components.host ?? ""
        guard let named = query["host"] else {
            guard !authority.isEmpty else {
                throw StoreFailure("\(shown) names no host: write postgres://user@HOST/database")
            }
            return (authority, nil)
        }
        guard authority.isEmpty else {
            throw StoreFailure(
                "\(shown) names the host twice (@\(authority) and ?host=\(named)): keep one")
        }
        return named.hasPrefix("/") ? ("", named) : (named, nil)
    }

    private static func sslMode(_ query: [String: String], socket: String?, shown: String) throws -> SSLMode {
        guard let text = query["sslmode"] else { return defaultSSLMode }
        let modes = SSLMode.allCases.map(\.rawValue).joined(separator: ", ")
        guard let mode = SSLMode(rawValue: text) else {
            let why =
                text == "allow"
                ? "allow (try without TLS first) is not supported" : "sslmode=\(text) is not an sslmode"
            throw StoreFailure("\(shown): \(why); use one of \(modes)")
        }
        if socket != nil, mode != .disable, mode != .prefer {
            throw StoreFailure(
                "\(shown): sslmode=\(text) over a Unix socket, where PostgreSQL never uses TLS: connect over TCP (postgres://user@HOST/database) to encrypt, or drop sslmode; the socket stays on this machine"
            )
        }
        if query["sslrootcert"] != nil, mode == .disable {
            throw StoreFailure("\(shown): sslrootcert with sslmode=disable verifies nothing: drop one")
        }
        return mode
    }

    /// The URL as messages and `/v1/health` show it: without the password; `sslmode` when it is
    /// not the default, and `sslrootcert`.
    public var description: String {
        var parameters: [String] = []
        if let socketDirectory { parameters.append("host=\(socketDirectory)") }
        if sslMode != Self.defaultSSLMode { parameters.append("sslmode=\(sslMode.rawValue)") }
        if let sslRootCertificate { parameters.append("sslrootcert=\(sslRootCertificate)") }
        let server = socketDirectory == nil ? "\(host):\(port)" : ""
        return "postgres://\(username)@\(server)/\(database)"
            + (parameters.isEmpty ? "" : "?" + parameters.joined(separator: "&"))
    }

    /// `text` with its password hidden, whether in the user info or as `?password=`.
    static func redacted(_ text: String) -> String {
        URLCredentials.redacted(text, keepingQuery: ["host", "sslmode", "sslrootcert"])
    }
}

/// A location printed, interpolated or dumped shows its `description`, never the password.
extension PostgresLocation: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["url": description], displayStyle: .struct) }
}
