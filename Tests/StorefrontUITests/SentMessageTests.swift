import CellGrid
import Foundation
import StoreCore
import StoreKitModel
import Testing

@testable import StorefrontUI

/// What the App Store sends the account outside a purchase, as a read of the store takes it: a
/// win-back offer's message (StoreKit's win-back sheet), a generic message, and a purchase started
/// on the App Store (the promoted purchase's sheet); each key's whole change of state and every
/// effect.
@Suite struct SentMessageTests {
    typealias F = UIFixture

    static let comeback = "com.example.storefront.premium.comeback"
    static let winBack = AppStoreMessage(
        id: 1, reason: .winBackOffer, productId: F.monthly, offerId: comeback, sentDate: F.now)
    static let generic = AppStoreMessage(id: 2, reason: .generic, productId: nil, offerId: nil, sentDate: F.now)
    static let promoted = PurchaseIntentInfo(id: 1, productId: F.removeAds, offerId: nil, createdDate: F.now)
    static let redeemed = PurchaseIntentInfo(id: 2, productId: F.monthly, offerId: comeback, createdDate: F.now)

    static func snapshot(
        messages: [AppStoreMessage] = [], intents: [PurchaseIntentInfo] = [], account: String? = "alice"
    ) -> Action {
        .snapshot(
            StoreSnapshot(
                history: [], pending: [], balances: [:], entitlements: [], controls: TestControls(), account: account,
                messages: messages, intents: intents))
    }

    @Test func theWinBackMessageShowsTheOfferAndEnterOpensThePurchaseWithIt() {
        var store = ReducerTestStore(F.state())
        store.send(Self.snapshot(messages: [Self.winBack])) { $0.sheet = .sentMessage(Self.winBack) }
        let text = Golden.text(store.state)
        #expect(text.contains("Win-Back Offer"), "\(text)")
        #expect(text.contains("Come back to Premium Monthly with a special offer."), "\(text)")
        #expect(text.contains("Win-back offer: Free for 1 month, then $4.99/month"), "\(text)")
        #expect(text.contains("Enter subscribe"), "\(text)")
        let confirm = ConfirmPurchase(productId: F.monthly, quantity: 1, pendingIds: [], offerId: Self.comeback)
        store.press(.enter) { $0.sheet = .confirmPurchase(confirm) }
        store.press(
            .enter, effects: [.buyWithOffer(productId: F.monthly, offerId: Self.comeback, account: "alice")]
        ) {
            $0.sheet = nil
            $0.status = ReducerTests.status(UIStrings(.english).purchasing("Premium Monthly"))
        }
        #expect(UIStrings(.simplifiedChinese).winBackTitle == "赢回优惠")
    }

    @Test func escapeLeavesTheWinBackOfferAndItIsNotShownAgain() {
        var store = ReducerTestStore(F.state())
        store.send(Self.snapshot(messages: [Self.winBack])) { $0.sheet = .sentMessage(Self.winBack) }
        store.press(.character("d"))
        store.press(.escape) { $0.sheet = nil }
        // The store gave it once: the next read has nothing.
        store.send(Self.snapshot())
    }

    @Test func aGenericMessageIsShownAndClosed() {
        var store = ReducerTestStore(F.state())
        store.send(Self.snapshot(messages: [Self.generic])) { $0.sheet = .sentMessage(Self.generic) }
        let text = Golden.text(store.state)
        #expect(text.contains("App Store"), "\(text)")
        #expect(text.contains("The App Store has a message for your account."), "\(text)")
        #expect(text.contains("Enter OK"), "\(text)")
        store.press(.enter) { $0.sheet = nil }
        store.arrange { $0.sheet = .sentMessage(Self.generic) }
        store.press(.escape) { $0.sheet = nil }
    }

