import Foundation
import Hummingbird
import Logging

/// One log line per request: method, path (never the query or headers, so no token or receipt
/// reaches the log), status and duration.
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        // What a request cost is real time on the monotonic clock, whatever the store's clock says.
        let start = ContinuousClock.now
        let response: Response
        do {
            response = try await next(request, context)
        } catch {
            // Only a broken HTTP framing gets past ErrorMiddleware; Hummingbird answers it 400 and closes.
            context.logger.info(
                "\(request.method.rawValue) \(request.uri.path) 400 \(Self.milliseconds(since: start))ms (malformed HTTP, connection closed)"
            )
            throw error
        }
        context.logger.info(
            "\(request.method.rawValue) \(request.uri.path) \(response.status.code) \(Self.milliseconds(since: start))ms"
        )
        return response
    }

    static func milliseconds(since start: ContinuousClock.Instant) -> String {
        let elapsed = ContinuousClock.now - start
        return String(
            format: "%.1f", Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
    }
}

/// `/admin` requires `Authorization: Bearer <token>`, compared in constant time; 401 otherwise.
struct AdminAuthMiddleware<Context: RequestContext>: RouterMiddleware {
    let token: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard let header = request.headers[.authorization] else {
            throw APIError.unauthorized(
                "/admin needs Authorization: Bearer <admin token> (printed by storefront serve at start, or its --admin-token)"
            )
        }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer",
            ConstantTime.equal(parts[1].trimmingCharacters(in: .whitespaces), token)
        else {
            throw APIError.unauthorized(
                "the admin token is wrong; use the one storefront serve printed at start, or its --admin-token")
        }
        return try await next(request, context)
    }
}
