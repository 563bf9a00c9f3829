import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// An asciicast v2 file (asciinema's format): a header object on the first line, then one
/// `[time, code, data]` array per line, `time` in seconds since the start with microseconds.
/// Codes: `o` output, `i` input, `r` resize (`"80x24"`), `m` marker.
public final class AsciicastWriter {
    public enum Code: String, Sendable {
        case output = "o"
        case input = "i"
        case resize = "r"
        case marker = "m"
    }

    public struct Header: Sendable {
        public var width: Int
        public var height: Int
        public var timestamp: Int
        public var title: String
        public var environment: [String: String]

        public init(width: Int, height: Int, timestamp: Int, title: String, environment: [String: String]) {
            self.width = width
            self.height = height
            self.timestamp = timestamp
            self.title = title
            self.environment = environment
        }

        /// The header line: `version` first, as asciinema writes it.
        var line: String {
            let variables = environment.keys.sorted().map { "\(json($0)):\(json(environment[$0] ?? ""))" }.joined(
                separator: ",")
            return
                #"{"version":2,"width":\#(width),"height":\#(height),"timestamp":\#(timestamp),"title":\#(json(title)),"env":{\#(variables)}}"#
        }
    }

    private let handle: FileHandle
    private let start: ContinuousClock.Instant
    /// Bytes of a character a read cut in two, per stream, kept for the next chunk: every event
    /// holds whole characters, as JSON text must.
    private var pending: [Code: [UInt8]] = [:]

    /// Creates (or empties) `url` and writes the header. `fresh`: a new file in place of what
    /// the name held, never written through a link (a hard link's other names keep their
    /// contents; a symbolic link is replaced, not followed), as a shared tape's `Output` is.
    public init(url: URL, header: Header, start: ContinuousClock.Instant = .now, fresh: Bool = false) throws {
        if fresh, unlink(url.path) != 0, errno != ENOENT {
            throw PseudoTerminal.Failure(description: "cannot replace \(url.path): \(String(cString: strerror(errno)))")
        }
        let flags =
            fresh ? O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC : O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC
        let descriptor = open(url.path, flags, 0o644)
        guard descriptor >= 0 else {
            throw PseudoTerminal.Failure(description: "cannot create \(url.path): \(String(cString: strerror(errno)))")
        }
        handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        self.start = start
        try write(header.line)
    }

    public func record(_ code: Code, bytes: some Collection<UInt8>, at instant: ContinuousClock.Instant = .now) throws {
        var all = pending[code] ?? []
        all.append(contentsOf: bytes)
        let cut = Self.completeLength(all)
        pending[code] = Array(all[cut...])
        guard cut > 0 else { return }
        try record(code, String(decoding: all[..<cut], as: UTF8.self), at: instant)
    }

    public func record(_ code: Code, _ text: String, at instant: ContinuousClock.Instant = .now) throws {
        let elapsed = instant - start
        let micros = max(0, elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000)
        let time = "\(micros / 1_000_000).\(String(micros % 1_000_000).leftPadded(to: 6))"
        try write("[\(time),\(json(code.rawValue)),\(json(text))]")
    }

    public func close() throws {
        try handle.synchronize()
        try handle.close()
    }

    private func write(_ line: String) throws {
        try handle.write(contentsOf: Data((line + "\n").utf8))
    }

    /// How many leading bytes end on a character boundary: a UTF-8 sequence cut at the end stays
    /// back (at most 3 bytes); anything malformed goes out, decoded as U+FFFD.
    static func completeLength(_ bytes: [UInt8]) -> Int {
        var index = bytes.count
        var continuation = 0
        while index > 0, continuation < 3, bytes[index - 1] & 0xC0 == 0x80 {
            index -= 1
            continuation += 1
        }
        guard index > 0 else { return bytes.count }
        let lead = bytes[index - 1]
        let needed = lead >= 0xF0 ? 3 : lead >= 0xE0 ? 2 : lead >= 0xC0 ? 1 : 0
        return needed > continuation ? index - 1 : bytes.count
    }
}

/// A JSON string literal: JSONEncoder's escaping, so every control character is escaped.
func json(_ text: String) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes]
    return (try? encoder.encode(text)).flatMap { String(data: $0, encoding: .utf8) } ?? "\"\""
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
