import Foundation
import Hummingbird
import LocalState
import NIOHTTP1
import StoreAPI
import StoreCore
import StoreEngine
import StoreSQL

/// A refusal with its HTTP status, rendered as `{"error": {"message", "code", "status", "field"}}`.
struct APIError: Error, Sendable {
    let status: HTTPResponse.Status
    let code: String
    let message: String
    var field: String?
    var headers: HTTPFields = [:]

    static func badRequest(_ message: String, field: String? = nil) -> APIError {
        APIError(status: .badRequest, code: "bad_request", message: message, field: field)
    }

    static func unauthorized(_ message: String) -> APIError {
        APIError(
            status: .unauthorized, code: "unauthorized", message: message,
            headers: [.wwwAuthenticate: "Bearer realm=\"storefront-admin\""])
    }

    static func notFound(_ message: String) -> APIError {
        APIError(status: .notFound, code: "not_found", message: message)
    }

    /// A known path with a method it does not have; `Allow` lists the ones it has.
    static func methodNotAllowed(_ method: String, _ path: String, allowed: [String]) -> APIError {
        APIError(
            status: .methodNotAllowed, code: "method_not_allowed",
            message: "\(method.prefix(20)) is not allowed on \(path); it allows \(allowed.joined(separator: ", "))",
            headers: [.allow: allowed.joined(separator: ", ")])
    }

    static func conflict(_ message: String, code: String = "conflict") -> APIError {
        APIError(status: .conflict, code: code, message: message)
    }

    static func tooLarge(limit: Int) -> APIError {
        APIError(
            status: .contentTooLarge, code: "payload_too_large",
            message: "the request body is larger than \(limit) bytes, the limit for this route")
    }

    static func unsupportedMediaType(_ found: String?) -> APIError {
        APIError(
            status: .unsupportedMediaType, code: "unsupported_media_type",
            message: "the body must be JSON sent with Content-Type: application/json"
                + (found.map { " (got \($0))" } ?? " (no Content-Type was sent)"))
    }

    static func invalid(_ message: String, field: String? = nil) -> APIError {
        APIError(status: .unprocessableContent, code: "invalid", message: message, field: field)
    }

    static func unavailable(_ message: String) -> APIError {
        APIError(status: .serviceUnavailable, code: "unavailable", message: message, headers: [.retryAfter: "1"])
    }

    static func `internal`(_ message: String) -> APIError {
        APIError(status: .internalServerError, code: "internal", message: message)
    }

    /// The engine's refusal with the status its kind calls for. A refusal of the request says
    /// what was wrong with it; a failure of the server (500, 503) is said in general words, since
    /// its message names what only the server's operator may see (files, hosts, users, SQL): the
    /// log gets that (`ErrorMiddleware`).
    init(_ failure: StoreFailure) {
        let failure = failure.namingServerOptions
        switch failure.kind {
        case .notFound: self = .notFound(failure.message)
        case .conflict: self = .conflict(failure.message)
        case .invalid: self = .invalid(failure.message)
        case .unavailable: self = .unavailable(PublicMessage.answer(failure))
        case .storage:
            self = APIError(
                status: .serviceUnavailable, code: "storage", message: PublicMessage.answer(failure),
                headers: [.retryAfter: "30"])
        case .failure: self = .internal(PublicMessage.answer(failure))
        }
    }

    init(status: HTTPResponse.Status, code: String, message: String, field: String? = nil, headers: HTTPFields = [:]) {
        self.status = status
        self.code = code
        self.message = message
        self.field = field
        self.headers = headers
    }

    var body: ErrorBody {
        ErrorBody(ErrorBody.Detail(message: message, code: code, status: status.code, field: field))
    }

    func response() -> Response {
        var response = JSONBody.response(body, status: status)
        for field in headers { response.headers.append(field) }
        return response
    }
}

