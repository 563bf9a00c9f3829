import Foundation
@_spi(Storefront) import StoreKit
import StoreKitTest
import Testing

import struct StoreKitModel.RefundPercentage

extension StoreKitLibrary {
    /// A refund of part of a purchase, as the App Store signs it (iOS 26.4's `revocationType`).
    @Suite struct ProratedRefundTests {
        @Test func aProratedRefundCarriesItsShare() async throws {
            _ = try session()
            let gems = try #require(try await Product.products(for: [Products.gems]).first)
            guard case .success(let bought) = try await gems.purchase(options: [.quantity(3)]) else {
                Issue.record("expected a purchase")
                return
            }
            let share = try #require(RefundPercentage(text: "33.333"))
            let store = try await StoreConnection.shared.store()
            _ = try await store.backend.perform(.refund(String(bought.unsafePayloadValue.id), percentage: share))
            let refunded = try #require(await Transaction.latest(for: Products.gems)?.unsafePayloadValue)
            #expect(refunded.revocationType == .proratedRefund)
            #expect(refunded.revocationPercentage == Decimal(string: "33.333"))
            #expect(refunded.revocationTypeStringRepresentation == "REFUND_PRORATED")
        }
    }
}