    @Test func thePromotedPurchaseSheetBuysWithTheIntentsOffer() {
        var store = ReducerTestStore(F.state())
        store.send(Self.snapshot(intents: [Self.redeemed])) { $0.sheet = .promotedPurchase(Self.redeemed) }
        let text = Golden.text(store.state)
        #expect(text.contains("Promoted In-App Purchase"), "\(text)")
        #expect(text.contains("You started buying Premium Monthly on the App Store."), "\(text)")
        #expect(text.contains("Win-back offer: Free for 1 month"), "\(text)")
        #expect(text.contains("Enter buy"), "\(text)")
        let confirm = ConfirmPurchase(productId: F.monthly, quantity: 1, pendingIds: [], offerId: Self.comeback)
        store.press(.enter) { $0.sheet = .confirmPurchase(confirm) }
        store.press(
            .enter, effects: [.buyWithOffer(productId: F.monthly, offerId: Self.comeback, account: "alice")]
        ) {
            $0.sheet = nil
            $0.status = ReducerTests.status(UIStrings(.english).purchasing("Premium Monthly"))
        }
    }

    @Test func aPromotedPurchaseWithoutAnOfferIsTheNormalPurchaseAndEscapeLeavesIt() {
        var store = ReducerTestStore(F.state())
        store.send(Self.snapshot(intents: [Self.promoted])) { $0.sheet = .promotedPurchase(Self.promoted) }
        let text = Golden.text(store.state)
        #expect(text.contains("You started buying Remove Ads on the App Store."), "\(text)")
        #expect(text.contains("Price"), "\(text)")
        store.press(.escape) {
            $0.sheet = nil
            $0.status = ReducerTests.status("Not bought: Remove Ads from the App Store was left.")
        }
        store.arrange { $0.sheet = .promotedPurchase(Self.promoted) }
        let confirm = ConfirmPurchase(productId: F.removeAds, quantity: 1, pendingIds: [])
        store.press(.enter) { $0.sheet = .confirmPurchase(confirm) }
        store.press(.enter, effects: [.buy(productId: F.removeAds, quantity: 1, account: "alice")]) {
            $0.sheet = nil
            $0.status = ReducerTests.status(UIStrings(.english).purchasing("Remove Ads"))
        }
    }

    /// Taken while the user works in another sheet, they wait, and come one at a time as each
    /// sheet closes: the account's own messages, then the purchases it started.
    @Test func whatWasTakenWaitsForTheMainScreenInOrder() {
        var store = ReducerTestStore(F.state())
        store.arrange { $0.sheet = .testControls(selection: 0) }
        store.send(Self.snapshot(messages: [Self.winBack, Self.generic], intents: [Self.promoted])) {
            $0.messagesWaiting = [Self.winBack, Self.generic]
            $0.intentsWaiting = [Self.promoted]
        }
        store.press(.escape) { $0.sheet = nil }
        store.send(Self.snapshot()) {
            $0.messagesWaiting = [Self.generic]
            $0.sheet = .sentMessage(Self.winBack)
        }
        store.press(.escape) { $0.sheet = nil }
        store.send(Self.snapshot()) {
            $0.messagesWaiting = []
            $0.sheet = .sentMessage(Self.generic)
        }
        store.press(.enter) { $0.sheet = nil }
        store.send(Self.snapshot()) {
            $0.intentsWaiting = []
            $0.sheet = .promotedPurchase(Self.promoted)
        }
    }

    @Test func anotherAccountsMessagesAreNotShownAndASwitchDropsThoseWaiting() throws {
        var store = ReducerTestStore(F.state())
        store.send(Self.snapshot(messages: [Self.generic], account: "kenji"))
        var state = F.state()
        state.messagesWaiting = [Self.generic]
        state.intentsWaiting = [Self.promoted]
        _ = Reducer.switchAccount(&state, try #require(F.catalog.account(named: "kenji")))
        #expect(state.messagesWaiting.isEmpty && state.intentsWaiting.isEmpty)
    }
}
