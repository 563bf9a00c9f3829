import Foundation
import GRDB
import HTTPTypes
import HummingbirdTesting
import LocalState
import StoreCore
import TestSupport
import Testing

@testable import StoreEngine

/// A full disk, played by SQLite's page limit on the writer: payments are refused with 503 and
/// Retry-After and a message saying what happened and what to do (the file and SQLite's words go
/// to the server's log, not to clients), health says degraded with the reason, and both recover
/// with the first write that reaches the disk. Before, the answer was a 500 with a bare "SQLite
/// error 13" while health said ok.
@Suite struct StorageFailureTests {
    /// Caps (or lifts) the store file's size, as a full disk would.
    func limit(_ fixture: ServerFixture, pages: Int?) async throws {
        let store = fixture.service.store
        try await store.database.pool.writeWithoutTransaction { db in
            let current = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            try db.execute(sql: "PRAGMA max_page_count = \(pages.map { _ in current } ?? 1_073_741_823)")
        }
    }

    @Test(.disabled(if: StoreFixture.onPostgres, "works on the SQLite file under the store"))
    func aFullDiskIsA503AndDegradedHealthUntilAWriteSucceeds() async throws {
        let fixture = try await ServerFixture()
        try await limit(fixture, pages: 0)
        try await fixture.test { client in
            var refused: TestResponse?
            // Pages already allocated take a few payments before the file must grow.
            for _ in 0..<2000 {
                let response = try await client.pay(ServerFixture.gems)
                if response.status != .created {
                    refused = response
                    break
                }
            }
            let response = try #require(refused, "the capped file never refused a payment")
            #expect(response.status == .serviceUnavailable)
            #expect(response.headers[.retryAfter] == "30")
            let error = try #require(
                (try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])?["error"]
                    as? [String: Any])
            #expect(error["code"] as? String == "storage")
            let message = error["message"] as? String ?? ""
            #expect(message.contains("storage failed") && message.contains("Retry later"), "\(message)")
            #expect(!message.contains(fixture.directory.path), "\(message)")

            let degraded = try await client.send(.get, "/v1/health")
            #expect(degraded.status == .serviceUnavailable)
            let health = try #require(
                try JSONSerialization.jsonObject(with: Data(buffer: degraded.body)) as? [String: Any])
            #expect(health["status"] as? String == "degraded")
            let reason = health["reason"] as? String ?? ""
            #expect(reason.contains("storage failed") && !reason.contains(fixture.directory.path), "\(health)")

            try await limit(fixture, pages: nil)
            #expect(try await client.pay(ServerFixture.gems).status == .created)
            let recovered = try await client.object(.get, "/v1/health")
            #expect(recovered["status"] as? String == "ok" && recovered["reason"] == nil)
        }
    }
}
