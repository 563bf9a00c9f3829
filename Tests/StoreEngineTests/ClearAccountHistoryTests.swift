import Foundation
import StoreCore
import StoreEngine
import StoreKitModel
import TestSupport
import Testing

/// The sandbox's Clear Purchase History, for one tester: that account's history goes and it may
/// take introductory offers again; every other account keeps its own; nobody is told.
@Suite struct ClearAccountHistoryTests {
    static let theme = "com.example.storefront.theme.dark"
    static let url = "http://127.0.0.1:9/notifications"

    func introEligible(_ fixture: StoreFixture, _ account: String) async throws -> Bool {
        let product = try #require(fixture.store.catalog.product(id: StoreFixture.monthly))
        return OfferEligibility.introductory(product, history: try await fixture.store.offerHistory(account: account))
            .isEligible
    }

    @Test func clearingOneAccountLeavesTheOthersHistoryAndMakesItEligibleAgain() async throws {
        let fixture = try StoreFixture()
        fixture.store.outbox.setURLs([Self.url])
        _ = try await fixture.buy(StoreFixture.monthly)
        _ = try await fixture.buy(StoreFixture.removeAds)
        let kenjis = try await fixture.buy(StoreFixture.monthly, account: "kenji").transaction
        #expect(try await !introEligible(fixture, "alice"))
        let heard = try await fixture.store.notifications.recent(limit: 1000).count

        #expect(try await fixture.store.perform(.clearAccount("alice")).isEmpty, "the app is sent nothing")
        #expect(try await fixture.store.transactions(account: "alice").isEmpty)
        #expect(try await fixture.store.entitlements(account: "alice").isEmpty)
        #expect(try await introEligible(fixture, "alice"))
        #expect(try await fixture.store.transactions(account: "kenji").map(\.id) == [kenjis.id])
        #expect(try await !introEligible(fixture, "kenji"))
        #expect(
            try await fixture.store.notifications.recent(limit: 1000).count == heard,
            "servers hear nothing of a cleared history")
        // The account buys again from nothing: the introductory offer applies.
        let again = try await fixture.buy(StoreFixture.monthly).transaction
        #expect(again.state == .purchased)
        #expect(try await !introEligible(fixture, "alice"))
    }

    @Test func theFamilysCopiesOfItsPurchasesGoWithThem() async throws {
        let fixture = try StoreFixture()
        _ = try await fixture.buy(Self.theme)
        #expect(try await fixture.store.transactions(account: "kid").count == 1)
        _ = try await fixture.store.perform(.clearAccount("alice"))
        #expect(try await fixture.store.transactions(account: "kid").isEmpty)
        #expect(try await fixture.store.entitlements(account: "kid").isEmpty)
    }

    @Test func anAccountTheCatalogLacksIsRefusedByName() async throws {
        let fixture = try StoreFixture()
        await #expect {
            _ = try await fixture.store.perform(.clearAccount("mallory"))
        } throws: { error in
            guard let failure = error as? StoreFailure else { return false }
            return failure.kind == .notFound && failure.message.contains("mallory")
                && failure.message.contains("alice")
        }
    }
}
