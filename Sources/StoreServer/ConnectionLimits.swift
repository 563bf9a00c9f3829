import Foundation

/// What one server allows its clients: how many connections it serves, how long a request may
/// take to arrive, how long a connection may sit silent, and how many bytes of request bodies it
/// holds across connections. Past a limit a client gets an answer (503 or 408) or a closed
/// connection, never an unbounded wait or unbounded memory.
public struct ConnectionLimits: Sendable {
    /// Connections served at once; a connection accepted beyond them is answered 503.
    public var maxConnections: Int
    /// Time from a request's first byte to its last (head and body); past it, 408 and close.
    public var requestTimeout: Duration
    /// Time a connection may send nothing, unless the server is answering it; past it, close.
    public var idleTimeout: Duration
    /// Bytes of request bodies held, across connections, for requests not yet answered; a request
    /// that would pass it is answered 503.
    public var maxBufferedBody: Int
    /// After SIGTERM, the time requests already being answered get before their connections are
    /// closed, so shutdown ends whatever the clients do.
    public var shutdownGrace: Duration

    public init(
        maxConnections: Int = 512, requestTimeout: Duration = .seconds(30), idleTimeout: Duration = .seconds(75),
        maxBufferedBody: Int = 32 * 1024 * 1024, shutdownGrace: Duration = .seconds(5)
    ) {
        self.maxConnections = maxConnections
        self.requestTimeout = requestTimeout
        self.idleTimeout = idleTimeout
        self.maxBufferedBody = maxBufferedBody
        self.shutdownGrace = shutdownGrace
    }

    public static let standard = ConnectionLimits()

    /// How long a connection is still read (and what it sends dropped) after an answer that ends it:
    /// closing on a client still sending makes its kernel reset the connection, and a reset can
    /// discard the answer before the client reads it.
    static let linger: Duration = .seconds(2)

    /// Connections accepted at all: those served plus as many being refused. Past it the listener
    /// stops accepting until one closes, so even refusals cannot pile up.
    var acceptCeiling: Int { maxConnections > Int.max / 2 ? Int.max : maxConnections * 2 }

    /// Once graceful shutdown has lasted this long, the remaining work is cancelled: the grace,
    /// then time for the closed connections' handlers to return.
    var shutdownDeadline: Duration { shutdownGrace + .seconds(3) }
}

/// The text forms of limit values, shared by `storefront serve`'s flags, its help and its answers.
public enum LimitText {
    /// Seconds, whole or decimal ("30", "0.5"); nil for anything else (signs, exponents, nan).
    public static func seconds(_ text: String) -> Duration? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            let value = Double(trimmed), value < 1e12
        else { return nil }
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

    static let units: [(suffix: String, factor: Int)] = [
        ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10), ("B", 1), ("", 1),
    ]

    /// Bytes, with an optional unit: "5242880", "512KiB", "32MiB", "1GiB". Units are binary and
    /// spelled out, so "MB" (which could mean 10^6) is refused rather than guessed.
    public static func bytes(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        for unit in units where trimmed.hasSuffix(unit.suffix) {
            let number = trimmed.dropLast(unit.suffix.count).trimmingCharacters(in: .whitespaces)
            guard !number.isEmpty, number.allSatisfy(\.isASCII), number.allSatisfy(\.isNumber), let value = Int(number)
            else { continue }
            let (product, overflow) = value.multipliedReportingOverflow(by: unit.factor)
            return overflow ? nil : product
        }
        return nil
    }

    /// "32MiB", "512KiB", "1000B": the largest binary unit that divides the size exactly, as `bytes`
    /// reads it back.
    public static func describe(bytes: Int) -> String {
        for unit in units.dropLast(2) where bytes != 0 && bytes % unit.factor == 0 {
            return "\(bytes / unit.factor)\(unit.suffix)"
        }
        return "\(bytes)B"
    }
}
