import Foundation
import StoreCore
@_spi(Storefront) import StoreKit
import StoreKitTest
import Testing

extension StoreKitLibrary {
    /// A transaction made outside the device (Xcode 26's "create a transaction", which Apple's
    /// `SKTestSession` has no call for): the app meets it as Apple's would meet a purchase made on
    /// another device, through `Transaction.updates`, unfinished until it finishes it.
    @Suite struct CreatedTransactionTests {
        @Test func aPurchaseMadeElsewhereMonthsAgoArrivesWithItsRenewals() async throws {
            _ = try session()
            let listener = Collected(Transaction.updates)
            defer { listener.stop() }
            let date = Date().addingTimeInterval(-40 * 86_400)
            let store = try await StoreConnection.shared.store()
            let account = try await store.backend.controls().account ?? "alice"
            let created = try await store.backend.perform(
                .createTransaction(
                    TransactionCreation(productId: Products.monthly, account: account, purchaseDate: date)))
            // A week's free trial, a month that ended, and the month in force.
            #expect(created.count == 3)
            #expect(try await eventually { listener.all.count == 3 })
            let heard = listener.all.map(\.unsafePayloadValue)
            #expect(heard.map { String($0.id) } == created.map(\.transaction.id))
            #expect(heard.first?.purchaseDate.timeIntervalSince1970.rounded() == date.timeIntervalSince1970.rounded())
            #expect(heard.dropFirst().allSatisfy { $0.reason == .renewal && $0.originalID == heard.first?.id })
            #expect(await collect(Transaction.unfinished).count == 3, "each waits for the app to finish it")
            for transaction in heard { await transaction.finish() }
            #expect(await collect(Transaction.unfinished).isEmpty)
            let entitlement = try #require(await collect(Transaction.currentEntitlements).first?.unsafePayloadValue)
            #expect(entitlement.id == heard.last?.id)
        }
    }
}
