import Foundation
import StoreCore
import StoreEngine
import StoreKitModel
import TestSupport
import Testing

/// Ask to Buy as Apple's "Testing Ask to Buy in Xcode" describes it: after a decline "your app
/// doesn't receive a transaction", and "any duplicate Ask to Buy requests are consolidated and
/// only resets the 24-hour timer. Once approved, only 1 purchase is completed".
@Suite struct AskToBuyDeclineTests {
    func kids(_ fixture: StoreFixture, _ productId: String) async throws -> [Transaction] {
        try await fixture.store.transactions(account: "kid").filter { $0.productId == productId }
    }

    @Test func aDeclineSendsTheAppNothingAndItsTransactionStaysDeferred() async throws {
        let fixture = try StoreFixture.notifying()
        let id = try await fixture.buy(StoreFixture.gems, account: "kid").transaction.id
        let cursor = try await fixture.store.journalCursor()
        let updates = try await fixture.store.perform(.declineAskToBuy(id))
        #expect(updates.isEmpty, "nothing is published to the app's queue")
        #expect(try await fixture.store.journal(account: "kid", after: cursor, limit: 10).isEmpty)
        #expect(try await fixture.told().isEmpty, "Apple sends no server notification for a decline")

        let store = try #require(try await kids(fixture, StoreFixture.gems).first)
        #expect(store.state == .deferred)
        #expect(store.error == nil)
        #expect(store.failureContext == .declined, "the store's side says what the parent did")
        let unfinished = try await fixture.store.unfinished(account: "kid").map(\.transaction)
        #expect(unfinished.map(\.id) == [id])
        #expect(unfinished.first?.state == .deferred)
        #expect(unfinished.first?.failureContext == nil, "the app never sees the store's side")

        await #expect {
            try await fixture.store.perform(.approveAskToBuy(id))
        } throws: { error in
            (error as? StoreFailure)?.message
                == "the Ask to Buy request for transaction \(id) was already declined; "
                + "the child must ask again (buy the product again)"
        }
        let again = try await fixture.buy(StoreFixture.gems, account: "kid").transaction
        #expect(again.id != id && again.state == .deferred, "after a decline the child may ask again")
    }

    @Test func aDuplicateRequestResetsTheTimerAndAnApprovalCompletesOnePurchase() async throws {
        let fixture = try StoreFixture()
        let first = try await fixture.buy(StoreFixture.gems, account: "kid").transaction
        fixture.clock.advance(by: 20 * 3_600)
        let cursor = try await fixture.store.journalCursor()
        let second = try await fixture.buy(StoreFixture.gems, account: "kid")
        #expect(second.transaction.id == first.id, "no second transaction")
        #expect(second.transaction.state == .deferred)
        #expect(second.transaction.purchaseDate == fixture.clock.now(), "asked for again now")
        let journaled = try await fixture.store.journal(account: "kid", after: cursor, limit: 10)
        #expect(journaled.map(\.update.transaction.id) == [first.id], "the app hears its request deferred again")
        #expect(try await kids(fixture, StoreFixture.gems).count == 1)

        try await fixture.pass(20 * 3_600)  // 40 hours after the first request, 20 after the second
        #expect(try await kids(fixture, StoreFixture.gems).first?.failureContext == nil, "the timer started again")
        let approved = try await fixture.store.perform(.approveAskToBuy(first.id))
        #expect(approved.map(\.transaction.state) == [.purchased])
        await #expect(throws: StoreFailure.self) { try await fixture.store.perform(.approveAskToBuy(first.id)) }
        let purchased = try await kids(fixture, StoreFixture.gems).filter { $0.state == .purchased }
        #expect(purchased.count == 1, "one purchase, one charge")
    }

    @Test func aDuplicateRequestExpiresADayAfterItWasMade() async throws {
        let fixture = try StoreFixture()
        let first = try await fixture.buy(StoreFixture.removeAds, account: "kid").transaction
        try await fixture.pass(12 * 3_600)
        _ = try await fixture.buy(StoreFixture.removeAds, account: "kid")
        try await fixture.pass(24 * 3_600 - 1)
        #expect(try await kids(fixture, StoreFixture.removeAds).first?.failureContext == nil)
        try await fixture.pass(1)
        let expired = try await kids(fixture, StoreFixture.removeAds)
        #expect(expired.map(\.id) == [first.id])
        #expect(expired.first?.failureContext == .askToBuyExpired)
    }

    @Test func anotherProductOrAccountIsAnotherRequest() async throws {
        let fixture = try StoreFixture()
        try await fixture.setControls { $0.askToBuy = true }
        let gems = try await fixture.buy(StoreFixture.gems, account: "kid").transaction
        let removeAds = try await fixture.buy(StoreFixture.removeAds, account: "kid").transaction
        let alices = try await fixture.buy(StoreFixture.gems, account: "alice").transaction
        #expect(Set([gems.id, removeAds.id, alices.id]).count == 3)
        #expect([gems, removeAds, alices].allSatisfy { $0.state == .deferred })
    }
}
