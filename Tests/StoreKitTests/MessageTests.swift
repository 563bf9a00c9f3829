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
    }
}
