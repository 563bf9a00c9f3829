import Foundation
import ServerRecords
import StoreCore
import StoreEngine
import StoreKitModel
import TestSupport
import Testing

/// Family Sharing as the App Store does it: a purchase of a family-shareable product gives each
/// other member of the purchaser's family a transaction of its own (FAMILY_SHARED); a refund or
/// the purchaser stopping sharing revokes them, and servers hear REVOKE for each.
@Suite struct FamilySharingTests {
    static let day: TimeInterval = 86_400
    static let theme = "com.example.storefront.theme.dark"
    static let yearly = "com.example.storefront.premium.yearly"
    static let url = "http://127.0.0.1:9/notifications"

    func family() throws -> StoreFixture {
        let fixture = try StoreFixture()
        fixture.store.outbox.setURLs([Self.url])
        return fixture
    }

    func copies(_ fixture: StoreFixture, of productId: String) async throws -> [Transaction] {
        try await fixture.store.transactions(account: "kid").filter { $0.productId == productId }.sorted {
            $0.purchaseDate < $1.purchaseDate
        }
    }

    /// Every notification so far as "TYPE transactionId" (those of one commit share its time).
    func told(_ fixture: StoreFixture) async throws -> Set<String> {
        Set(
            try await fixture.store.notifications.recent(limit: 1000).map { record in
                "\(record.notification.event.type.rawValue) \(record.notification.transactionId ?? "none")"
            })
    }

