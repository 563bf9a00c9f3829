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

    /// What a reversed refund's transaction says changed when the refund was reversed: its JWS is
    /// signed then, after the refund's (of two snapshots Apple's rule keeps the later), and
    /// history sorts it there, after what was bought between the refund and its reversal.
    @Test func aReversalIsDatedWhenTheRefundWasReversed() async throws {
        let fixture = try StoreFixture.notifying()
        let ads = try await fixture.buy(StoreFixture.removeAds).transaction.id
        fixture.clock.advance(by: 3600)
        let refunded = try #require(try await fixture.store.perform(.refund(ads)).first?.transaction)
        fixture.clock.advance(by: 3600)
        let gems = try await fixture.buy(StoreFixture.gems).transaction.id
        fixture.clock.advance(by: 3600)
        let reversedAt = fixture.clock.now()
        let reversed = try #require(try await fixture.store.perform(.reverseRefund(ads)).first?.transaction)

        let refundSigned = try Self.signedDate(
            try #require(try await fixture.store.signedTransactions([refunded])[ads]))
        let reversalSigned = try Self.signedDate(
            try #require(try await fixture.store.signedTransactions([reversed])[ads]))
        #expect(reversalSigned == reversedAt.epochMilliseconds)
        #expect(reversalSigned > refundSigned, "the reversal is the newer snapshot")

        let context = try #require(try await fixture.store.notifications.contexts(transactionIds: [ads])[ads])
        #expect(context.transaction.modifiedDate == reversedAt, "REFUND_REVERSED signs the transaction as reversed now")
        let history = try await fixture.store.serverAPI.history(
            account: "alice", filter: HistoryFilter(), after: nil, limit: 20)
        #expect(history.transactions.map(\.transaction.id) == [gems, ads], "sorted by when each last changed")
    }

    /// A compact JWS's `signedDate`, in epoch milliseconds.
    static func signedDate(_ jws: String) throws -> Int64 {
        var part = String(jws.split(separator: ".")[1]).replacingOccurrences(of: "-", with: "+")
            .replacingOccurrences(of: "_", with: "/")
        while part.count % 4 != 0 { part += "=" }
        let payload = try #require(Data(base64Encoded: part))
        let object = try #require(try JSONSerialization.jsonObject(with: payload) as? [String: Any])
        return try #require((object["signedDate"] as? NSNumber)?.int64Value)
    }
}
