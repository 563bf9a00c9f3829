import Foundation
import Synchronization
import Testing

@testable import StoreKitModel

/// What `CatalogLoader` does with each answer to a catalog download: which are retried, which end
/// it, and what the user reads. The transport is a script here; the CLI tests download over a real
/// HTTP server.
@Suite struct CatalogDownloadTests {
    struct Unreachable: Error, CustomStringConvertible {
        var description: String { "connection refused" }
    }

    /// Answers from a script, one per call, and remembers the URLs asked for.
    final class ScriptedFetcher: CatalogFetching {
        private let state: Mutex<(script: [Result<CatalogFetchReply, Unreachable>], asked: [String])>

        init(_ script: [Result<CatalogFetchReply, Unreachable>]) {
            state = Mutex((script, []))
        }

        var asked: [String] { state.withLock { $0.asked } }

        func get(_ url: String, limit: Int) async throws -> CatalogFetchReply {
            #expect(limit == CatalogLoader.maxBytes)
            let next = state.withLock { state in
                state.asked.append(url)
                return state.script.isEmpty ? .failure(Unreachable()) : state.script.removeFirst()
            }
            return try next.get()
        }
    }

    static let url = "http://127.0.0.1:9/products.json"
    static let catalog = CatalogFetchReply.body(status: 200, Array(SampleCatalog.text.utf8))
    static func decoded() throws -> Catalog { try CatalogLoader.decode(Array(SampleCatalog.text.utf8), source: url) }

    static func message(_ body: () async throws -> Catalog) async -> String {
        do {
            return "ok \(try await body().products.count)"
        } catch {
            return "\(error)"
        }
    }

    @Test func aCatalogIsDecodedFromTheBodyAndNamedByItsURL() async throws {
        let fetcher = ScriptedFetcher([.success(Self.catalog)])
        let catalog = try await CatalogLoader.load(from: Self.url, fetcher: fetcher)
        #expect(try catalog == Self.decoded())
        #expect(fetcher.asked == [Self.url])

        let broken = ScriptedFetcher([.success(.body(status: 200, Array("{\"format\": 7".utf8)))])
        let text = await Self.message { try await CatalogLoader.load(from: Self.url, fetcher: broken) }
        #expect(text.hasPrefix(Self.url + ":"))
    }

    @Test func aStatusThatDoesNotPassIsNotRetried() async {
        let fetcher = ScriptedFetcher([.success(.body(status: 404, [])), .success(Self.catalog)])
        let text = await Self.message {
            try await CatalogLoader.load(from: Self.url, retryingFor: .seconds(30), fetcher: fetcher)
        }
        #expect(text == "\(Self.url): the server answered HTTP 404; expected 200 with a JSON catalog")
        #expect(fetcher.asked.count == 1)
    }

    @Test func failuresThatPassAreRetriedWithinTheBudget() async throws {
        let fetcher = ScriptedFetcher([
            .success(.body(status: 503, [])), .failure(Unreachable()), .success(Self.catalog),
        ])
        // A budget no scheduling delay can use up: on a loaded CI machine the 0.6 s of backoff took
        // 94 s of wall time once, and a 30 s budget ran out. The rule is tested, not the clock.
        let catalog = try await CatalogLoader.load(from: Self.url, retryingFor: .seconds(86_400), fetcher: fetcher)
        #expect(try catalog == Self.decoded())
        #expect(fetcher.asked.count == 3)
    }

    @Test func withoutABudgetTheFirstFailureIsTheAnswer() async {
        let unreachable = ScriptedFetcher([.failure(Unreachable()), .success(Self.catalog)])
        let text = await Self.message { try await CatalogLoader.load(from: Self.url, fetcher: unreachable) }
        #expect(text == "\(Self.url): could not be downloaded: connection refused")
        #expect(unreachable.asked.count == 1)

        let busy = ScriptedFetcher([.success(.body(status: 503, [])), .success(Self.catalog)])
        let busyText = await Self.message { try await CatalogLoader.load(from: Self.url, fetcher: busy) }
        #expect(busyText == "\(Self.url): the server answered HTTP 503; expected 200 with a JSON catalog")
    }

    @Test func aBodyOverTheLimitIsRefusedAndNotRetried() async {
        let fetcher = ScriptedFetcher([.success(.tooLarge(status: 200)), .success(Self.catalog)])
        let text = await Self.message {
            try await CatalogLoader.load(from: Self.url, retryingFor: .seconds(30), fetcher: fetcher)
        }
        #expect(text == "\(Self.url): the response is larger than 256 MB; that is not a catalog")
        #expect(fetcher.asked.count == 1)
    }

    @Test(arguments: ["http://", "https:///products.json", "http://exa mple.com/x"])
    func aURLWithoutAHostIsNeverFetched(_ location: String) async {
        let fetcher = ScriptedFetcher([.success(Self.catalog)])
        let text = await Self.message { try await CatalogLoader.load(from: location, fetcher: fetcher) }
        #expect(text == "\(location): is not a valid URL")
        #expect(fetcher.asked.isEmpty)
    }

    @Test func withoutAFetcherAURLIsRefusedByName() async throws {
        let text = await Self.message { try await CatalogLoader.load(from: Self.url, fetcher: nil) }
        #expect(text == "\(Self.url): cannot be downloaded here; pass the path of a local file")
        let bytes = try await CatalogLoader.bytes(from: Self.url, fetcher: ScriptedFetcher([.success(Self.catalog)]))
        #expect(bytes == Array(SampleCatalog.text.utf8))
    }
}
