import Foundation

/// What one server allows its clients: how long a request may take to arrive and how long a
/// connection may sit silent. Past a limit a client gets an answer (408) or a closed connection,
/// never an unbounded wait.
public struct ConnectionLimits: Sendable {
    /// Time from a request's first byte to its last (head and body); past it, 408 and close.
    public var requestTimeout: Duration
    /// Time a connection may send nothing, unless the server is answering it; past it, close.
    public var idleTimeout: Duration

    public init(requestTimeout: Duration = .seconds(30), idleTimeout: Duration = .seconds(75)) {
        self.requestTimeout = requestTimeout
        self.idleTimeout = idleTimeout
    }

    public static let standard = ConnectionLimits()

    /// How long a connection is still read (and what it sends dropped) after an answer that ends it:
    /// closing on a client still sending makes its kernel reset the connection, and a reset can
    /// discard the answer before the client reads it.
    static let linger: Duration = .seconds(2)
}

/// The text forms of limit values, shared by `storefront serve`'s flags, its help and its answers.
public enum LimitText {
    /// Seconds, whole or decimal ("30", "0.5"); nil for anything else (signs, exponents, nan).
    public static func seconds(_ text: String) -> Duration? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              let value = Double(trimmed), value < 1e12 else { return nil }
        return .milliseconds(Int64((value * 1000).rounded()))
    }

    /// "30", "0.5": the form `seconds` reads.
    public static func seconds(of duration: Duration) -> String {
        let seconds = duration / .seconds(1)
        return seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }

    /// "30 s", "0.5 s": a duration as a person reads it.
    public static func describe(_ duration: Duration) -> String {
        seconds(of: duration) + " s"
    }
}
