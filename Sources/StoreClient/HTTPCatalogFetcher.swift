import AsyncHTTPClient
import NIOCore
import StoreKitModel

/// Catalog downloads (`--catalog https://…`, a store's `/v1/catalog`) over the process's one HTTP
/// client, the one remote stores use. `CatalogLoader` checks the URL and the status and decides on
/// retries; this only makes the request and reads the body up to the limit.
public struct HTTPCatalogFetcher: CatalogFetching {
    /// From the request to the last byte of the body, whatever the server does meanwhile (answers
    /// nothing, or a byte a second). A 60 MB catalog over a slow link needs most of a minute.
    public static let defaultTimeout = Duration.seconds(60)

    let timeout: Duration

    public init(timeout: Duration = defaultTimeout) {
        self.timeout = timeout
    }

    public func get(_ url: String, limit: Int) async throws -> CatalogFetchReply {
        // The shared client is made on first use: every command is handed a fetcher, and a catalog
        // read from a file must not pay for an HTTP client and its threads.
        let client = RemoteStore.sharedClient
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Accept", value: "application/json")
        request.headers.add(name: "User-Agent", value: "storefront")
        do {
            let request = request
            let timeout = timeout
            return try await withDeadline(timeout) {
                let response = try await client.execute(
                    request, timeout: .seconds(Int64(timeout.components.seconds) + 1))
                let status = Int(response.status.code)
                if let length = response.headers.first(name: "Content-Length").flatMap(Int.init), length > limit {
                    return .tooLarge(status: status)
                }
                do {
                    let buffer = try await response.body.collect(upTo: limit)
                    return .body(status: status, Array(buffer.readableBytesView))
                } catch is NIOTooManyBytesError {
                    return .tooLarge(status: status)
                }
            }
        } catch is DeadlineExceeded {
            throw FetchFailure(description: "no complete answer within \(timeout.components.seconds) s")
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw FetchFailure(description: transportErrorText(error))
        }
    }
}

/// A download that got no (complete) answer, in words; `CatalogLoader` shows it after "could not be downloaded: ".
struct FetchFailure: Error, CustomStringConvertible {
    let description: String
}
