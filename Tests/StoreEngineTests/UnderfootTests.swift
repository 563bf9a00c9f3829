import Foundation
import StoreCore
import TestSupport
import Testing

@testable import StoreEngine

/// A server's store changed under it is retired, not served: another store in its place, or its
/// transaction numbering gone back (a backup restored under the running server).
@Suite struct UnderfootTests {
    /// The store's tables through a second handle, as another process (a restore, psql) reaches them.
    static func other(_ fixture: StoreFixture) throws -> StoreDatabase {
        try StoreFixture.database(in: fixture.directory)
    }

    @Test func numberingThatWentBackRetiresTheStore() async throws {
        let fixture = try StoreFixture()
        _ = try await fixture.buy(StoreFixture.gems)
        try await fixture.store.checkUnderfoot()
        _ = try await fixture.buy(StoreFixture.gems)
        try await fixture.store.checkUnderfoot()
        #expect(fixture.store.storageHealth.problem == nil)
        try Self.other(fixture).writeNow { try StoreDatabase.setSetting($0, StoreDatabase.nextTransactionNumber, "2") }
        try await fixture.store.checkUnderfoot()
        let reason = try #require(fixture.store.storageHealth.retired)
        #expect(reason.contains("restored from a backup under this server"), "\(reason)")
        #expect(fixture.store.storageHealth.problem == reason)
        await #expect(throws: StoreFailure.self) { _ = try await fixture.store.transactions(account: nil) }
        do {
            _ = try await fixture.buy(StoreFixture.gems)
            Issue.record("a retired store took a payment")
        } catch let failure as StoreFailure {
            #expect(failure.kind == .unavailable)
            #expect(failure.message == reason)
        }
    }

    @Test func anotherStoreInItsPlaceRetiresTheStore() async throws {
        let fixture = try StoreFixture()
        try await fixture.store.checkUnderfoot()
        try Self.other(fixture).writeNow { try StoreDatabase.setSetting($0, "store_id", "another-store") }
        try await fixture.store.checkUnderfoot()
        let reason = try #require(fixture.store.storageHealth.retired)
        #expect(reason.contains("now another-store"), "\(reason)")
    }

    @Test func numberingThatOnlyRoseKeepsTheStore() async throws {
        let fixture = try StoreFixture()
        for _ in 0..<3 {
            _ = try await fixture.buy(StoreFixture.gems)
            try await fixture.store.checkUnderfoot()
        }
        #expect(fixture.store.storageHealth.problem == nil)
    }
}