/// Turns every error a route or Hummingbird throws into the JSON error shape; nothing escapes as
/// an empty 500. Unexpected errors are logged with their detail and answered without it.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    let allowed: AllowedMethods
    /// Storage failures met by reads are kept here too, for `/v1/health`.
    let storage: StorageHealth

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return error.response()
        } catch let error as HTTPParserError {
            // The request's framing is broken (a bad chunk size in a body being read): the
            // connection cannot carry another request. Hummingbird answers 400 and closes it when
            // this error reaches it; answered here, it became a 500 and the connection stayed open.
            throw error
        } catch let failure as StoreFailure {
            let answer = APIError(failure)
            if answer.status.code >= 500 {
                context.logger.error(
                    "\(request.method.rawValue) \(request.uri.path) \(answer.status.code) \(answer.code): \(failure.message)"
                )
            }
            storage.record(failure)
            return answer.response()
        } catch let error as any HTTPResponseError {
            switch error.status {
            case .notFound:
                let methods = allowed.methods(for: request.uri.path)
                guard methods.isEmpty else {
                    return APIError.methodNotAllowed(request.method.rawValue, request.uri.path, allowed: methods)
                        .response()
                }
                return APIError.notFound("no route \(request.method.rawValue) \(request.uri.path); see docs/api.md")
                    .response()
            case .contentTooLarge:
                return APIError(
                    status: .contentTooLarge, code: "payload_too_large", message: "the request body is too large"
                ).response()
            default:
                let status = error.status
                return APIError(
                    status: status, code: status.code >= 500 ? "internal" : "bad_request",
                    message: status.reasonPhrase.isEmpty ? "HTTP \(status.code)" : status.reasonPhrase
                ).response()
            }
        } catch is CancellationError {
            return APIError.unavailable("the server is shutting down; retry").response()
        } catch {
            context.logger.error("unexpected error: \(String(reflecting: error))")
            return APIError.internal("internal error; the server log has the details").response()
        }
    }
}

/// What an answer and `/v1/health` say of a server's own failure: what happened and what to do,
/// in words that name nothing of the server's (the failure's message, for the log, does).
enum PublicMessage {
    static func answer(_ failure: StoreFailure) -> String {
        if failure.shareable { return failure.message }
        return switch failure.kind {
        case .unavailable where failure.outcomeUnknown:
            "the store's database did not confirm this write in time: it may or may not have been recorded. "
                + "Retry with the same Idempotency-Key: a write that was recorded is answered as it was, never made twice"
        case .unavailable:
            "the store's database is busy or did not answer in time; nothing was recorded. Retry (Retry-After "
                + "says when); the server's log has the details"
        case .storage:
            "the store's storage failed (a full disk, a damaged file, or a database that cannot be reached or "
                + "refuses writes); nothing was recorded. Retry later; the server's log has the details, and "
                + "/v1/health says degraded until a write succeeds"
        default:
            "internal error; the server log has the details"
        }
    }

    /// Why `/v1/health` says degraded.
    static func reason(_ error: any Error) -> String {
        if let failure = error as? StoreFailure, failure.shareable { return failure.message }
        return switch (error as? StoreFailure)?.kind {
        case .unavailable?:
            "the database is busy or did not answer in time (slow, frozen, or its write lock held too long); "
                + "the server's log has the details"
        case .storage?:
            "the store's storage failed (a full disk, a damaged file, or a database that cannot be reached or "
                + "refuses writes); the server's log has the details"
        default:
            "the database could not be read; the server's log has the details"
        }
    }
}

/// JSON responses with one encoder configuration.
enum JSONBody {
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    static func data(_ value: some Encodable) -> Data {
        // Encoding the API's own value types cannot fail; an empty object is the safe fallback.
        (try? encoder().encode(value)) ?? Data("{}".utf8)
    }

    static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        response(bytes: data(value), status: status)
    }

    static func response(bytes: Data, status: HTTPResponse.Status) -> Response {
        response(buffer: ByteBuffer(bytes: bytes), status: status)
    }

    /// `buffer` as the body, shared with its other readers rather than copied.
    static func response(buffer: ByteBuffer, status: HTTPResponse.Status) -> Response {
        Response(
            status: status,
            headers: [.contentType: "application/json", .contentLength: String(buffer.readableBytes)],
            body: ResponseBody(byteBuffer: buffer))
    }
}
