import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// HTTP/1.1 over a plain socket, for requests URLSession will not send: oversized or countless
/// headers, chunked bodies without Content-Length. Answers whatever came back before the server
/// closed the connection or `timeout` passed; an empty answer means it closed without one.
enum RawHTTP {
    struct Answer {
        let bytes: Data
        /// True when the server closed the connection (read returned 0 or the connection was reset).
        let closed: Bool

        var status: Int? {
            guard let line = String(decoding: bytes.prefix(64), as: UTF8.self).split(separator: "\r\n").first,
                let match = line.firstMatch(of: /^HTTP\/1\.[01] (\d{3})/)
            else { return nil }
            return Int(match.1)
        }

        var text: String { String(decoding: bytes, as: UTF8.self) }
    }

    /// Sends `head` (the request line and headers, without the blank line) and then `body` parts,
    /// as they are; stops sending when the server stops reading. Reads until a whole response (by
    /// its Content-Length) has come, or with `untilClosed` until the server closes the connection.
    static func exchange(
        port: Int, address: String = "127.0.0.1", head: String, body: [Data] = [],
        untilClosed: Bool = false, timeout: TimeInterval = 10
    ) throws -> Answer {
        let socket = try connect(port: port, address: address)
        defer { close(socket) }
        setTimeouts(socket, timeout)
        for part in [Data((head + "\r\n\r\n").utf8)] + body {
            guard sendAll(socket, part) else { break }
        }
        return read(socket, untilClosed: untilClosed)
    }

    /// Reads until a whole response has come (or, with `untilClosed`, until the server closes the
    /// connection) or the socket's receive timeout passes.
    static func read(_ socket: Int32, untilClosed: Bool) -> Answer {
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count > 0 {
                received.append(contentsOf: buffer[0..<count])
                if !untilClosed, isComplete(received) { return Answer(bytes: received, closed: false) }
            } else if count == 0 || errno == ECONNRESET {
                return Answer(bytes: received, closed: true)
            } else {
                return Answer(bytes: received, closed: false)  // timed out with the connection open
            }
        }
    }

    static func setTimeouts(_ socket: Int32, _ timeout: TimeInterval) {
        var timeval = timeval(tv_sec: Int(timeout), tv_usec: .init((timeout - timeout.rounded(.down)) * 1_000_000))
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeval, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &timeval, socklen_t(MemoryLayout<timeval>.size))
    }

    /// True once `bytes` hold a response head and the Content-Length bytes of body after it.
    static func isComplete(_ bytes: Data) -> Bool {
        guard let end = bytes.firstRange(of: Data("\r\n\r\n".utf8)) else { return false }
        let head = String(decoding: bytes[..<end.lowerBound], as: UTF8.self).lowercased()
        guard let match = head.firstMatch(of: /content-length: *(\d+)/), let length = Int(match.1) else { return false }
        return bytes.count - end.upperBound >= length
    }

    /// A body in chunked transfer coding: `chunks` chunks of `size` bytes of `byte`, then the last chunk.
    static func chunked(_ chunks: Int, of size: Int, byte: UInt8 = UInt8(ascii: "a")) -> [Data] {
        let chunk =
            Data(String(size, radix: 16).utf8) + Data("\r\n".utf8) + Data(repeating: byte, count: size)
            + Data("\r\n".utf8)
        return Array(repeating: chunk, count: chunks) + [Data("0\r\n\r\n".utf8)]
    }

    /// A socket connected to `address:port` (IPv4); throws the errno of a refused connection.
    static func connect(port: Int, address: String) throws -> Int32 {
        #if canImport(Glibc)
            let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard socket >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var target = sockaddr_in()
        target.sin_family = sa_family_t(AF_INET)
        target.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, address, &target.sin_addr)
        let result = withUnsafePointer(to: &target) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                #if canImport(Glibc)
                    Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                #else
                    Darwin.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                #endif
            }
        }
        guard result == 0 else {
            let error = errno
            close(socket)
            throw POSIXError(POSIXErrorCode(rawValue: error) ?? .EIO)
        }
        return socket
    }

    /// False when the peer stopped reading (reset, closed, or the send timed out).
    static func sendAll(_ socket: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                #if canImport(Glibc)
                    let sent = send(socket, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                #else
                    let sent = send(socket, raw.baseAddress! + offset, raw.count - offset, 0)
                #endif
                guard sent > 0 else { return false }
                offset += sent
            }
            return true
        }
    }
}

