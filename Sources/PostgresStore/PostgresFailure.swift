import Foundation
import NIOSSL
import PostgresNIO
import StoreCore

/// PostgreSQL's errors as the store's readable failures: what went wrong, where, and what to do.
/// PSQLError's own description hides the server's message; it is read from its fields here.
enum PostgresFailure {
    /// SQLSTATE classes that mean the database cannot take writes now (disk full, out of memory,
    /// too many connections, shutting down), which `/v1/health` reports as storage failures.
    private static let storageClasses: Set<String> = ["53", "57", "58", "08"]

    /// SQLSTATE of a statement PostgreSQL cancelled (`statement_timeout`).
    private static let queryCanceled = "57014"

    static func cannotConnect(_ location: PostgresLocation, _ error: any Error) -> StoreFailure {
        let reason = handshakeFailure(error).map { "the TLS handshake failed (\($0))" } ?? reason(error)
        return StoreFailure(
            "cannot connect to PostgreSQL at \(location.description): \(reason). \(advice(location, error))",
            kind: .storage)
    }

    /// What to do: about TLS when the handshake failed or the server offers none, else about the
    /// server and its pg_hba.conf.
    private static func advice(_ location: PostgresLocation, _ error: any Error) -> String {
        if (error as? PSQLError)?.code == .sslUnsupported {
            return
                "The server offers no TLS (ssl = off in postgresql.conf) and sslmode=\(location.sslMode.rawValue) requires it: turn ssl on there, or, on a network you trust, use sslmode=prefer or disable."
        }
        if handshakeFailure(error) != nil {
            let host = location.sslMode == .verifyFull ? ", and that the certificate names the URL's host" : ""
            return
                "Check that sslrootcert names the certificate authority that signed the server's certificate\(host), or use sslmode=require to encrypt without verifying."
        }
        return "Check that the server runs and accepts this user from here (pg_hba.conf), or pass another --db."
    }

    /// BoringSSL's reasons for a failed handshake (CERTIFICATE_VERIFY_FAILED), without the source
    /// files its errors name; nil when the failure was not TLS's.
    private static func handshakeFailure(_ error: any Error) -> String? {
        let underlying = (error as? PSQLError)?.underlying ?? error
        guard underlying is NIOSSLError || underlying is BoringSSLError else { return nil }
        let text = "\(underlying)"
        let reasons = text.matches(of: /OPENSSL_internal:([A-Z0-9_]+)/).map { String($0.1) }
        return reasons.isEmpty ? text : reasons.joined(separator: ", ")
    }

    static func statement(_ sql: String, _ error: any Error, location: PostgresLocation) -> StoreFailure {
        let state = (error as? PSQLError)?.serverInfo?[.sqlState]
        // No SQLSTATE: the connection failed, not the statement.
        let lost = state == nil && error is PSQLError
        // A statement timeout (or a long wait for the write lock) is "try again", not broken storage.
        let kind: StoreFailure.Kind =
            state == queryCanceled
            ? .unavailable
            : lost || state.map { storageClasses.contains(String($0.prefix(2))) } == true ? .storage : .failure
        let statement = sql.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: " ")
        return StoreFailure(
            "PostgreSQL at \(location.description)\(state.map { " (SQLSTATE \($0))" } ?? ""): \(reason(error)); in: \(statement.prefix(160))",
            kind: kind)
    }

    /// The server's message, or what failed on the way to it.
    static func reason(_ error: any Error) -> String {
        guard let error = error as? PSQLError else { return "\(error)" }
        if let message = error.serverInfo?[.message] {
            return [message, error.serverInfo?[.detail], error.serverInfo?[.hint]].compactMap { $0 }.joined(
                separator: " ")
        }
        if let underlying = error.underlying { return "\(error.code): \(underlying)" }
        return "\(error.code)"
    }

    /// An identifier quoted for SQL.
    static func quoted(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