    @Test func aSharedPurchaseGivesEachMemberATransactionOfItsOwn() async throws {
        let fixture = try family()
        let bought = try await fixture.buy(Self.theme).transaction
        let copy = try #require(try await copies(fixture, of: Self.theme).first)
        #expect(copy.id != bought.id && copy.originalId == copy.id && copy.state == .purchased)
        #expect(copy.terms?.ownership == .familyShared && bought.terms?.ownership == .purchased)
        #expect(
            try await fixture.store.unfinished(account: "kid").map(\.transaction.id) == [copy.id],
            "the member's app delivers it")
        #expect(try await fixture.store.entitlements(account: "kid").contains { $0.productId == Self.theme })
        let heard = try await told(fixture)
        #expect(heard == ["ONE_TIME_CHARGE \(bought.id)", "ONE_TIME_CHARGE \(copy.id)"], "\(heard)")
        // Not shareable, or bought outside the family: nothing is shared.
        _ = try await fixture.buy(StoreFixture.removeAds)
        _ = try await fixture.buy(Self.theme, account: "kenji")
        #expect(try await fixture.store.transactions(account: "kid").map(\.productId) == [Self.theme])
        let page = try await fixture.store.serverAPI.history(
            account: "kid", filter: HistoryFilter(ownership: .familyShared), after: nil, limit: 20)
        #expect(page.transactions.map(\.transaction.id) == [copy.id])
        let own = try await fixture.store.serverAPI.history(
            account: "kid", filter: HistoryFilter(ownership: .purchased), after: nil, limit: 20)
        #expect(own.transactions.isEmpty)
    }

    @Test func aRefundRevokesTheCopiesAndEachMemberIsToldREVOKE() async throws {
        let fixture = try family()
        let bought = try await fixture.buy(Self.theme).transaction
        _ = try await fixture.store.perform(.refund(bought.id))
        let copy = try #require(try await copies(fixture, of: Self.theme).first)
        #expect(copy.terms?.revocation?.reason == .other)
        #expect(try await fixture.store.entitlements(account: "kid").isEmpty)
        #expect(try await told(fixture).isSuperset(of: ["REFUND \(bought.id)", "REVOKE \(copy.id)"]))
    }

    @Test func renewalsAreSharedInTheMembersChainUntilSharingStops() async throws {
        let fixture = try family()
        let bought = try await fixture.buy(Self.yearly).transaction
        fixture.clock.advance(by: 366 * Self.day)
        try await fixture.store.scheduler.runDue()
        let chain = try await copies(fixture, of: Self.yearly)
        #expect(
            chain.count == 2 && chain.allSatisfy { $0.originalId == chain[0].originalId },
            "one chain for the member: \(chain)")
        #expect(chain.last?.terms?.isRenewal == true)
        #expect(try await fixture.store.entitlements(account: "kid").first?.productId == Self.yearly)

        _ = try await fixture.store.perform(.stopSharing(bought.id))
        let revoked = try await copies(fixture, of: Self.yearly)
        #expect(
            revoked.allSatisfy { $0.terms?.revocation?.reason == .other },
            "every period of the member's chain is revoked")
        #expect(try await fixture.store.entitlements(account: "kid").isEmpty)
        #expect(try await told(fixture).isSuperset(of: revoked.map { "REVOKE \($0.id)" }))
        fixture.clock.advance(by: 366 * Self.day)
        try await fixture.store.scheduler.runDue()
        #expect(try await copies(fixture, of: Self.yearly).count == 2, "a renewal after sharing stopped is not shared")
        #expect(
            try await fixture.store.transactions(account: "alice").filter { $0.productId == Self.yearly }.count == 3)
    }

    /// A copy follows exactly the period it was shared from: refunding an old period revokes the
    /// member's copy of that period only; the member's current period stands and renews with the
    /// purchaser's.
    @Test func refundingAnOldPeriodRevokesOnlyThatPeriodsCopy() async throws {
        let fixture = try family()
        let first = try await fixture.buy(Self.yearly).transaction
        fixture.clock.advance(by: 366 * Self.day)
        try await fixture.store.scheduler.runDue()
        _ = try await fixture.store.perform(.refund(first.id))
        let chain = try await copies(fixture, of: Self.yearly)
        #expect(chain.count == 2)
        #expect(chain.first?.terms?.revocation != nil, "the old period's copy is revoked")
        #expect(chain.last?.terms?.revocation == nil, "the current period's copy stands")
        #expect(try await fixture.store.entitlements(account: "kid").first?.productId == Self.yearly)
        #expect(try await told(fixture).contains("REVOKE \(chain[0].id)"))
        #expect(!(try await told(fixture).contains("REVOKE \(chain[1].id)")))
        fixture.clock.advance(by: 366 * Self.day)
        try await fixture.store.scheduler.runDue()
        let renewed = try await copies(fixture, of: Self.yearly)
        #expect(renewed.count == 3 && renewed.last?.originalId == chain[0].originalId, "it renews with the purchaser's")
    }

    /// A member's access follows the purchaser's subscription: billing retry, expiry.
    @Test func theMembersCopyFollowsTheSubscriptionsState() async throws {
        let fixture = try family()
        let bought = try await fixture.buy(Self.yearly).transaction
        try await fixture.setControls {
            $0.billingIssues = true
            $0.gracePeriod = true
        }
        _ = try await fixture.store.perform(.forceRenewal(bought.id))
        let member = try #require(try await fixture.store.entitlements(account: "kid").first)
        #expect(member.renewal?.isInBillingRetry == true && member.renewal?.gracePeriodExpirationDate != nil)
        #expect(member.isActive(at: fixture.clock.now()), "the grace period keeps the family's access too")
        _ = try await fixture.store.perform(.expireSubscription(bought.id))
        let expired = try #require(
            try await fixture.store.entitlements(account: "kid").first, "kid's copy is still listed, expired")
        #expect(!expired.isActive(at: fixture.clock.now().addingTimeInterval(1)))
    }

    /// An upgrade to a plan that is not shared ends the family's copy with the period it replaced;
    /// the member keeps its own original id for the group.
    @Test func anUpgradeToAnUnsharedPlanEndsTheMembersCopy() async throws {
        let fixture = try family()
        _ = try await fixture.buy(Self.yearly)
        let copy = try #require(try await copies(fixture, of: Self.yearly).first)
        _ = try await fixture.buy(StoreFixture.plusMonthly)
        #expect(try await fixture.store.entitlements(account: "kid").isEmpty, "the copy ended with the upgrade")
        let ended = try #require(try await copies(fixture, of: Self.yearly).first)
        #expect(ended.terms?.upgrade != nil)
        #expect(ended.terms?.expirationDate == copy.terms?.expirationDate)
        #expect(ended.originalId == copy.originalId)
    }

    @Test func onlyASharedPurchaseCanStopBeingShared() async throws {
        let fixture = try family()
        let owned = try await fixture.buy(StoreFixture.removeAds).transaction
        await #expect(throws: StoreFailure.self) { try await fixture.store.perform(.stopSharing(owned.id)) }
        let outside = try await fixture.buy(Self.theme, account: "kenji").transaction
        await #expect(throws: StoreFailure.self) { try await fixture.store.perform(.stopSharing(outside.id)) }
        let copy = try await { () async throws -> Transaction in
            _ = try await fixture.buy(Self.theme)
            return try #require(try await copies(fixture, of: Self.theme).first)
        }()
        await #expect(throws: StoreFailure.self, "a member cannot stop sharing what was shared with it") {
            try await fixture.store.perform(.stopSharing(copy.id))
        }
    }
}
