import Foundation
import HTTPTypes
import Hummingbird
import LocalState
import StoreCore
import StoreServer
import Testing

/// docs/api.md documents every route under a `### \`METHOD /path\`` heading and docs/openapi.json
/// describes every route under `paths`; the router must have exactly those routes, no more and no fewer.
@Suite struct APIDocTests {
    static func routerRoutes() async throws -> Set<String> {
        let fixture = try await ServerFixture()
        return Set(StoreRoutes.router(fixture.service).routes.map { "\($0.method.rawValue) \($0.path)" })
    }

    static func openAPI() throws -> [String: Any] {
        let data = try Data(contentsOf: ServerFixture.repositoryRoot.appendingPathComponent("docs/openapi.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static let methods = ["get", "put", "post", "delete", "patch", "head", "options", "trace"]

    /// "METHOD /path" for every operation of an OpenAPI document, with the operation itself.
    static func operations(_ document: [String: Any]) -> [String: [String: Any]] {
        var found: [String: [String: Any]] = [:]
        for (path, item) in document["paths"] as? [String: [String: Any]] ?? [:] {
            for (method, operation) in item where methods.contains(method) {
                found["\(method.uppercased()) \(path)"] = operation as? [String: Any] ?? [:]
            }
        }
        return found
    }

    @Test func documentedRoutesAreTheRoutersRoutes() async throws {
        let text = try String(
            contentsOf: ServerFixture.repositoryRoot.appendingPathComponent("docs/api.md"), encoding: .utf8)
        let documented = Set(
            text.split(separator: "\n").compactMap { line -> String? in
                guard let match = line.wholeMatch(of: /### `([A-Z]+) (\/[^`]*)`/) else { return nil }
                return "\(match.1) \(match.2)"
            })
        let routes = try await Self.routerRoutes()
        #expect(!routes.isEmpty)
        #expect(documented.subtracting(routes).sorted() == [], "documented but not routed")
        #expect(routes.subtracting(documented).sorted() == [], "routed but not documented")
    }

    @Test func openAPIOperationsAreTheRoutersRoutes() async throws {
        let operations = Set(Self.operations(try Self.openAPI()).keys)
        let routes = try await Self.routerRoutes()
        #expect(!routes.isEmpty)
        #expect(operations.subtracting(routes).sorted() == [], "in docs/openapi.json but not routed")
        #expect(routes.subtracting(operations).sorted() == [], "routed but not in docs/openapi.json")
    }

    /// Every /admin operation requires the admin token and every /inApps one Apple's bearer JWT,
    /// and no other does; every operation has a success response; every error response is the
    /// JSON error shape: this server's, or Apple's under /inApps (whose 401 is plain text, as Apple's).
    @Test func openAPIDescribesSecurityAndErrors() throws {
        let document = try Self.openAPI()
        #expect((document["openapi"] as? String)?.hasPrefix("3.") == true)
        let responses = (document["components"] as? [String: Any])?["responses"] as? [String: [String: Any]] ?? [:]
        for (name, operation) in Self.operations(document) {
            let security = operation["security"] as? [[String: Any]]
            let path = name.split(separator: " ")[1]
            let admin = path.hasPrefix("/admin/")
            let appStore = path.hasPrefix("/inApps/")
            #expect(
                security.map { $0.contains { $0["adminToken"] != nil } } ?? false == admin,
                "\(name): security \(String(describing: security))")
            #expect(
                security.map { $0.contains { $0["appStoreServerAPI"] != nil } } ?? false == appStore,
                "\(name): security \(String(describing: security))")
            let statuses = (operation["responses"] as? [String: Any]) ?? [:]
            #expect(statuses.keys.contains { $0.hasPrefix("2") }, "\(name) has no success response")
            if admin || appStore { #expect(statuses["401"] != nil, "\(name) does not document 401") }
            // Health's 503 is its own answer, degraded with the reason, for whoever polls it.
            for (status, response) in statuses
            where (status.hasPrefix("4") || status.hasPrefix("5")) && !(name == "GET /v1/health" && status == "503") {
                if appStore && status == "401" { continue }
                let reference = (response as? [String: Any])?["$ref"] as? String ?? ""
                let resolved = responses[String(reference.split(separator: "/").last ?? "")]
                let schema =
                    ((resolved?["content"] as? [String: Any])?["application/json"] as? [String: Any])?["schema"]
                    as? [String: Any]
                #expect(
                    schema?["$ref"] as? String
                        == (appStore ? "#/components/schemas/AppStoreError" : "#/components/schemas/Error"),
                    "\(name) \(status)")
            }
        }
    }
}
