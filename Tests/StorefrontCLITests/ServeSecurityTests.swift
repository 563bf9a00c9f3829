import Foundation
import TestSupport
import Testing

/// What `storefront serve` promises about where it listens and what it accepts on the socket.
@Suite struct ServeSecurityTests {
    /// By default the listening socket is bound to 127.0.0.1 (read back from /proc/net/tcp), the
    /// server cannot be reached on the machine's other addresses, and no warning is printed.
    @Test func listensOnLoopbackOnlyByDefault() async throws {
        let server = try ServeProcess.start(db: scratchDirectory("storefront-serve"))
        defer { server.stop() }
        #expect(try await HTTP.send("GET", server.baseURL + "/v1/health").status == 200)
        let bound = listeningAddresses(port: server.port)
        if FileManager.default.fileExists(atPath: "/proc/net/tcp") {
            #expect(bound == ["0100007F"], "listening on \(bound) (hex, little-endian); 0100007F is 127.0.0.1")
        }
        for address in nonLoopbackIPv4Addresses() {
            #expect(throws: POSIXError.self, "reachable on \(address)") {
                close(try RawHTTP.connect(port: server.port, address: address))
            }
        }
        #expect(!server.stderr.contains("warning"))
    }

    /// `--host 0.0.0.0` does what it says, and says so: the warning names the address and the risk.
    @Test func bindingEveryAddressWarns() async throws {
        let server = try ServeProcess.start(db: scratchDirectory("storefront-serve"), arguments: ["--host", "0.0.0.0"])
        defer { server.stop() }
        #expect(server.stderr.contains("storefront serve: warning: binding 0.0.0.0, not loopback"))
        if FileManager.default.fileExists(atPath: "/proc/net/tcp") {
            #expect(listeningAddresses(port: server.port) == ["00000000"])
        }
    }

    /// A header over 80 KiB, or more than 1,000 headers, or an 80 KiB request line: the server
    /// answers 400 or 431 and closes the connection (Hummingbird's HTTP/1 decoder limits), its
    /// memory does not grow with what was sent, and it goes on serving.
    @Test func oversizedHeadersAreRefusedAndTheServerStaysUp() async throws {
        let server = try ServeProcess.start(db: scratchDirectory("storefront-serve"))
        defer { server.stop() }
        let before = residentKiB(server.process.processIdentifier)
        let huge = "GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "a", count: 1024 * 1024)
        let many = "GET /v1/health HTTP/1.1\r\nHost: x\r\n" + (0..<5000).map { "X-H\($0): v" }.joined(separator: "\r\n")
        let longLine = "GET /v1/health?" + String(repeating: "a", count: 100 * 1024) + " HTTP/1.1\r\nHost: x"
        let longAuth =
            "GET /admin/transactions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
            + String(repeating: "t", count: 200 * 1024)
        for (name, head) in [("huge", huge), ("many", many), ("long line", longLine), ("long token", longAuth)] {
            for _ in 0..<5 {
                let answer = try RawHTTP.exchange(port: server.port, head: head, untilClosed: true)
                #expect(answer.closed, "\(name): the connection stayed open")
                #expect(
                    answer.status == nil || answer.status == 400 || answer.status == 431,
                    "\(name): \(answer.text.prefix(200))")
            }
        }
        #expect(server.process.isRunning)
        #expect(try await HTTP.send("GET", server.baseURL + "/v1/health").status == 200)
        if let before, let after = residentKiB(server.process.processIdentifier) {
            #expect(after - before < 64 * 1024, "resident memory grew from \(before) KiB to \(after) KiB")
        }
    }

    /// Without Content-Length, a chunked body is cut at the route's limit too (413), on the JSON API,
    /// on the receipt routes and on restore, which reads its body only to hash it.
    @Test func chunkedBodiesAreBoundedToo() async throws {
        let server = try ServeProcess.start(db: scratchDirectory("storefront-serve"))
        defer { server.stop() }
        let cases: [(String, Int, Int)] = [  // path, chunks of 64 KiB, expected
            ("/v1/payments", 16, 413), ("/v1/products", 16, 413), ("/v1/accounts/alice/restore", 16, 413),
            ("/verifyReceipt", 100, 413), ("/v1/verify", 100, 413),
        ]
        for (path, chunks, status) in cases {
            let head =
                "POST \(path) HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nIdempotency-Key: k-\(UUID().uuidString)\r\nTransfer-Encoding: chunked"
            let answer = try RawHTTP.exchange(
                port: server.port, head: head, body: RawHTTP.chunked(chunks, of: 64 * 1024))
            #expect(answer.status == status, "\(path): \(answer.text.prefix(300))")
            #expect(answer.text.contains("payload_too_large"), "\(path)")
        }
        // A small chunked body is read normally.
        let head =
            "POST /v1/products HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked"
        let small = try RawHTTP.exchange(
            port: server.port, head: head, body: [Data("a\r\n{\"ids\":[]}\r\n0\r\n\r\n".utf8)])
        #expect(small.status == 200, "\(small.text.prefix(300))")
        let history = try await HTTP.send("GET", server.baseURL + "/v1/accounts/alice/transactions")
        #expect((history.json["transactions"] as? [Any])?.isEmpty == true)
    }

    /// Regression: a chunked body with a broken chunk size (a wrong length, or not hexadecimal) was
    /// answered 500 with the connection left open; it is 400 and the connection is closed.
    @Test func aMalformedChunkedBodyIs400AndClosesTheConnection() async throws {
        let server = try ServeProcess.start(db: scratchDirectory("storefront-serve"))
        defer { server.stop() }
        let bodies = ["b\r\n{\"ids\":[]}\r\n0\r\n\r\n", "zz\r\n{\"ids\":[]}\r\n0\r\n\r\n", "5\r\n{\"ids\r\n\r\n"]
        for path in ["/v1/products", "/v1/payments", "/verifyReceipt", "/v1/accounts/alice/restore"] {
            for body in bodies {
                let head =
                    "POST \(path) HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nIdempotency-Key: k-\(UUID().uuidString)\r\nTransfer-Encoding: chunked"
                let answer = try RawHTTP.exchange(
                    port: server.port, head: head, body: [Data(body.utf8)], untilClosed: true, timeout: 5)
                #expect(answer.status == 400, "\(path) \(body.debugDescription): \(answer.text.prefix(200))")
                #expect(answer.closed, "\(path) \(body.debugDescription): the connection stayed open")
            }
        }
        #expect(!server.stderr.contains(" 500 "))
        #expect(!server.stderr.contains("error"))
        #expect(try await HTTP.send("GET", server.baseURL + "/v1/health").status == 200)
    }
}
