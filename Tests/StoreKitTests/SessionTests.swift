import Foundation
@_spi(Storefront) import StoreKit
import StoreKitTest
import Testing

extension StoreKitLibrary {
    /// `SKTestSession`'s settings and actions: each one the store's own test control or
    /// transaction-manager action, seen through StoreKit 2's API.
    @Suite struct SessionTests {
        @Test func settingsAreTheStoresControls() async throws {
            let session = try session()
            session.timeRate = .oneRenewalEveryTwoSeconds
            session.billingGracePeriodIsEnabled = true
            session.shouldEnterBillingRetryOnRenewal = true
            session.askToBuyEnabled = true
            session.interruptedPurchasesEnabled = true
            #expect(session.timeRate == .oneRenewalEveryTwoSeconds)
            #expect(session.billingGracePeriodIsEnabled && session.shouldEnterBillingRetryOnRenewal)
            let controls = try await StoreConnection.shared.store().backend.controls()
            #expect(controls.timeRate.rawValue == 1005 && controls.gracePeriod && controls.billingIssues)
            #expect(controls.askToBuy && controls.interruptedPurchases)
            #expect(session.locale.identifier == "en_US")
            session.resetToDefaultState()
            #expect(session.timeRate == .realTime && !session.askToBuyEnabled && !session.interruptedPurchasesEnabled)
        }

        @Test func anInterruptedPurchaseIsPendingUntilTheIssueIsResolved() async throws {
            let session = try session()
            let removeAds = try #require(try await Product.products(for: [Products.removeAds]).first)
            let listener = Collected(Transaction.updates)
            defer { listener.stop() }
            session.interruptedPurchasesEnabled = true
            guard case .pending = try await removeAds.purchase() else {
                Issue.record("expected pending")
                return
            }
            #expect(await removeAds.currentEntitlement == nil)
            let interrupted = try #require(session.allTransactions().first { $0.state == .failed })
            try session.resolveIssueForTransaction(identifier: interrupted.identifier)
            #expect(try await eventually { listener.all.count == 1 })
            #expect(listener.all.first?.unsafePayloadValue.productID == Products.removeAds)
            #expect(await removeAds.currentEntitlement != nil)
        }

        @Test func aDeclinedAskToBuySendsTheAppNothing() async throws {
            let session = try session()
            let removeAds = try #require(try await Product.products(for: [Products.removeAds]).first)
            let listener = Collected(Transaction.updates)
            defer { listener.stop() }
            session.askToBuyEnabled = true
            guard case .pending = try await removeAds.purchase() else {
                Issue.record("expected pending")
                return
            }
            let request = try #require(session.allTransactions().first { $0.pendingAskToBuyConfirmation })
            try session.declineAskToBuyTransaction(identifier: request.identifier)
            // Apple: "your app doesn't receive a transaction because you declined Ask to Buy".
            try await Task.sleep(for: .milliseconds(300))
            #expect(listener.all.isEmpty)
            #expect(await collect(Transaction.all).isEmpty)
        }

        @Test func transactionsCanBeDeletedAndClearedAndUnknownOnesAreNamed() async throws {
            let session = try session()
            let gems = try #require(try await Product.products(for: [Products.gems]).first)
            _ = try await gems.purchase()
            _ = try await gems.purchase()
            let all = session.allTransactions()
            #expect(
                all.count == 2 && all.allSatisfy { $0.state == .purchased && $0.productIdentifier == Products.gems })
            try session.deleteTransaction(identifier: try #require(all.first).identifier)
            #expect(session.allTransactions().count == 1)
            session.clearTransactions()
            #expect(session.allTransactions().isEmpty)
            #expect(throws: SKTestError.self) { try session.refundTransaction(identifier: 1) }
            #expect(throws: SKTestError.self) {
                try session.expireSubscription(productIdentifier: Products.gems)
            }
        }

        @Test func autoRenewAndPriceIncreaseReachTheSubscription() async throws {
            let session = try session()
            let monthly = try #require(try await Product.products(for: [Products.monthly]).first)
            guard case .success(let bought) = try await monthly.purchase() else {
                Issue.record("expected a purchase")
                return
            }
            let id = Int(bought.unsafePayloadValue.id)
            let listed = try #require(session.allTransactions().first { $0.identifier == id })
            #expect(listed.originalTransactionIdentifier == id && listed.productIdentifier == Products.monthly)
            // The JWS carries whole milliseconds.
            #expect(abs(listed.purchaseDate.timeIntervalSince(bought.unsafePayloadValue.purchaseDate)) < 0.001)
            let expiry = try #require(bought.unsafePayloadValue.expirationDate)
            #expect(abs(try #require(listed.expirationDate).timeIntervalSince(expiry)) < 0.001)
            #expect(listed.revocationDate == nil)
            try session.disableAutoRenewForTransaction(identifier: id)
            let store = try await StoreConnection.shared.store()
            var renewal = try await store.backend.entitlements(account: store.account.name).first?.renewal
            #expect(renewal?.willAutoRenew == false)
            try session.enableAutoRenewForTransaction(identifier: id)
            try session.requestPriceIncreaseConsentForTransaction(identifier: id)
            renewal = try await store.backend.entitlements(account: store.account.name).first?.renewal
            #expect(renewal?.willAutoRenew == true)
            #expect(renewal?.priceIncreaseStatus != nil)
        }

        @Test func theAccountsPaymentsAndTheStoreAnswer() async throws {
            _ = try session()
            #expect(await AppStore.canMakePayments)
            try await AppStore.sync()
            _ = try session(["STOREFRONT_ACCOUNT": "restricted"])
            #expect(await AppStore.canMakePayments == false)
            let gems = try #require(try await Product.products(for: [Products.gems]).first)
            await #expect(throws: Product.PurchaseError.purchaseNotAllowed) { _ = try await gems.purchase() }
        }

        @Test func aConfigurationFileIsFoundByNameOrNamedWhenMissing() throws {
            #expect(throws: SKTestError.self) { _ = try SKTestSession(configurationFileNamed: "NoSuchConfiguration") }
            let session = try SKTestSession(configurationFileNamed: "products")
            #expect(session.configurationURL.lastPathComponent == "products.json")
        }
    }
}
