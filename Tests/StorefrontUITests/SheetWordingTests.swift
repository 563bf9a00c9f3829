import CellGrid
import Foundation
import StoreCore
import StoreKitModel
import Testing

@testable import StorefrontUI

/// The words of the sheets read as one voice: a subscription is subscribed to wherever the
/// sheet names it, and a message the store wrote in lower case starts its sentence with a
/// capital where it is shown as one.
@Suite struct SheetWordingTests {
    typealias F = UIFixture

    /// An account that had Premium Monthly before pays its full price: the sheet asks to
    /// subscribe, as it does with an offer or on the monthly plan (StoreKit's sheet says
    /// "Subscribe" for every subscription).
    @Test func aSubscriptionAtFullPriceIsSubscribedTo() {
        var state = F.state(TerminalSize(columns: 120, rows: 40))
        var before = F.transaction("2000000000000001", F.monthly, .purchased, finished: true)
        before.terms = TransactionTerms(
            price: Decimal(string: "4.99") ?? 0, currency: "USD", expirationDate: F.now.addingTimeInterval(-86_400),
            billingPlan: .upFront)
        state.history = [before]
        state.sheet = .confirmPurchase(ConfirmPurchase(productId: F.monthly, quantity: 1, pendingIds: []))
        let text = Golden.text(state)
        #expect(text.contains("Do you want to subscribe to Premium Monthly for $4.99/month?"), "\(text)")
        #expect(!text.contains("buy one"), "\(text)")
        // A consumable is still bought.
        state.sheet = .confirmPurchase(ConfirmPurchase(productId: F.gems, quantity: 1, pendingIds: []))
        #expect(Golden.text(state).contains("Do you want to buy one 100 Gems for $0.99?"))
    }

    @Test func aStoreMessageStartsItsSentenceWithACapital() {
        var state = F.state()
        F.send(&state, .effectFailed("no transaction 2000000000000009; see `storefront transactions`"))
        #expect(Golden.text(state).contains("No transaction 2000000000000009;"), "\(Golden.text(state))")
        state.sheet = .error(
            ErrorSheet(kind: .verification(reason: "receipt rejected: status 21003"), productId: F.gems))
        #expect(Golden.text(state).contains("Receipt rejected: status 21003"), "\(Golden.text(state))")
    }

    /// Only a plain word is capitalised: an identifier, a path or a code keeps its spelling.
    @Test func onlyAPlainFirstWordIsCapitalised() {
        #expect(UIStrings.sentence("the store is down") == "The store is down")
        #expect(
            UIStrings.sentence("com.example.storefront.gems.100: unknown") == "com.example.storefront.gems.100: unknown"
        )
        #expect(UIStrings.sentence("/tmp/state: full") == "/tmp/state: full")
        #expect(UIStrings.sentence("iOS 18 needed") == "iOS 18 needed")
        #expect(UIStrings.sentence("商店不可用") == "商店不可用")
        #expect(UIStrings.sentence("") == "")
    }
}
