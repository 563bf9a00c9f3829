import Foundation
import StoreCore

/// A `postgres://` URL as `serve --db` and `$STOREFRONT_DB` take it:
/// `postgres://user[:password]@host[:port]/database`, or a Unix socket's directory as
/// `postgres://user@/database?host=/var/run/postgresql`. `postgresql://` is the same.
public struct PostgresLocation: Sendable, Hashable {
    public let username: String
    public let password: String?
    public let host: String
    public let port: Int
    public let database: String
    /// A directory with the server's socket (`.s.PGSQL.PORT`), instead of a TCP host.
    public let socketDirectory: String?

    public static func isPostgres(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    public init(_ text: String) throws {
        guard Self.isPostgres(text), let components = URLComponents(string: text) else {
            throw StoreFailure(
                "\(Self.redacted(text)) is not a PostgreSQL URL: expected postgres://user[:password]@host[:port]/database"
            )
        }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard let user = components.user, !user.isEmpty else {
            throw StoreFailure("\(Self.redacted(text)) names no user: write postgres://USER@host/database")
        }
        guard !database.isEmpty, !database.contains("/") else {
            throw StoreFailure("\(Self.redacted(text)) names no database: write postgres://user@host/DATABASE")
        }
        let socket = components.queryItems?.first(where: { $0.name == "host" })?.value
        guard socket != nil || !(components.host ?? "").isEmpty else {
            throw StoreFailure("\(Self.redacted(text)) names no host: write postgres://user@HOST/database")
        }
        if let port = components.port, !(1...65535).contains(port) {
            throw StoreFailure("\(Self.redacted(text)): port \(port) is out of range (1 to 65535)")
        }
        self.username = user.removingPercentEncoding ?? user
        self.password = components.password.map { $0.removingPercentEncoding ?? $0 }
        self.host = components.host ?? ""
        self.port = components.port ?? 5432
        self.database = database.removingPercentEncoding ?? database
        self.socketDirectory = socket
    }

    /// The URL as messages and `/v1/health` show it: without the password.
    public var description: String {
        if let socketDirectory { return "postgres://\(username)@/\(database)?host=\(socketDirectory)" }
        return "postgres://\(username)@\(host):\(port)/\(database)"
    }

    static func redacted(_ text: String) -> String {
        if let parsed = URLComponents(string: text) {
            guard parsed.password != nil else { return text }
            var components = parsed
            components.password = "***"
            return components.string ?? text
        }
        // Not a URL Foundation reads (a space or a stray % in the password): hide all between the
        // scheme and the last @, where the user and the password are.
        guard let scheme = text.range(of: "://"), let at = text.range(of: "@", options: .backwards),
            scheme.upperBound <= at.lowerBound
        else { return text }
        return String(text[..<scheme.upperBound]) + "***" + String(text[at.lowerBound...])
    }
}
