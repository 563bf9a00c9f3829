import Foundation
import StoreEngine
import TestSupport
import Testing

/// An account's AppTransaction has one original purchase date for good.
@Suite struct AppFirstSeenTests {
    @Test func theFirstPurchaseDatesTheAppAndTheAnswerNeverChanges() async throws {
        let fixture = try StoreFixture()
        let bought = try await fixture.buy(StoreFixture.gems).transaction
        fixture.clock.advance(by: 3600)
        #expect(try await fixture.store.appFirstSeen(account: "alice") == bought.purchaseDate)
        _ = try await fixture.store.perform(.clearAll)
        #expect(try await fixture.store.appFirstSeen(account: "alice") == bought.purchaseDate, "kept once given")
    }

    @Test func anAccountWithoutPurchasesGotTheAppWhenFirstAsked() async throws {
        let fixture = try StoreFixture()
        let asked = fixture.clock.now()
        #expect(try await fixture.store.appFirstSeen(account: "kenji") == asked)
        fixture.clock.advance(by: 60)
        _ = try await fixture.buy(StoreFixture.gems, account: "kenji")
        #expect(try await fixture.store.appFirstSeen(account: "kenji") == asked)
    }
}
