import Foundation
import StoreCore
import StoreEngine
import StoreKitModel
import TestSupport
import Testing

/// Finish Transaction: a developer's server finishes what the app left unfinished.
@Suite struct ServerFinishTests {
    @Test func aServerFinishesWhatTheAppLeftInTheQueue() async throws {
        let fixture = try StoreFixture()
        let bought = try await fixture.buy(StoreFixture.gems)
        #expect(try await fixture.store.unfinished(account: "alice").map(\.transaction.id) == [bought.transaction.id])
        #expect(try await fixture.store.serverAPI.finishFromServer(transactionId: bought.transaction.id))
        #expect(try await fixture.store.unfinished(account: "alice").isEmpty, "the queue no longer offers it")
        #expect(
            try await fixture.store.serverAPI.finishFromServer(transactionId: bought.transaction.id), "again: no error")
        #expect(try await fixture.store.serverAPI.finishFromServer(transactionId: "2999999999999999") == false)
    }

    @Test func onlyAPurchaseTheServerAPIKnowsCanBeFinished() async throws {
        let fixture = try StoreFixture()
        try await fixture.setControls { $0.askToBuy = true }
        let deferred = try await fixture.buy(StoreFixture.gems)
        #expect(deferred.transaction.state == .deferred)
        #expect(try await fixture.store.serverAPI.finishFromServer(transactionId: deferred.transaction.id) == false)
        #expect(try await fixture.store.unfinished(account: "alice").map(\.transaction.id) == [deferred.transaction.id])
    }
}
