import Foundation
import StoreCore
import StoreEngine
import StoreKitModel
import TestSupport
import Testing

/// Sandbox Test Families edited while the store runs: sharing follows each edit at once, and the
/// edit outlives the process.
@Suite struct FamilyEditTests {
    static let theme = "com.example.storefront.theme.dark"
    static let url = "http://127.0.0.1:9/notifications"

    func told(_ fixture: StoreFixture) async throws -> Set<String> {
        Set(
            try await fixture.store.notifications.recent(limit: 1000).map { record in
                "\(record.notification.event.type.rawValue) \(record.notification.transactionId ?? "none")"
            })
    }

    func shared(_ fixture: StoreFixture, _ account: String) async throws -> [Transaction] {
        try await fixture.store.transactions(account: account).filter { $0.terms?.ownership == .familyShared }
    }

    @Test func aMemberAddedGetsTheFamilysPurchasesAndSharesItsOwn() async throws {
        let fixture = try StoreFixture()
        fixture.store.outbox.setURLs([Self.url])
        _ = try await fixture.buy(Self.theme)
        let yearly = try await fixture.buy(StoreFixture.yearly, account: "kenji").transaction
        #expect(try await shared(fixture, "kenji").isEmpty)

        _ = try await fixture.store.perform(.setFamily(account: "kenji", family: "appleseed"))
        let kenjis = try await shared(fixture, "kenji")
        #expect(kenjis.map(\.productId) == [Self.theme])
        #expect(try await fixture.store.entitlements(account: "kenji").contains { $0.productId == Self.theme })
        let alices = try await shared(fixture, "alice")
        #expect(alices.map(\.productId) == [StoreFixture.yearly], "kenji's subscription is shared with alice")
        #expect(Set(try await shared(fixture, "kid").map(\.productId)) == [Self.theme, StoreFixture.yearly])
        let heard = try await told(fixture)
        #expect(heard.contains("ONE_TIME_CHARGE \(kenjis[0].id)"))
        #expect(heard.contains("SUBSCRIBED \(alices[0].id)"))
        #expect(yearly.terms?.ownership == .purchased)
        // Adding it again changes nothing.
        _ = try await fixture.store.perform(.setFamily(account: "kenji", family: "appleseed"))
        #expect(try await shared(fixture, "kenji").count == 1)
    }

    @Test func aMemberRemovedLosesTheCopiesAndTheOthersLoseItsPurchases() async throws {
        let fixture = try StoreFixture()
        fixture.store.outbox.setURLs([Self.url])
        _ = try await fixture.store.perform(.setFamily(account: "kenji", family: "appleseed"))
        _ = try await fixture.buy(Self.theme)
        _ = try await fixture.buy(StoreFixture.yearly, account: "kenji")
        #expect(try await shared(fixture, "kenji").count == 1)
        #expect(try await shared(fixture, "alice").count == 1)

        _ = try await fixture.store.perform(.setFamily(account: "kenji", family: nil))
        let revoked =
            try await shared(fixture, "kenji") + shared(fixture, "alice")
            + shared(fixture, "kid").filter { $0.productId == StoreFixture.yearly }
        #expect(revoked.count == 3 && revoked.allSatisfy { $0.terms?.revocation?.reason == .other }, "\(revoked)")
        #expect(try await fixture.store.entitlements(account: "kenji").allSatisfy { $0.productId != Self.theme })
        #expect(
            try await fixture.store.entitlements(account: "alice").allSatisfy { $0.productId != StoreFixture.yearly })
        #expect(try await told(fixture).isSuperset(of: revoked.map { "REVOKE \($0.id)" }))
        // kid's copy of alice's purchase is no business of kenji's leaving.
        #expect(try await fixture.store.entitlements(account: "kid").contains { $0.productId == Self.theme })
    }

    @Test func anEditIsKeptByTheStoreAndResetReturnsToTheCatalogs() async throws {
        let directory = scratchDirectory("family-edit")
        do {
            let fixture = try StoreFixture(directory: directory)
            _ = try await fixture.store.perform(.setFamily(account: "kenji", family: "appleseed"))
        }
        let reopened = try StoreFixture(directory: directory)
        _ = try await reopened.buy(Self.theme)
        #expect(try await shared(reopened, "kenji").map(\.productId) == [Self.theme])
        _ = try await reopened.store.perform(.resetToDefaults)
        _ = try await reopened.buy(Self.theme)
        #expect(try await shared(reopened, "kenji").isEmpty, "reset forgets the edit")
    }

    @Test func aBadFamilyNameOrAccountIsRefused() async throws {
        let fixture = try StoreFixture()
        for (account, family) in [("mallory", "appleseed"), ("kenji", ""), ("kenji", "two words")] {
            await #expect(throws: StoreFailure.self) {
                _ = try await fixture.store.perform(.setFamily(account: account, family: family))
            }
        }
    }
}
