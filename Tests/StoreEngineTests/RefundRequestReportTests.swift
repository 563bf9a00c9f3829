import Foundation
import StoreCore
import StoreEngine
import StoreKitModel
import TestSupport
import Testing

/// A refund request waiting for the App Store is part of what the store reports of the
/// transaction, whoever opened it, so a storefront shows one made by `manage request-refund`.
@Suite struct RefundRequestReportTests {
    @Test func aRequestMadeElsewhereIsListedWithItsReasonAndDateUntilDecided() async throws {
        let fixture = try StoreFixture()
        let gems = try await fixture.buy(StoreFixture.gems).transaction.id
        // The command line is another process on the same state: another store on its tables.
        let commandLine = try StoreFixture(directory: fixture.directory)
        let asked = commandLine.clock.now()
        #expect(try await commandLine.store.perform(.requestRefund(gems, reason: .unsatisfiedWithPurchase)).isEmpty)

        let expected = WaitingRefund(reason: .unsatisfiedWithPurchase, requestedAt: asked)
        let own = try await fixture.store.transactions(account: "alice").first { $0.id == gems }
        #expect(own?.refundRequest == expected)
        let every = try await fixture.store.transactions(account: nil).first { $0.id == gems }
        #expect(every?.refundRequest == expected)
        #expect(try await fixture.store.transactions(account: "kenji").allSatisfy { $0.refundRequest == nil })

        _ = try await fixture.store.perform(.declineRefund(gems))
        let declined = try await fixture.store.transactions(account: "alice").first { $0.id == gems }
        #expect(declined != nil && declined?.refundRequest == nil, "decided, it no longer waits")
    }
}
