import Foundation

/// The one HTTP GET a catalog download needs, made by whoever has a network stack.
///
/// StoreKitModel has none on purpose: Foundation's URLSession would link FoundationNetworking, and
/// with it libcurl and some thirty system libraries, into every start of the executable (about 15 ms
/// of dynamic loading, paid by `storefront --help` too). The executable hands in a fetcher built on
/// the HTTP client it already has for remote stores (`StoreClient.HTTPCatalogFetcher`).
public protocol CatalogFetching: Sendable {
    /// GETs `url` asking for JSON, and reads at most `limit` bytes of its body. Throws when no answer
    /// came (no connection, a connection lost, a timeout): such a failure may pass, so it is retried.
    /// The error's description is shown to the user after "could not be downloaded: ".
    func get(_ url: String, limit: Int) async throws -> CatalogFetchReply
}

/// What a server answered to a catalog GET.
public enum CatalogFetchReply: Sendable, Equatable {
    /// The status and the whole body.
    case body(status: Int, [UInt8])
    /// The status, and a body (or a Content-Length) over the limit, which was not read on.
    case tooLarge(status: Int)
}

extension CatalogLoader {
    /// An `http://` or `https://` location, whatever its case.
    public static func isURL(_ location: String) -> Bool {
        let lower = location.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    /// The catalog at `location`, tried again with backoff while failures that pass (no answer,
    /// HTTP 502, 503, 504) keep coming and `budget` lasts.
    static func download(
        _ location: String, retryingFor budget: Duration = .zero,
        fetcher: (any CatalogFetching)?
    ) async throws -> [UInt8] {
        guard let fetcher else {
            throw CatalogError(source: location, message: "cannot be downloaded here; pass the path of a local file")
        }
        let start = ContinuousClock.now
        var delay = Duration.milliseconds(200)
        while true {
            do {
                return try await downloadOnce(location, fetcher: fetcher)
            } catch let failure as DownloadFailure {
                guard failure.passes, ContinuousClock.now + delay - start < budget else {
                    var error = failure.error
                    error.unreachable = failure.passes
                    throw error
                }
                try await Task.sleep(for: delay)
                delay = min(delay * 2, .seconds(5))
            }
        }
    }

    /// A failed download, and whether trying again later may succeed.
    struct DownloadFailure: Error {
        let error: CatalogError
        let passes: Bool
    }

    private static func downloadOnce(_ location: String, fetcher: any CatalogFetching) async throws -> [UInt8] {
        guard let url = URL(string: location), url.host != nil else {
            throw DownloadFailure(error: CatalogError(source: location, message: "is not a valid URL"), passes: false)
        }
        let reply: CatalogFetchReply
        do {
            reply = try await fetcher.get(url.absoluteString, limit: maxBytes)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw DownloadFailure(
                error: CatalogError(source: location, message: "could not be downloaded: \(error)"), passes: true)
        }
        let status: Int
        let body: [UInt8]?
        switch reply {
        case .body(let code, let bytes): (status, body) = (code, bytes)
        case .tooLarge(let code): (status, body) = (code, nil)
        }
        guard (200..<300).contains(status) else {
            throw DownloadFailure(
                error: CatalogError(
                    source: location, message: "the server answered HTTP \(status); expected 200 with a JSON catalog"),
                passes: [502, 503, 504].contains(status))
        }
        guard let body else {
            throw DownloadFailure(
                error: CatalogError(
                    source: location,
                    message: "the response is larger than \(maxBytes / 1_048_576) MB; that is not a catalog"),
                passes: false)
        }
        return body
    }
}
