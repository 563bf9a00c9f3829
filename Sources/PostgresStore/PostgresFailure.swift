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
        let statement = oneLine(sql)
        return StoreFailure(
            "PostgreSQL at \(location.description)\(state.map { " (SQLSTATE \($0))" } ?? ""): \(reason(error)); in: \(statement.prefix(160))",
            kind: kind)
    }

    /// No answer to `sql` within this side's deadline; its connection was closed. A COMMIT's
    /// outcome is then unknown (PostgreSQL may still apply it); any other statement's write never
    /// commits, since the connection that would have committed it is gone.
    static func late(_ sql: String, location: PostgresLocation, after deadline: Duration) -> StoreFailure {
        let committing = sql.trimmingCharacters(in: .whitespaces).uppercased().hasPrefix("COMMIT")
        let outcome =
            committing
            ? "the write's outcome is unknown: it may have been recorded"
            : "nothing of this read or write was recorded"
        return StoreFailure(
            "PostgreSQL at \(location.description) did not answer within \(seconds(deadline)) s "
                + "(--db-statement-timeout and \(seconds(PostgresStorage.deadlineGrace)) s more), so its connection "
                + "was closed and \(outcome); in: \(oneLine(sql).prefix(160)). Check that PostgreSQL runs and is not "
                + "overloaded, and who holds the store's write lock (pg_locks, locktype advisory)",
            kind: .unavailable, outcomeUnknown: committing)
    }

    /// No connection made and ready within this side's deadline.
    static func late(connecting location: PostgresLocation, after deadline: Duration) -> StoreFailure {
        StoreFailure(
            "cannot connect to PostgreSQL at \(location.description): no answer within \(seconds(deadline)) s. "
                + "Check that the server runs and is not overloaded, or pass another --db.",
            kind: .storage)
    }

    /// The connection closed (PostgreSQL restarted, an idle-session killer, a network cut) after
    /// the read or write ran a statement on it: PostgreSQL rolled it back, and the rest of it must
    /// not run on a new connection, outside its transaction.
    static func lostMidUse(_ location: PostgresLocation) -> StoreFailure {
        StoreFailure(
            "the connection to PostgreSQL at \(location.description) closed during a read or write, which "
                + "PostgreSQL rolled back: nothing of it was recorded. Retry; check the server's log if it goes on",
            kind: .unavailable)
    }

    /// Every connection of the pool stayed taken while a read or write waited for one.
    static func busy(_ location: PostgresLocation, connections: Int, after deadline: Duration) -> StoreFailure {
        StoreFailure(
            "all \(connections) connections to PostgreSQL at \(location.description) stayed busy for "
                + "\(seconds(deadline)) s; nothing was recorded. PostgreSQL is slow or frozen, or the load needs a "
                + "larger --db-pool-size",
            kind: .unavailable)
    }

    static func seconds(_ duration: Duration) -> String {
        let seconds = duration / .seconds(1)
        return seconds == seconds.rounded() ? String(Int(seconds)) : String(format: "%.1f", seconds)
    }

    static func oneLine(_ sql: String) -> String {
        sql.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
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
