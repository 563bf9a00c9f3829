import Foundation
import HTTPTypes
import Hummingbird
import StoreServer
import Testing

/// docs/api.md documents every route under a `### \`METHOD /path\`` heading; the router must have
/// exactly those routes, no more and no fewer.
@Suite struct APIDocTests {
    @Test func documentedRoutesAreTheRoutersRoutes() async throws {
        let fixture = try await ServerFixture()
        let text = try String(contentsOf: ServerFixture.repositoryRoot.appendingPathComponent("docs/api.md"), encoding: .utf8)
        let documented = Set(text.split(separator: "\n").compactMap { line -> String? in
            guard let match = line.wholeMatch(of: /### `([A-Z]+) (\/[^`]*)`/) else { return nil }
            return "\(match.1) \(match.2)"
        })
        let routes = Set(StoreRoutes.router(fixture.service).routes.map { "\($0.method.rawValue) \($0.path)" })
        #expect(!routes.isEmpty)
        #expect(documented.subtracting(routes).sorted() == [], "documented but not routed")
        #expect(routes.subtracting(documented).sorted() == [], "routed but not documented")
    }
}
