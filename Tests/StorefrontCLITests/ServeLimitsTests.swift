import Foundation
import Testing
import TestSupport

/// What `storefront serve` does with clients that are slow or silent. The limits are set small
/// here so each case is quick; the bounds on waiting are safety nets, not measurements.
@Suite struct ServeLimitsTests {
    static let receiptHead = "POST /verifyReceipt HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"

    static func error(_ answer: RawHTTP.Answer) -> [String: Any] {
        guard let start = answer.bytes.firstRange(of: Data("\r\n\r\n".utf8)),
              let json = try? JSONSerialization.jsonObject(with: answer.bytes[start.upperBound...]) as? [String: Any] else { return [:] }
        return json["error"] as? [String: Any] ?? [:]
    }

    /// A connection that sends nothing, first or after an answer, is closed after --idle-timeout.
    @Test func aConnectionThatSendsNothingIsClosedAfterTheIdleTimeout() async throws {
        let server = try ServeProcess.start(db: scratchDirectory("storefront-serve"), arguments: ["--idle-timeout", "2"])
        defer { server.stop() }
        let silent = try HeldConnection(port: server.port)
        let answered = try HeldConnection(port: server.port)
        answered.send("GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(answered.answer().status == 200)
        let first = silent.answer(untilClosed: true)
        #expect(first.closed && first.bytes.isEmpty, "\(first.text.prefix(200))")
        let after = answered.answer(untilClosed: true)
        #expect(after.closed && after.bytes.isEmpty, "\(after.text.prefix(200))")
        #expect(try await HTTP.send("GET", server.baseURL + "/v1/health").status == 200)
    }

    /// Slowloris: a head sent a byte at a time is answered 408 and closed once --request-timeout has
    /// passed since its first byte, although each byte came well within the idle timeout.
    @Test func aRequestHeadSentAByteAtATimeIsAnswered408() async throws {
        let server = try ServeProcess.start(db: scratchDirectory("storefront-serve"), arguments: ["--request-timeout", "1", "--idle-timeout", "60"])
        defer { server.stop() }
        let connection = try HeldConnection(port: server.port)
        let head = "GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Slow: " + String(repeating: "a", count: 300)
        let (answer, sent) = connection.trickle(Data(head.utf8))
        #expect(sent < 300, "the whole head was accepted a byte at a time")
        #expect(answer.status == 408, "\(answer.text.prefix(300))")
        #expect(Self.error(answer)["code"] as? String == "request_timeout")
        #expect(answer.closed)
    }

    /// Slowloris on the body: the same, with the head sent at once and the body trickled.
    @Test func aRequestBodySentAByteAtATimeIsAnswered408() async throws {
        let server = try ServeProcess.start(db: scratchDirectory("storefront-serve"), arguments: ["--request-timeout", "1", "--idle-timeout", "60"])
        defer { server.stop() }
        for head in [Self.receiptHead + "\r\nContent-Length: 400", Self.receiptHead + "\r\nTransfer-Encoding: chunked"] {
            let connection = try HeldConnection(port: server.port)
            connection.send(head + "\r\n\r\n" + (head.contains("chunked") ? "190\r\n" : ""))
            let (answer, sent) = connection.trickle(Data(String(repeating: " ", count: 300).utf8))
            #expect(sent < 300, "\(head): the whole body was accepted a byte at a time")
            #expect(answer.status == 408, "\(head): \(answer.text.prefix(300))")
            #expect(Self.error(answer)["code"] as? String == "request_timeout", "\(head)")
            #expect(answer.closed, "\(head)")
        }
        #expect(try await HTTP.send("GET", server.baseURL + "/v1/health").status == 200)
    }

    /// Every limit is a flag whose value is checked: a bad one is a usage error (exit 2) naming the
    /// flag, the value and what is expected, before anything is opened.
    @Test func badLimitValuesAreUsageErrors() throws {
        let cases: [([String], String)] = [
            (["--request-timeout", "0"], "--request-timeout 0: expected"),
            (["--request-timeout", "nan"], "--request-timeout nan: expected"),
            (["--idle-timeout", "99999"], "--idle-timeout 99999: expected"),
        ]
        let db = scratchDirectory("storefront-serve")
        for (arguments, message) in cases {
            let result = try Executable.run(["serve", "--port", "0", "--db", db.path] + arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            #expect(!result.stdout.contains("listening"), "\(arguments)")
        }
    }

    /// `serve --help` names every limit with its default.
    @Test func helpDocumentsEveryLimitAndItsDefault() throws {
        let entries = Self.optionEntries(try Executable.run(["serve", "--help"]).stdout)
        for (flag, value) in [("--request-timeout", "30"), ("--idle-timeout", "75")] {
            let entry = entries.first { $0.hasPrefix(flag + " ") }
            #expect(entry?.contains("(default: \(value))") == true, "\(flag): \(entry ?? "missing from serve --help")")
        }
    }

    /// The options of a help text, one string each, with their wrapped lines joined.
    static func optionEntries(_ help: String) -> [String] {
        var entries: [String] = []
        for line in help.split(separator: "\n") {
            let text = line.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("  -") {
                entries.append(text)
            } else if line.hasPrefix("   "), !entries.isEmpty {
                entries[entries.count - 1] += " " + text
            }
        }
        return entries
    }
}