/// A connection a test keeps open, to send a request a piece at a time and see what the server
/// does meanwhile. Closed when released.
final class HeldConnection {
    private(set) var socket: Int32

    /// `timeout` bounds every send and every wait for an answer.
    init(port: Int, timeout: TimeInterval = 15) throws {
        socket = try RawHTTP.connect(port: port, address: "127.0.0.1")
        RawHTTP.setTimeouts(socket, timeout)
    }

    deinit { close() }

    func close() {
        guard socket >= 0 else { return }
        #if canImport(Glibc)
            Glibc.close(socket)
        #else
            Darwin.close(socket)
        #endif
        socket = -1
    }

    /// False when the server stopped reading or closed the connection.
    @discardableResult
    func send(_ text: String) -> Bool { RawHTTP.sendAll(socket, Data(text.utf8)) }

    @discardableResult
    func send(_ data: Data) -> Bool { RawHTTP.sendAll(socket, data) }

    /// A whole response, or with `untilClosed` everything until the server closed the connection;
    /// whatever came before the timeout otherwise.
    func answer(untilClosed: Bool = false) -> RawHTTP.Answer {
        RawHTTP.read(socket, untilClosed: untilClosed)
    }

    /// Sends `bytes` one at a time, `interval` apart, stopping as soon as the server answers or
    /// closes; then reads until it closes. Answers what came back and how many bytes were sent.
    func trickle(_ bytes: Data, interval: Duration = .milliseconds(100)) -> (answer: RawHTTP.Answer, sent: Int) {
        var sent = 0
        for byte in bytes {
            var pending = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            if poll(&pending, 1, Int32(interval / .milliseconds(1))) != 0 { break }
            guard RawHTTP.sendAll(socket, Data([byte])) else { break }
            sent += 1
        }
        return (answer(untilClosed: true), sent)
    }
}

/// Non-loopback IPv4 addresses of this machine (for checking what a server is reachable on).
func nonLoopbackIPv4Addresses() -> [String] {
    var list: UnsafeMutablePointer<ifaddrs>?
    guard getifaddrs(&list) == 0 else { return [] }
    defer { freeifaddrs(list) }
    var addresses: [String] = []
    var next = list
    while let entry = next {
        defer { next = entry.pointee.ifa_next }
        guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET) else { continue }
        var ipv4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
        var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
        guard inet_ntop(AF_INET, &ipv4, &text, socklen_t(text.count)) != nil else { continue }
        let string = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if !string.hasPrefix("127.") { addresses.append(string) }
    }
    return addresses
}

/// The local addresses (hex, as /proc/net/tcp and tcp6 write them) of the sockets listening on `port`.
func listeningAddresses(port: Int) -> [String] {
    var found: [String] = []
    for file in ["/proc/net/tcp", "/proc/net/tcp6"] {
        // Read to the end: /proc files report no size, and a one-shot read stops at a page, which
        // leaves out later sockets when the test process holds many.
        guard let handle = FileHandle(forReadingAtPath: file) else { continue }
        let text = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        try? handle.close()
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ")
            guard fields.count > 3, fields[3] == "0A" else { continue }  // 0A: LISTEN
            let local = fields[1].split(separator: ":")
            guard local.count == 2, Int(local[1], radix: 16) == port else { continue }
            found.append(String(local[0]))
        }
    }
    return found
}

/// Resident memory of a process in KiB (VmRSS in /proc/PID/status), or nil off Linux.
func residentKiB(_ pid: Int32) -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
        let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
    else { return nil }
    return Int(line.split(separator: " ").dropFirst().first ?? "")
}
