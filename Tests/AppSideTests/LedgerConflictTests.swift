import AppSide
import Foundation
import LocalState
import StoreCore
import StoreKitModel
import TestSupport
import Testing

/// A transaction id the ledger delivered, coming again for another purchase (a store restored
/// from a backup issues its ids again): refused loudly, never skipped as a duplicate.
@Suite struct LedgerConflictTests {
    static func update(_ id: String, _ product: String, quantity: Int = 1, at seconds: TimeInterval)
        -> TransactionUpdate
    {
        let payment = Payment(productId: product, quantity: quantity, account: "alice")
        return TransactionUpdate(
            transaction: Transaction(
                id: id, originalId: id, payment: payment, state: .purchased,
                purchaseDate: Date(timeIntervalSince1970: seconds)), receipt: nil)
    }

    @Test func anIdDeliveredForAnotherPurchaseIsAConflictNotADuplicate() throws {
        let catalog = try StoreFixture.catalog()
        let ledger = try AppLedger(state: StateDirectory(url: scratchDirectory("ledger")))
        let gems = catalog.product(id: StoreFixture.gems)
        let first = Self.update("2000000000000029", StoreFixture.gems, at: 1_800_000_000)
        #expect(try ledger.recordAndDeliver(first, product: gems, at: Date()).delivered)
        // The same purchase again (a relaunch, a second update): a duplicate, not credited.
        #expect(try !ledger.recordAndDeliver(first, product: gems, at: Date()).delivered)
        // The same id for another product, another quantity, or bought at another time.
        for other in [
            Self.update("2000000000000029", "com.example.storefront.gems.550", at: 1_800_000_000),
            Self.update("2000000000000029", StoreFixture.gems, quantity: 2, at: 1_800_000_000),
            Self.update("2000000000000029", StoreFixture.gems, at: 1_800_000_600),
        ] {
            let error = #expect(throws: StoreFailure.self) {
                try ledger.recordAndDeliver(other, product: gems, at: Date())
            }
            #expect(error?.kind == .conflict)
            #expect(error?.message.contains("the store issued the id twice") == true, "\(String(describing: error))")
        }
        #expect(try ledger.balances(account: "alice") == ["gems": 100])
    }
}
