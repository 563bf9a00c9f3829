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

    /// The engine's refusal with the status its kind calls for.
    init(_ failure: StoreFailure) {
        let failure = failure.namingServerOptions
        switch failure.kind {
        case .notFound: self = .notFound(failure.message)
        case .conflict: self = .conflict(failure.message)
        case .invalid: self = .invalid(failure.message)
        case .unavailable: self = .unavailable(failure.message)
        case .storage:
            self = APIError(
                status: .serviceUnavailable, code: "storage", message: failure.message, headers: [.retryAfter: "30"])
        case .failure: self = .internal(failure.message)
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
            if failure.kind == .failure || failure.kind == .storage {
                context.logger.error("store failure: \(failure.message)")
            }
            storage.record(failure)
            return APIError(failure).response()
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
