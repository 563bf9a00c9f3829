import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LocalState
import Logging
import StoreCore
import StoreServer
import Testing

/// Everything the server logs, at every level down to trace, with metadata.
final class LogCapture: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    func append(_ line: String) {
        lock.withLock { lines.append(line) }
    }

    var text: String { lock.withLock { lines.joined(separator: "\n") } }

    var logger: Logger {
        var logger = Logger(label: "storefront.capture") { _ in Handler(capture: self) }
        logger.logLevel = .trace
        return logger
    }

    struct Handler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { _, new in new }
            let error = event.error.map { " error=\(String(reflecting: $0))" } ?? ""
            capture.append(
                "\(event.level) \(event.message) \(all.map { "\($0)=\($1)" }.sorted().joined(separator: " "))\(error)")
        }
    }
}

/// In process, at trace level: the admin token, the shared secret and the JWS signing key never
/// reach the log, whatever a request carries (the real binary's output is checked by ServeSecretsTests).
@Suite struct SecretLoggingTests {
    @Test func noSecretIsLoggedEvenAtTraceLevel() async throws {
        let secret = "shared-secret-\(UUID().uuidString)"
        let fixture = try await ServerFixture(sharedSecret: secret)
        let bought = try await fixture.buy(ServerFixture.monthly)
        let receipt = try #require(bought.receipt)
        let capture = LogCapture()
        let token = ServerFixture.token
        try await StoreHTTPServer.application(fixture.service, logger: capture.logger).test(.router) { client in
            for header in ["Bearer \(token.dropLast())", "Bearer \(token)x", "Basic \(token)", "Bearer \(token)"] {
                _ = try await client.send(.get, "/admin/transactions", headers: ["Authorization": header])
                _ = try await client.send(
                    .put, "/admin/controls", json: #"{"verification":"oops"}"#, headers: ["Authorization": header])
            }
            for password in [secret, String(secret.dropLast()), "wrong"] {
                _ = try await client.send(
                    .post, "/verifyReceipt", json: #"{"receipt-data":"\#(receipt)","password":"\#(password)"}"#)
            }
            _ = try await client.send(.post, "/v1/payments", json: "{", headers: ["Idempotency-Key": "k"])
            _ = try await client.send(.get, "/nowhere")
        }
        let log = capture.text
        #expect(log.contains("/admin/transactions"), "the requests were logged: \(log.prefix(500))")
        let jwsKey = try await fixture.service.store.signing.transactionSigningKey(create: { Data() })
        for value in [
            token, String(token.dropLast()), secret, String(secret.dropLast()), jwsKey.base64EncodedString(),
            jwsKey.map { String(format: "%02x", $0) }.joined(), receipt,
        ] {
            #expect(!log.contains(value), "a secret reached the log (\(value.prefix(6))…)")
        }
    }
}
