import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import StoreAPI
import StoreCore

/// How hard the client tries before it reports the store unreachable.
public struct RetryPolicy: Sendable {
    /// Time allowed for one request (a long poll adds its wait to this).
    public var requestTimeout: Duration
    /// First pause after a failure; doubled each time up to `maxDelay`, with jitter.
    public var baseDelay: Duration
    public var maxDelay: Duration
    /// Total time spent retrying one call before giving up.
    public var budget: Duration

    public init(
        requestTimeout: Duration = .seconds(10), baseDelay: Duration = .milliseconds(200),
        maxDelay: Duration = .seconds(5), budget: Duration = .seconds(30)
    ) {
        self.requestTimeout = requestTimeout
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.budget = budget
    }

    public static let standard = RetryPolicy()

    /// The pause before retry number `attempt` (1-based): exponential with ±20 % jitter.
    public func delay(afterFailures attempt: Int) -> Duration {
        let exponent = min(max(attempt - 1, 0), 16)
        let base = min(baseDelay * (1 << exponent), maxDelay)
        return base * Double.random(in: 0.8...1.2)
    }
}

/// One HTTP exchange with the server: retried with backoff on transport failures and on 502,
/// 503 and 504, carrying the same headers (and so the same Idempotency-Key) every time.
struct HTTPTransport: Sendable {
    let baseURL: String
    let adminToken: String?
    let policy: RetryPolicy
    let client: HTTPClient

    struct Reply: Sendable {
        let status: Int
        let body: Data
    }

    // The methods as HTTP spells them, on the wire and in messages.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    enum Method: String, Sendable {
        case GET, POST, PUT, DELETE

        var nio: HTTPMethod {
            switch self {
            case .GET: .GET
            case .POST: .POST
            case .PUT: .PUT
            case .DELETE: .DELETE
            }
        }
    }

    /// Sends until an answer comes (any status but 502/503/504) or the budget is spent.
    func send(
        _ method: Method, _ path: String, body: Data? = nil, idempotencyKey: String? = nil, admin: Bool = false,
        extraTimeout: Duration = .zero, retry: Bool = true
    ) async throws -> Reply {
        let start = ContinuousClock.now
        var failures = 0
        while true {
            let outcome: Result<Reply, any Error>
            do {
                outcome = .success(
                    try await once(
                        method, path, body: body, idempotencyKey: idempotencyKey, admin: admin,
                        timeout: attemptTimeout(extraTimeout, since: start, retry: retry)))
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                outcome = .failure(error)
            }
            if case .success(let reply) = outcome, ![502, 503, 504].contains(reply.status) { return reply }
            failures += 1
            let delay = policy.delay(afterFailures: failures)
            guard retry, ContinuousClock.now + delay - start < policy.budget else {
                switch outcome {
                case .success(let reply): return reply
                case .failure(let error): throw unreachable(error, retried: retry)
                }
            }
            try await Task.sleep(for: delay)
        }
    }

    /// One attempt's time: the request's own, but never past the end of the call's budget. A
    /// server that accepted the connection and went silent (stopped, or its database frozen) is
    /// then "unreachable" when the budget ends, not a whole request timeout later.
    func attemptTimeout(_ extra: Duration, since start: ContinuousClock.Instant, retry: Bool) -> Duration {
        let own = policy.requestTimeout + extra
        guard retry, policy.budget > .zero else { return own }
        let left = policy.budget - (ContinuousClock.now - start)
        return max(min(own, left), .milliseconds(100))
    }

    func unreachable(_ error: any Error, retried: Bool = true) -> StoreFailure {
        let seconds = policy.budget / .seconds(1)
        let whole = seconds == seconds.rounded()
        let tried =
            retried && seconds > 0
            ? " (tried for \(whole ? String(Int(seconds)) : String(format: "%.1f", seconds)) s; "
                + "STOREFRONT_RETRY_SECONDS sets how long)" : ""
        return StoreFailure(
            "store unreachable at \(baseURL): \(transportErrorText(error))\(tried); is `storefront serve` running?",
            kind: .unavailable)
    }

    private func once(
        _ method: Method, _ path: String, body: Data?, idempotencyKey: String?, admin: Bool, timeout: Duration
    ) async throws -> Reply {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = method.nio
        request.headers.add(name: "Accept", value: "application/json")
        request.headers.add(name: "User-Agent", value: "storefront-remote-store")
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        if let idempotencyKey { request.headers.add(name: API.idempotencyKeyHeader, value: idempotencyKey) }
        if admin, let adminToken { request.headers.add(name: "Authorization", value: "Bearer \(adminToken)") }
        let milliseconds = timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000
        let prepared = request
        // The client's own timeout ends a silent wait for the head; the deadline also ends a body
        // that trickles in.
        return try await withDeadline(timeout) { [client] in
            let response = try await client.execute(prepared, timeout: .milliseconds(milliseconds))
            let buffer = try await response.body.collect(upTo: 64 * 1024 * 1024)
            return Reply(status: Int(response.status.code), body: Data(buffer.readableBytesView))
        }
    }
}
