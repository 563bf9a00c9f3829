import AppSide
import Foundation
import LocalState
import StoreCore
import StoreEngine
import StoreKitModel
import TestSupport
import Testing

/// Every forced outcome against every product type: the state, the error, the receipt, and
/// what the account owns afterwards.
@Suite struct OutcomeMatrixTests {
    static let products = [
        StoreFixture.gems, StoreFixture.removeAds, StoreFixture.monthly, "com.example.storefront.pass.season",
    ]
    static let outcomes: [PaymentOutcome] = [
        .success, .cancel, .fail(.clientInvalid), .fail(.overlayTimeout),
        .network(.timedOut), .deferred, .interrupted,
    ]

    @Test(arguments: products, outcomes)
    func outcomeForProductType(productId: String, outcome: PaymentOutcome) async throws {
        let fixture = try StoreFixture()
        try await fixture.setControls { $0.nextOutcome = outcome }
        let update = try await fixture.buy(productId)
        let transaction = update.transaction
        let type = try #require(fixture.store.catalog.product(id: productId)).type
        switch outcome {
        case .success:
            #expect(transaction.state == .purchased && transaction.error == nil && update.receipt != nil)
        case .cancel:
            #expect(transaction.state == .failed && transaction.error == .storeKit(.paymentCancelled))
        case .fail(let code):
            #expect(transaction.state == .failed && transaction.error == .storeKit(code))
        case .network(let code):
            #expect(transaction.state == .failed && transaction.error == .network(code))
        case .deferred:
            #expect(transaction.state == .deferred && transaction.error == nil && update.receipt == nil)
        case .interrupted:
            #expect(transaction.state == .failed && transaction.error == .storeKit(.unknown))
        }
        if transaction.state != .purchased { #expect(update.receipt == nil) }
        let owned = try await fixture.store.entitlements(account: "alice").map(\.productId)
        #expect(owned == (transaction.state == .purchased && type != .consumable ? [productId] : []))
        if transaction.state == .purchased, type == .autoRenewable {
            let expiry = try #require(try await fixture.store.entitlements(account: "alice").first?.expiresDate)
            #expect(expiry > fixture.clock.now())
        }
        if type == .nonRenewing {
            // Apple's servers keep no non-renewing expiry: the term is the app's.
            #expect(try await fixture.store.entitlements(account: "alice").first?.expiresDate == nil)
        }
        // Completed states stay unfinished until the app finishes them; deferred cannot be finished.
        #expect(try await fixture.store.unfinished(account: "alice").map(\.transaction.id) == [transaction.id])
    }
}
