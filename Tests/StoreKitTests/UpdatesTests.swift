import Foundation
@_spi(Storefront) import StoreKit
import StoreKitTest
import Testing

extension StoreKitLibrary {
    /// `Transaction.updates` and the entitlements: what reaches an app outside its purchase calls.
    @Suite struct UpdatesTests {
        @Test func updatesBringUnfinishedThenOutsidePurchasesButNeverThePurchasesOwn() async throws {
            let session = try session()
            let gems = try #require(try await Product.products(for: [Products.gems]).first)
            guard case .success(let left) = try await gems.purchase() else {
                Issue.record("expected a purchase")
                return
            }
            let listener = Collected(Transaction.updates)
            defer { listener.stop() }
            #expect(try await eventually { listener.all.count == 1 })
            #expect(listener.all.first?.unsafePayloadValue.id == left.unsafePayloadValue.id)

            guard case .success(let own) = try await gems.purchase() else {
                Issue.record("expected a purchase")
                return
            }
            let outside = try await session.buyProduct(identifier: Products.removeAds)
            #expect(try await eventually { listener.all.count == 2 })
            #expect(listener.all.last?.unsafePayloadValue.id == outside.id)
            #expect(!listener.all.contains { $0.unsafePayloadValue.id == own.unsafePayloadValue.id })
        }

        @Test func anApprovedAskToBuyAndARefundArriveAsUpdates() async throws {
            let session = try session()
            let removeAds = try #require(try await Product.products(for: [Products.removeAds]).first)
            let listener = Collected(Transaction.updates)
            defer { listener.stop() }
            session.askToBuyEnabled = true
            guard case .pending = try await removeAds.purchase() else {
                Issue.record("expected pending")
                return
            }
            let request = try #require(session.allTransactions().first { $0.state == .deferred })
            try session.approveAskToBuyTransaction(identifier: request.identifier)
            #expect(try await eventually { listener.all.count == 1 })
            let approved = try #require(listener.all.first?.unsafePayloadValue)
            #expect(approved.productID == Products.removeAds && approved.revocationDate == nil)
            #expect(await removeAds.currentEntitlement != nil)
            await approved.finish()

            try session.refundTransaction(identifier: Int(approved.id))
            #expect(try await eventually { listener.all.count == 2 })
            let refunded = try #require(listener.all.last?.unsafePayloadValue)
            #expect(refunded.id == approved.id && refunded.revocationDate != nil)
            #expect(refunded.revocationReason == .other)
            #expect(refunded.revocationType == .fullRefund && refunded.revocationPercentage == 100)
            #expect(await removeAds.currentEntitlement == nil)
        }

        @Test func aSubscriptionsEntitlementFollowsItsRenewalAndExpiry() async throws {
            let session = try session()
            let monthly = try #require(try await Product.products(for: [Products.monthly]).first)
            guard case .success(.verified(let first)) = try await monthly.purchase() else {
                Issue.record("expected a verified purchase")
                return
            }
            #expect(first.expirationDate != nil && first.subscriptionGroupID == "premium")
            await first.finish()
            try session.forceRenewalOfSubscription(productIdentifier: Products.monthly)
            let renewed = await collect(Transaction.currentEntitlements(for: Products.monthly))
            #expect(renewed.count == 1)
            let renewal = try #require(renewed.first?.unsafePayloadValue)
            #expect(
                renewal.id != first.id && renewal.originalID == first.originalID
                    && renewal.reason == Transaction.Reason.renewal)
            try session.expireSubscription(productIdentifier: Products.monthly)
            #expect(await collect(Transaction.currentEntitlements).isEmpty)
            #expect(await collect(Transaction.all).count == 2)
            #expect(await monthly.latestTransaction?.unsafePayloadValue.id == renewal.id)
        }

        @Test func aPurchaseLeftUnfinishedIsThereWhenTheAppStartsAgain() async throws {
            let state = FileManager.default.temporaryDirectory.appendingPathComponent("storekit-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: state) }
            _ = try session(["STOREFRONT_STATE": state.path])
            let gems = try #require(try await Product.products(for: [Products.gems]).first)
            guard case .success(let bought) = try await gems.purchase() else {
                Issue.record("expected a purchase")
                return
            }
            // The app's next launch: the same state directory, opened again.
            _ = try session(["STOREFRONT_STATE": state.path])
            let unfinished = await collect(Transaction.unfinished)
            #expect(unfinished.map { $0.unsafePayloadValue.id } == [bought.unsafePayloadValue.id])
            #expect(FileManager.default.fileExists(atPath: state.appendingPathComponent("store.sqlite").path))
        }
    }
}
