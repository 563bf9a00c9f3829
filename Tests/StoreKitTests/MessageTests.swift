import Foundation
@_spi(Storefront) import StoreKit
import StoreKitTest
import Testing

extension StoreKitLibrary {
    /// `Message.messages`: what the App Store would show over the app, heard by a listening app.
    @Suite struct MessageTests {
        @Test func aPriceIncreaseAndABillingIssueAreMessagesOnce() async throws {
            let session = try session()
            let monthly = try #require(try await Product.products(for: [Products.monthly]).first)
            let messages = Collected(Message.messages)
            defer { messages.stop() }
            guard case .success(let bought) = try await monthly.purchase() else {
                Issue.record("expected a purchase")
                return
            }
            try session.requestPriceIncreaseConsentForTransaction(identifier: Int(bought.unsafePayloadValue.id))
            #expect(try await eventually { messages.all.map(\.reason) == [.priceIncreaseConsent] })
            session.shouldEnterBillingRetryOnRenewal = true
            try session.forceRenewalOfSubscription(productIdentifier: Products.monthly)
            #expect(try await eventually { messages.all.map(\.reason) == [.priceIncreaseConsent, .billingIssue] })
            try await Task.sleep(for: .milliseconds(600))
            #expect(messages.all.count == 2)
        }

        @Test func aGenericMessageATesterSendsIsAMessageOnce() async throws {
            _ = try session()
            let messages = Collected(Message.messages)
            defer { messages.stop() }
            let store = try await StoreConnection.shared.store()
            _ = try await store.backend.perform(.sendMessage(account: store.account.name, reason: .generic))
            #expect(try await eventually { messages.all.map(\.reason) == [.generic] })
            try await Task.sleep(for: .milliseconds(600))
            #expect(messages.all.count == 1)
        }

        @Test func theWinBackMessageComesOnceTheSubscriptionHasLapsed() async throws {
            let session = try session()
            let monthly = try #require(try await Product.products(for: [Products.monthly]).first)
            let messages = Collected(Message.messages)
            defer { messages.stop() }
            _ = try await monthly.purchase()
            try await Task.sleep(for: .milliseconds(600))
            #expect(messages.all.isEmpty, "subscribed: no win-back offer to make")
            try session.expireSubscription(productIdentifier: Products.monthly)
            #expect(try await eventually { messages.all.map(\.reason) == [.winBackOffer] })
            try await Task.sleep(for: .milliseconds(600))
            #expect(messages.all.count == 1)
        }

        @Test func theSandboxSwitchSuppressesTheWinBackMessage() async throws {
            let session = try session()
            try await changeControls { $0.winBackMessages = false }
            let monthly = try #require(try await Product.products(for: [Products.monthly]).first)
            let messages = Collected(Message.messages)
            defer { messages.stop() }
            _ = try await monthly.purchase()
            try session.expireSubscription(productIdentifier: Products.monthly)
            try await Task.sleep(for: .milliseconds(800))
            #expect(messages.all.isEmpty)
            try await changeControls { $0.winBackMessages = true }
            #expect(try await eventually { messages.all.map(\.reason) == [.winBackOffer] })
        }
    }
}
