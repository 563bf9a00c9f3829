import Foundation
import ServerRecords
import StoreCore
import StoreEngine
import StoreKitModel
import TestSupport
import Testing

/// Extend Subscription Renewal Dates for All Active Subscribers: who is extended, by the one
/// extension rule, in background batches that survive a restart, and what servers are told.
@Suite struct MassExtensionTests {
    static let day: TimeInterval = 86_400

    static func request(
        _ id: String = "0f4c5b1e-8d2a-4f0e-9c3b-7a6d5e4f3a2b", days: Int = 5, storefronts: [String]? = nil
    ) -> MassExtensionRequest {
        MassExtensionRequest(
            requestIdentifier: id, productId: StoreFixture.monthly, days: days, reason: 3, storefronts: storefronts)
    }

    /// Each account's latest period of Premium Monthly ends when.
    static func ends(_ fixture: StoreFixture, _ accounts: [String]) async throws -> [String: Date] {
        var ends: [String: Date] = [:]
        for account in accounts {
            let latest = try await fixture.store.transactions(account: account).last {
                $0.productId == StoreFixture.monthly
            }
            if let latest {
                ends[account] = try await fixture.store.serverAPI.transaction(id: latest.id)?.details.expiresDate
            }
        }
        return ends
    }

    @Test func activeSubscribersOfTheProductAreExtendedBatchByBatchThenSummedUp() async throws {
        let fixture = try StoreFixture.notifying()
        for account in ["alice", "kenji", "lena", "wei"] {
            _ = try await fixture.buy(StoreFixture.monthly, account: account)
        }
        _ = try await fixture.buy("com.example.storefront.premium.yearly", account: "oliver")
        let refunded = try await fixture.buy(StoreFixture.monthly, account: "priya").transaction.id
        _ = try await fixture.store.perform(.refund(refunded))
        let before = try await Self.ends(fixture, ["alice", "kenji", "lena", "wei"])

        let started = try await fixture.store.massExtensions.start(Self.request())
        guard case .started(let status) = started else {
            Issue.record("\(started)")
            return
        }
        #expect(!status.isComplete && status.succeeded == 0)
        #expect(try await fixture.store.massExtensions.advance(limit: 3) == 3)
        let midway = try #require(
            try await fixture.store.massExtensions.status(requestIdentifier: status.request.requestIdentifier))
        #expect(!midway.isComplete && midway.succeeded == 3 && midway.failed == 0)
        #expect(try await fixture.store.massExtensions.advance(limit: 3) == 1)
        let done = try #require(
            try await fixture.store.massExtensions.status(requestIdentifier: status.request.requestIdentifier))
        #expect(done.isComplete && done.succeeded == 4 && done.failed == 0 && done.completeDate == fixture.clock.now())
        #expect(try await fixture.store.massExtensions.advance(limit: 3) == 0, "nothing left to do")

        let after = try await Self.ends(fixture, ["alice", "kenji", "lena", "wei"])
        for (account, end) in before {
            #expect(after[account] == end.addingTimeInterval(5 * Self.day), "\(account)")
        }
        let told = try await fixture.told()
        #expect(told.filter { $0 == "RENEWAL_EXTENDED" }.count == 4)
        #expect(told.last == "RENEWAL_EXTENSION/SUMMARY", "the summary comes once, when complete")
        let summary = try #require(try await fixture.store.notifications.recent(limit: 1).first)
        #expect(summary.notification.massExtension == status.request.requestIdentifier)
        #expect(summary.notification.transactionId == nil)
    }

    @Test func storefrontsLimitWhoIsExtended() async throws {
        let fixture = try StoreFixture.notifying()
        for account in ["alice", "kenji", "lena"] { _ = try await fixture.buy(StoreFixture.monthly, account: account) }
        let before = try await Self.ends(fixture, ["alice", "kenji", "lena"])
        _ = try await fixture.store.massExtensions.start(Self.request(storefronts: ["JPN", "DEU"]))
        #expect(try await fixture.store.massExtensions.advance(limit: 10) == 2)
        let after = try await Self.ends(fixture, ["alice", "kenji", "lena"])
        #expect(after["alice"] == before["alice"], "alice's storefront is USA")
        #expect(after["kenji"] != before["kenji"] && after["lena"] != before["lena"])
    }

    /// The one rule of both routes: twice in 365 days, whichever route extended.
    @Test func aSubscriberExtendedTwiceThisYearFailsAndItsServerIsTold() async throws {
        let fixture = try StoreFixture.notifying()
        let alice = try await fixture.buy(StoreFixture.monthly).transaction.id
        _ = try await fixture.buy(StoreFixture.monthly, account: "kenji")
        for request in ["one", "two"] {
            _ = try await fixture.store.serverAPI.extendRenewal(
                originalTransactionId: alice, days: 1, reason: 0, requestIdentifier: request)
        }
        _ = try await fixture.store.massExtensions.start(Self.request())
        _ = try await fixture.store.massExtensions.advance(limit: 10)
        let status = try #require(
            try await fixture.store.massExtensions.status(requestIdentifier: Self.request().requestIdentifier))
        #expect(status.isComplete && status.succeeded == 1 && status.failed == 1)
        let failure = try #require(
            try await fixture.store.notifications.recent(limit: 10).first {
                $0.notification.event == NotificationEvent(.renewalExtension, .failure)
            })
        #expect(failure.notification.transactionId == alice)

        // kenji has one extension from it: one more mass extension is allowed, a third is not.
        _ = try await fixture.store.massExtensions.start(Self.request("1d7c9a3e-0000-4000-8000-000000000002"))
        _ = try await fixture.store.massExtensions.advance(limit: 10)
        let third = try await fixture.store.serverAPI.extendRenewal(
            originalTransactionId: try #require(try await fixture.store.transactions(account: "kenji").first?.id),
            days: 1, reason: 0, requestIdentifier: "three")
        #expect(third == .failure(.tooManyExtensions))
    }

    @Test func aRepeatedRequestStartsNothingAndAnIdentifierNamesOneRequest() async throws {
        let fixture = try StoreFixture.notifying()
        guard case .started = try await fixture.store.massExtensions.start(Self.request()) else {
            Issue.record("not started")
            return
        }
        guard case .repeated = try await fixture.store.massExtensions.start(Self.request()) else {
            Issue.record("a retry of the same request")
            return
        }
        guard case .identifierReused(let earlier) = try await fixture.store.massExtensions.start(Self.request(days: 9))
        else {
            Issue.record("another request with the same identifier")
            return
        }
        #expect(earlier.request.days == 5)
        #expect(try await fixture.store.massExtensions.recent(limit: 10).count == 1)
    }

    /// A store reopened between two batches (as after a kill) goes on where the last commit left
    /// it: each subscriber is extended once, and the summary written once.
    @Test func aReopenedStoreResumesAndExtendsNoOneTwice() async throws {
        let first = try StoreFixture.notifying()
        for account in ["alice", "kenji", "lena"] { _ = try await first.buy(StoreFixture.monthly, account: account) }
        let before = try await Self.ends(first, ["alice", "kenji", "lena"])
        _ = try await first.store.massExtensions.start(Self.request())
        #expect(try await first.store.massExtensions.advance(limit: 2) == 2)

        let reopened = try StoreFixture(directory: first.directory)
        reopened.store.outbox.setURLs([StoreFixture.notificationURL])
        #expect(try await reopened.store.massExtensions.advance(limit: 2) == 1)
        #expect(try await reopened.store.massExtensions.advance(limit: 2) == 0)
        let after = try await Self.ends(reopened, ["alice", "kenji", "lena"])
        for (account, end) in before {
            #expect(after[account] == end.addingTimeInterval(5 * Self.day), "\(account): once")
        }
        let told = try await reopened.told()
        #expect(told.filter { $0 == "RENEWAL_EXTENDED" }.count == 3)
        #expect(told.filter { $0 == "RENEWAL_EXTENSION/SUMMARY" }.count == 1)
    }
}
