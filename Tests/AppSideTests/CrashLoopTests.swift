import AppSide
import Foundation
import StoreCore
import TestSupport
import Testing

/// An app build that crashes delivering one product: the transaction stays unfinished, every
/// launch meets it and crashes again (counted durably), until the fixed build delivers it once.
@Suite struct CrashLoopTests {
    typealias App = AppSideTests.App

    @Test func everyLaunchCrashesAgainUntilTheFixedBuildDeliversOnce() async throws {
        let fixture = try StoreFixture()
        let app = try App(fixture)
        let (update, _) = try await app.buy(StoreFixture.gems, stopAfterDelivery: true)
        // Delivered once before the bug: the fixed build must not credit it again.
        try app.ledger.crash(delivering: [StoreFixture.gems])
        for crash in 1...3 {
            let error = await #expect(throws: AppCrash.self) { try await app.observer.launch(account: "alice") }
            #expect(
                error == AppCrash(transactionId: update.transaction.id, productId: StoreFixture.gems, crashes: crash))
            #expect(
                try await fixture.store.unfinished(account: "alice").map(\.transaction.id) == [update.transaction.id])
        }
        // A new launch of the same ledger (another process) knows how often it crashed.
        let relaunched = try App(fixture)
        let again = await #expect(throws: AppCrash.self) { try await relaunched.observer.launch(account: "alice") }
        #expect(again?.crashes == 4)
        try relaunched.ledger.fixCrashes()
        var steps: [AppStep] = []
        try await relaunched.observer.launch(account: "alice") { _, more in steps += more }
        #expect(steps.first == .delivered(transactionId: update.transaction.id, firstTime: false))
        #expect(steps.last == .finished(transactionId: update.transaction.id))
        #expect(try relaunched.ledger.balances(account: "alice")["gems"] == 100)
    }

    @Test func otherProductsDeliverAsUsual() async throws {
        let app = try App(try StoreFixture())
        try app.ledger.crash(delivering: [StoreFixture.gems])
        let (update, steps) = try await app.buy(StoreFixture.removeAds)
        #expect(steps.last == .finished(transactionId: update.transaction.id))
        await #expect(throws: AppCrash.self) { _ = try await app.buy(StoreFixture.gems) }
    }
}
