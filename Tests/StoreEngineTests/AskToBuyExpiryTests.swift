import Foundation
import GRDB
import StoreCore
import StoreEngine
import StoreKitModel
import TestSupport
import Testing

/// A parent has 24 hours of store time to answer an Ask to Buy request; an unanswered one expires
/// on the store's side (the app is sent nothing) and can no longer be approved or declined.
@Suite struct AskToBuyExpiryTests {
    func request(_ fixture: StoreFixture) async throws -> String {
        let deferred = try await fixture.buy(StoreFixture.removeAds, account: "kid")
        #expect(deferred.transaction.state == .deferred)
        return deferred.transaction.id
    }

    func stored(_ fixture: StoreFixture, _ id: String) async throws -> Transaction {
        try #require(try await fixture.store.transactions(account: "kid").first { $0.id == id })
    }

    @Test func anUnansweredRequestExpiresOnTheStoresSideAfterADayAndCannotBeApproved() async throws {
        let fixture = try StoreFixture.notifying()
        let id = try await request(fixture)
        let cursor = try await fixture.store.journalCursor()
        fixture.clock.advance(by: 86_400 - 1)
        try await fixture.store.scheduler.runDue()
        #expect(try await stored(fixture, id).failureContext == nil, "a second before the day ends it still waits")

        fixture.clock.advance(by: 1)
        try await fixture.store.scheduler.runDue()
        let expired = try await stored(fixture, id)
        #expect(expired.state == .deferred, "the app is sent nothing: its transaction stays deferred")
        #expect(expired.error == nil)
        #expect(expired.failureContext == .askToBuyExpired, "the store's side says why")
        #expect(try await fixture.store.journal(account: "kid", after: cursor, limit: 10).isEmpty)
        let unfinished = try await fixture.store.unfinished(account: "kid").map(\.transaction)
        #expect(unfinished.map(\.id) == [id])
        #expect(unfinished.first?.state == .deferred)
        #expect(unfinished.first?.failureContext == nil, "the app never sees the store's side")
        #expect(try await fixture.told().isEmpty, "Apple tells servers nothing of an Ask to Buy request")

        for action in [ManageAction.approveAskToBuy(id), .declineAskToBuy(id)] {
            await #expect {
                try await fixture.store.perform(action)
            } throws: { error in
                (error as? StoreFailure)?.message
                    == "the Ask to Buy request for transaction \(id) expired at 2027-01-16T08:00:00Z; "
                    + "the child must ask again (buy the product again)"
            }
        }
        #expect(try await stored(fixture, id).failureContext == .askToBuyExpired)
        let again = try await fixture.buy(StoreFixture.removeAds, account: "kid").transaction
        #expect(again.state == .deferred)
        #expect(again.id != id, "asking again after the request expired is a new request")
    }

    @Test func theDayScalesWithTheTimeRate() async throws {
        let fixture = try StoreFixture()
        try await fixture.setControls { $0.timeRate = .monthlyRenewalEveryHour }
        let id = try await request(fixture)
        try await fixture.pass(119)
        #expect(try await stored(fixture, id).state == .deferred)
        try await fixture.pass(1)
        #expect(try await stored(fixture, id).failureContext == .askToBuyExpired, "a 30th of an hour")
    }

    @Test func aRequestAnsweredInTimeIsApproved() async throws {
        let fixture = try StoreFixture()
        try await fixture.setControls { $0.timeRate = .oneMinuteIsOneDay }
        let id = try await request(fixture)
        fixture.clock.advance(by: 59)
        let approved = try await fixture.store.perform(.approveAskToBuy(id))
        #expect(approved.map(\.transaction.state) == [.purchased])
        fixture.clock.advance(by: 3_600)
        #expect(try await stored(fixture, id).state == .purchased)
    }

    @Test(.disabled(if: StoreFixture.onPostgres, "writes an older version's value into the SQLite file"))
    func aTimeRateAnOlderVersionSavedAsFourteenReadsAsMonthlyEveryThirtySeconds() async throws {
        let fixture = try StoreFixture()
        try await fixture.setControls { $0.timeRate = .monthlyRenewalEvery30Seconds }
        let queue = try DatabaseQueue(path: fixture.directory.appendingPathComponent("store.sqlite").path)
        try await queue.write { db in
            #expect(try String.fetchOne(db, sql: "SELECT value FROM settings WHERE key = 'controls.timeRate'") == "15")
            try db.execute(sql: "UPDATE settings SET value = '14' WHERE key = 'controls.timeRate'")
        }
        #expect(try await fixture.store.controls().timeRate == .monthlyRenewalEvery30Seconds)
    }
}
