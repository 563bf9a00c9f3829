import AsyncHTTPClient
import Foundation
import NIOCore

/// A transport failure as a user reads it: "connection refused", not NIO's
/// "connection reset (error set): Connection refused) (errno: 111)".
func transportErrorText(_ error: any Error) -> String {
    if error is DeadlineExceeded { return "no answer in the time allowed" }
    if let io = error as? IOError {
        return String(cString: strerror(io.errnoCode)).lowercased() + " (errno \(io.errnoCode))"
    }
    if let client = error as? HTTPClientError {
        switch client {
        case .connectTimeout: return "no connection within the connect timeout"
        case .deadlineExceeded: return "no complete answer before the request's deadline"
        case .readTimeout: return "the server stopped sending"
        case .remoteConnectionClosed: return "the server closed the connection before answering"
        case .tlsHandshakeTimeout: return "the TLS handshake timed out"
        case .redirectLimitReached, .redirectCycleDetected: return "too many redirects"
        default: return String(describing: client)
        }
    }
    return String(describing: error)
}
