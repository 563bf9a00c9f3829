import Foundation
import ServerRecords
import StoreCore
import StoreEngine
import StoreKitModel
import TestSupport
import Testing

/// A refund the App Store reverses (REFUND_REVERSED): the transaction is no longer revoked, its
/// dates unchanged, and servers are told; anything else is refused with a reason.
@Suite struct RefundReversalTests {
    @Test func aReversedRefundRestoresThePurchaseAndTellsServers() async throws {
        let fixture = try StoreFixture.notifying()
        let ads = try await fixture.buy(StoreFixture.removeAds).transaction.id
        _ = try await fixture.store.perform(.refund(ads, reason: .developerIssue))
        #expect(
            try await !fixture.store.entitlements(account: "alice").map(\.productId).contains(StoreFixture.removeAds))
        let updates = try await fixture.store.perform(.reverseRefund(ads))
        #expect(updates.map(\.transaction.id) == [ads])
        #expect(updates.first?.transaction.terms?.revocation == nil, "the app hears of the reversal")
        #expect(
            try await fixture.store.entitlements(account: "alice").map(\.productId).contains(StoreFixture.removeAds))
        #expect(try await fixture.told() == ["ONE_TIME_CHARGE", "REFUND", "REFUND_REVERSED"])
        let reversed = try #require(try await fixture.store.notifications.recent(limit: 1).first)
        #expect(reversed.notification.transactionId == ads)
        await #expect(throws: StoreFailure.self, "a refund is reversed once") {
            try await fixture.store.perform(.reverseRefund(ads))
        }
    }

    @Test func aSubscriptionKeepsItsExpiryWhenItsRefundIsReversed() async throws {
        let fixture = try StoreFixture.notifying()
        let bought = try await fixture.buy(StoreFixture.monthly).transaction
        _ = try await fixture.store.perform(.refund(bought.id))
        let reversed = try #require(try await fixture.store.perform(.reverseRefund(bought.id)).first?.transaction)
        #expect(reversed.terms?.revocation == nil)
        #expect(reversed.terms?.expirationDate == bought.terms?.expirationDate, "the renewal date is unchanged")
        #expect(try await fixture.store.entitlements(account: "alice").map(\.productId).contains(StoreFixture.monthly))
    }

    @Test func onlyARefundCanBeReversed() async throws {
        let fixture = try StoreFixture.notifying()
        let gems = try await fixture.buy(StoreFixture.gems).transaction.id
        await #expect(throws: StoreFailure.self) { try await fixture.store.perform(.reverseRefund(gems)) }
        await #expect(throws: StoreFailure.self) { try await fixture.store.perform(.reverseRefund("2000000000009999")) }
        #expect(try await fixture.told() == ["ONE_TIME_CHARGE"], "a refused reversal tells nothing")
    }
}
