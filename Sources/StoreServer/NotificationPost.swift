import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL
import ServerRecords
import StoreCore

/// One delivery attempt: the POST of `{"signedPayload"}` and how it ended, in Apple's terms.
enum NotificationPost {
    struct Outcome: Sendable {
        let result: SendAttemptResult
        let status: Int?
        let detail: String?
    }

    static func send(_ signedPayload: String, to url: String, client: HTTPClient, timeout: Duration) async -> Outcome {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "storefront-notifications")
        request.body = .bytes(ByteBuffer(data: JSONBody.data(NotificationBody(signedPayload: signedPayload))))
        do {
            let response = try await client.execute(
                request,
                timeout: TimeAmount.nanoseconds(
                    Int64(timeout.components.seconds) * 1_000_000_000
                        + timeout.components.attoseconds / 1_000_000_000))
            // The answer's body is not read for meaning, only drained, and not without bound.
            _ = try? await response.body.collect(upTo: 64 * 1024)
            let status = Int(response.status.code)
            guard (200..<300).contains(status) else {
                return Outcome(result: .unsuccessfulHTTPResponseCode, status: status, detail: "HTTP \(status)")
            }
            return Outcome(result: .success, status: status, detail: nil)
        } catch {
            return outcome(of: error)
        }
    }

    static func outcome(of error: any Error) -> Outcome {
        if let client = error as? HTTPClientError {
            switch client {
            case .connectTimeout, .deadlineExceeded, .readTimeout, .writeTimeout, .tlsHandshakeTimeout:
                return Outcome(result: .timedOut, status: nil, detail: "no answer in time (\(client))")
            case .remoteConnectionClosed:
                return Outcome(
                    result: .prematureClose, status: nil, detail: "the receiver closed the connection before answering")
            case .redirectCycleDetected, .redirectLimitReached:
                return Outcome(result: .circularRedirect, status: nil, detail: "redirected in a circle")
            default:
                return Outcome(result: .invalidResponse, status: nil, detail: String(describing: client))
            }
        }
        if error is NIOSSLError {
            return Outcome(result: .tlsIssue, status: nil, detail: "TLS failed: \(error)")
        }
        if let io = error as? IOError {
            return Outcome(
                result: .socketIssue, status: nil,
                detail: String(cString: strerror(io.errnoCode)).lowercased() + " (errno \(io.errnoCode))")
        }
        if error is ChannelError {
            return Outcome(result: .noResponse, status: nil, detail: String(describing: error))
        }
        return Outcome(result: .other, status: nil, detail: String(describing: error))
    }
}
