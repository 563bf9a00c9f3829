import Foundation
import StoreCore
@_spi(Storefront) import StoreKit
import StoreKitTest
import Testing

extension StoreKitLibrary {
    /// `Product.SubscriptionInfo.Status`: a subscription's state, its latest transaction and its
    /// renewal info, signed by the store and verified against its root, as the store's own
    /// renewal state changes.
    @Suite struct SubscriptionStatusTests {
        @Test func aStatusCarriesTheSignedRenewalInfoAndFollowsItsChanges() async throws {
            let session = try session()
            #expect(try await Product.SubscriptionInfo.status(for: "premium").isEmpty)
            let monthly = try #require(try await Product.products(for: [Products.monthly]).first)
            guard case .success(.verified(let first)) = try await monthly.purchase() else {
                Issue.record("expected a verified purchase")
                return
            }
            await first.finish()
            let statuses = try await #require(monthly.subscription).status
            #expect(statuses.count == 1)
            let status = try #require(statuses.first)
            #expect(status.state == .subscribed)
            guard case .verified(let info) = status.renewalInfo, case .verified(let latest) = status.transaction else {
                Issue.record("expected verified renewal info and transaction")
                return
            }
            #expect(latest.id == first.id)
            #expect(info.originalTransactionID == first.originalID)
            #expect(info.currentProductID == Products.monthly && info.autoRenewPreference == Products.monthly)
            #expect(info.willAutoRenew && !info.isInBillingRetry)
            #expect(info.expirationReason == nil && info.gracePeriodExpirationDate == nil)
            #expect(info.priceIncreaseStatus == .noIncreasePending)
            #expect(info.renewalDate == first.expirationDate)
            #expect(info.renewalPrice == Decimal(string: "4.99") && info.currency?.identifier == "USD")
            #expect(info.recentSubscriptionStartDate == first.purchaseDate)
            #expect(info.environment == .xcode && info.appTransactionID == first.appTransactionID)
            #expect(info.renewalBillingPlanType == .upFront && info.commitmentInfo == nil)
            let json = try JSONSerialization.jsonObject(with: info.jsonRepresentation) as? [String: Any]
            #expect(json?["originalTransactionId"] as? String == String(first.originalID))
            #expect(!status.renewalInfo.jwsRepresentation.isEmpty && status.renewalInfo.signedDate == info.signedDate)
            #expect(await first.subscriptionStatus?.state == .subscribed)

            try session.disableAutoRenewForTransaction(identifier: Int(first.id))
            let off = try #require(try await Product.SubscriptionInfo.status(for: "premium").first)
            #expect(off.state == .subscribed && off.renewalInfo.unsafePayloadValue.willAutoRenew == false)
            // Apple gives why it stopped once it has expired, not while the period runs.
            #expect(off.renewalInfo.unsafePayloadValue.expirationReason == nil)

            try session.expireSubscription(productIdentifier: Products.monthly)
            let expired = try #require(try await Product.SubscriptionInfo.status(for: "premium").first)
            #expect(expired.state == .expired)
            #expect(expired.renewalInfo.unsafePayloadValue.expirationReason != nil)
            #expect(expired.transaction.unsafePayloadValue.originalID == first.originalID)
        }

        @Test func updatesSendEachStatusThatChanges() async throws {
            let session = try session()
            let monthly = try #require(try await Product.products(for: [Products.monthly]).first)
            guard case .success(let bought) = try await monthly.purchase() else {
                Issue.record("expected a purchase")
                return
            }
            let first = bought.unsafePayloadValue
            let updates = Collected(Product.SubscriptionInfo.Status.updates)
            defer { updates.stop() }
            // The listener reads what the statuses are when its task first runs; a change before
            // that read is its starting point, not an update, so auto-renew is turned off (and
            // on again) until the listener hears it off.
            var heard = false
            for _ in 0..<4 where !heard {
                try session.enableAutoRenewForTransaction(identifier: Int(first.id))
                try session.disableAutoRenewForTransaction(identifier: Int(first.id))
                heard = try await eventually(seconds: 4) {
                    updates.all.contains { !$0.renewalInfo.unsafePayloadValue.willAutoRenew && $0.state == .subscribed }
                }
            }
            #expect(heard)
            try session.expireSubscription(productIdentifier: Products.monthly)
            #expect(try await eventually { updates.all.contains { $0.state == .expired } })
            #expect(
                updates.all.allSatisfy { $0.renewalInfo.unsafePayloadValue.originalTransactionID == first.originalID })
        }

        @Test func theControlsFailOrUnverifyTheStatus() async throws {
            let session = try session()
            let monthly = try #require(try await Product.products(for: [Products.monthly]).first)
            _ = try await monthly.purchase()
            try await changeControls { $0.verificationFailure = VerificationFailure(token: "21002") }
            let status = try #require(try await Product.SubscriptionInfo.status(for: "premium").first)
            guard case .unverified(_, let error) = status.renewalInfo, case .unverified = status.transaction else {
                Issue.record("expected unverified renewal info and transaction")
                return
            }
            #expect(error == .invalidSignature)
            let offline = StoreKitError.networkError(URLError(.notConnectedToInternet))
            try await session.setSimulatedError(.generic(offline), forAPI: .subscriptionStatus)
            await #expect(throws: offline) { try await Product.SubscriptionInfo.status(for: "premium") }
            try await session.setSimulatedError(nil, forAPI: .subscriptionStatus)
            #expect(try await Product.SubscriptionInfo.status(for: "premium").count == 1)
        }
    }
}
