import AsyncHTTPClient
import NIOCore
import StoreKitModel

/// Catalog downloads (`--catalog https://…`, a store's `/v1/catalog`) over the process's one HTTP
/// client, the one remote stores use. `CatalogLoader` checks the URL and the status and decides on
/// retries; this only makes the request and reads the body up to the limit.
public struct HTTPCatalogFetcher: CatalogFetching {
    /// From the request to the last byte of the body. A 60 MB catalog over a slow link needs minutes,
    /// not seconds; a server that does not answer at all is caught sooner by the client's 3 s connect timeout.
    static let deadline = TimeAmount.seconds(120)

    public init() {}

    public func get(_ url: String, limit: Int) async throws -> CatalogFetchReply {
        // The shared client is made on first use: every command is handed a fetcher, and a catalog
        // read from a file must not pay for an HTTP client and its threads.
        let client = RemoteStore.sharedClient
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Accept", value: "application/json")
        request.headers.add(name: "User-Agent", value: "storefront")
        do {
            let response = try await client.execute(request, timeout: Self.deadline)
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
