import Foundation
import ServerRecords
import StoreCore
import StoreEngine
import StoreKitModel
import TestSupport
import Testing

/// Purchases an organization or group assigns to a member (App Store Server API 1.22's
/// `inAppOwnershipType` `ASSIGNED`): the member gets a transaction of its own that follows the
/// purchase, and a refund of the purchase revokes it.
@Suite struct AssignedTransactionTests {
    static let day: TimeInterval = 86_400
    static let url = "http://127.0.0.1:9/notifications"

    func assigned(_ fixture: StoreFixture, _ account: String) async throws -> [Transaction] {
        try await fixture.store.transactions(account: account).filter { $0.terms?.ownership == .assigned }
            .sorted { $0.purchaseDate < $1.purchaseDate }
    }

    func told(_ fixture: StoreFixture) async throws -> Set<String> {
        Set(
            try await fixture.store.notifications.recent(limit: 1000).map { record in
                "\(record.notification.event.type.rawValue) \(record.notification.transactionId ?? "none")"
            })
    }

    @Test func anAssignedPurchaseGivesTheMemberATransactionOwnedAssigned() async throws {
        let fixture = try StoreFixture()
        fixture.store.outbox.setURLs([Self.url])
        let bought = try await fixture.buy(StoreFixture.lifetime, account: "kenji").transaction
        let updates = try await fixture.store.perform(.assign(bought.id, account: "lena"))
        let copy = try #require(try await assigned(fixture, "lena").first)
        #expect(updates.map(\.transaction.id) == [copy.id])
        #expect(copy.id != bought.id && copy.originalId == copy.id && copy.state == .purchased)
        #expect(copy.productId == StoreFixture.lifetime && bought.terms?.ownership == .purchased)
        #expect(
            try await fixture.store.entitlements(account: "lena").contains { $0.productId == StoreFixture.lifetime })
        #expect(try await told(fixture).contains("ONE_TIME_CHARGE \(copy.id)"))
        let page = try await fixture.store.serverAPI.history(
            account: "lena", filter: HistoryFilter(ownership: .assigned), after: nil, limit: 20)
        #expect(page.transactions.map(\.transaction.id) == [copy.id])
        // Once only, never to the purchaser, and a consumable is used up by whoever bought it.
        await #expect(throws: StoreFailure.self) {
            _ = try await fixture.store.perform(.assign(bought.id, account: "lena"))
        }
        await #expect(throws: StoreFailure.self) {
            _ = try await fixture.store.perform(.assign(bought.id, account: "kenji"))
        }
        await #expect(throws: StoreFailure.self) {
            _ = try await fixture.store.perform(.assign(copy.id, account: "wei"))
        }
        await #expect(throws: StoreFailure.self) {
            _ = try await fixture.store.perform(.assign(bought.id, account: "mallory"))
        }
        let gems = try await fixture.buy(StoreFixture.gems, account: "kenji").transaction
        await #expect(throws: StoreFailure.self) {
            _ = try await fixture.store.perform(.assign(gems.id, account: "lena"))
        }
    }

    @Test func anAssignedSubscriptionRenewsWithThePurchaseUntilItIsRefunded() async throws {
        let fixture = try StoreFixture()
        fixture.store.outbox.setURLs([Self.url])
        let bought = try await fixture.buy(StoreFixture.yearly, account: "kenji").transaction
        _ = try await fixture.store.perform(.assign(bought.id, account: "lena"))
        let first = try #require(try await assigned(fixture, "lena").first)
        #expect(first.terms?.expirationDate == bought.terms?.expirationDate)

        fixture.clock.advance(by: 366 * Self.day)
        try await fixture.store.scheduler.runDue()
        let chain = try await assigned(fixture, "lena")
        #expect(chain.count == 2 && chain.allSatisfy { $0.originalId == first.originalId }, "\(chain)")
        #expect(chain[1].terms?.isRenewal == true)
        #expect(try await told(fixture).contains("DID_RENEW \(chain[1].id)"))

        let renewal = try #require(
            try await fixture.store.transactions(account: "kenji").filter { $0.productId == StoreFixture.yearly }
                .max { $0.purchaseDate < $1.purchaseDate })
        _ = try await fixture.store.perform(.refund(renewal.id))
        let revoked = try await assigned(fixture, "lena")[1]
        #expect(revoked.terms?.revocation != nil)
        let now = fixture.clock.now()
        #expect(
            try await fixture.store.entitlements(account: "lena").allSatisfy {
                $0.productId != StoreFixture.yearly || !$0.isActive(at: now)
            })
        #expect(try await told(fixture).contains("REVOKE \(revoked.id)"))
        // A refunded purchase has nothing left to assign.
        await #expect(throws: StoreFailure.self) {
            _ = try await fixture.store.perform(.assign(renewal.id, account: "wei"))
        }
    }

    @Test func aFamilyEditLeavesAssignedCopiesAlone() async throws {
        let fixture = try StoreFixture()
        let bought = try await fixture.buy(StoreFixture.lifetime, account: "kenji").transaction
        _ = try await fixture.store.perform(.assign(bought.id, account: "kid"))
        _ = try await fixture.store.perform(.setFamily(account: "kid", family: nil))
        #expect(try await assigned(fixture, "kid").allSatisfy { $0.terms?.revocation == nil })
        #expect(try await fixture.store.entitlements(account: "kid").contains { $0.productId == StoreFixture.lifetime })
    }
}
