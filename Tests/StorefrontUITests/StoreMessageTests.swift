import CellGrid
import Foundation
import StoreCore
import StoreKitModel
import Testing

@testable import StorefrontUI

/// StoreKit's own messages over the app: the price-increase consent sheet, the billing-issue
/// message and the child's Ask Permission, each key's whole change of state and every effect.
@Suite struct StoreMessageTests {
    typealias F = UIFixture

    static let monthly = SubscriptionSheetTests.monthly

    static func entitlement(_ renewal: RenewalInfo) -> Entitlement {
        Entitlement(
            productId: F.monthly, type: .autoRenewable, transactionId: monthly.id, originalTransactionId: monthly.id,
            purchaseDate: F.now, expiresDate: F.now.addingTimeInterval(16 * 86_400), willAutoRenew: true,
            renewal: renewal)
    }

    static func snapshot(_ renewal: RenewalInfo) -> Action {
        .snapshot(
            StoreSnapshot(
                history: [monthly], pending: [], balances: [:], entitlements: [entitlement(renewal)],
                controls: TestControls()))
    }

    static let increase = RenewalInfo(
        willAutoRenew: true, autoRenewProductId: F.monthly, priceIncreaseStatus: .pending,
        renewalPrice: Decimal(string: "5.49"))
    static let consent = StoreMessage(reason: .priceIncreaseConsent, transactionId: monthly.id, productId: F.monthly)
    static let billing = StoreMessage(reason: .billingIssue, transactionId: monthly.id, productId: F.monthly)

    static func apply(_ state: inout AppState, _ renewal: RenewalInfo) {
        state.history = [monthly]
        state.entitlements = [entitlement(renewal)]
    }

    @Test func aPriceIncreaseWaitingForConsentShowsItsSheetOnceAndEnterAgrees() {
        var store = ReducerTestStore(F.state())
        store.send(Self.snapshot(Self.increase)) {
            Self.apply(&$0, Self.increase)
            $0.messagesShown = [Self.consent]
            $0.sheet = .storeMessage(Self.consent)
        }
        let text = Golden.text(store.state)
        #expect(text.contains("Subscription Price Increase"), "\(text)")
        #expect(text.contains("The price rises from $4.99/month to $5.49/month."), "\(text)")
        #expect(text.contains("If you agree, it renews in 16 d at the new price."), "\(text)")
        store.press(
            .enter, effects: [.manage(.priceIncrease(Self.monthly.id, .consent)), .refresh(account: "alice")]
        ) {
            $0.sheet = nil
            $0.status = ReducerTests.status("You agreed to the new price of Premium Monthly.")
        }
        // The next read of the store finds it still pending (the consent is on its way): once a launch.
        store.send(Self.snapshot(Self.increase))
    }

    @Test func dDeclinesThePriceIncreaseAndEscapeLeavesItForLater() {
        var store = ReducerTestStore(F.state())
        store.arrange {
            Self.apply(&$0, Self.increase)
            $0.sheet = .storeMessage(Self.consent)
        }
        store.press(
            .character("d"), effects: [.manage(.priceIncrease(Self.monthly.id, .decline)), .refresh(account: "alice")]
        ) {
            $0.sheet = nil
            $0.status = ReducerTests.status("You declined the new price of Premium Monthly; it ends at its renewal.")
        }
        store.arrange { $0.sheet = .storeMessage(Self.consent) }
        store.press(.escape) { $0.sheet = nil }
        #expect(UIStrings(.simplifiedChinese).priceIncreaseTitle == "订阅价格上涨")
    }

    @Test func aBillingIssueShowsStoreKitsMessageWhichResolvesIt() {
        var store = ReducerTestStore(F.state())
        let retry = RenewalInfo(
            willAutoRenew: true, autoRenewProductId: F.monthly, isInBillingRetry: true,
            gracePeriodExpirationDate: F.now.addingTimeInterval(5 * 86_400))
        store.send(Self.snapshot(retry)) {
            Self.apply(&$0, retry)
            $0.messagesShown = [Self.billing]
            $0.sheet = .storeMessage(Self.billing)
        }
        let text = Golden.text(store.state)
        #expect(text.contains("Billing Problem"), "\(text)")
        #expect(text.contains("Enter update payment"), "\(text)")
        // Declining is for a price increase only.
        store.press(.character("d"))
        store.press(.enter, effects: [.manage(.resolveIssue(Self.monthly.id)), .refresh(account: "alice")]) {
            $0.sheet = nil
            $0.status = ReducerTests.status("Payment method updated; Premium Monthly renews.")
        }
        #expect(UIStrings(.simplifiedChinese).billingIssueTitle == "付款问题")
    }

    /// The retry billed while the message was up: it closes and says so, and Enter no longer
    /// asks the store to resolve what is resolved.
    @Test func aBillingIssueThatEndedWhileShownClosesItsMessage() {
        var store = ReducerTestStore(F.state())
        let retry = RenewalInfo(
            willAutoRenew: true, autoRenewProductId: F.monthly, isInBillingRetry: true,
            gracePeriodExpirationDate: F.now.addingTimeInterval(5 * 86_400))
        store.send(Self.snapshot(retry)) {
            Self.apply(&$0, retry)
            $0.messagesShown = [Self.billing]
            $0.sheet = .storeMessage(Self.billing)
        }
        let billed = RenewalInfo(willAutoRenew: true, autoRenewProductId: F.monthly)
        store.send(Self.snapshot(billed)) {
            Self.apply(&$0, billed)
            $0.sheet = nil
            $0.status = ReducerTests.status(
                "The billing problem with Premium Monthly is over: the store billed it, or the subscription ended.")
        }
    }

    @Test func aMessageWaitsWhileAnotherSheetIsOpen() {
        var store = ReducerTestStore(F.state())
        store.arrange { $0.sheet = .testControls(selection: 0) }
        store.send(Self.snapshot(Self.increase)) { Self.apply(&$0, Self.increase) }
        store.press(.escape) { $0.sheet = nil }
        store.send(Self.snapshot(Self.increase)) {
            $0.messagesShown = [Self.consent]
            $0.sheet = .storeMessage(Self.consent)
        }
    }

    @Test func anAskToBuyAccountAsksPermissionBeforeTheRequestIsSent() {
        var store = ReducerTestStore(F.state())
        store.arrange { $0.controls.askToBuy = true }
        let product = store.state.selectedProduct?.id ?? ""
        let confirm = ConfirmPurchase(productId: product, quantity: 1, pendingIds: [])
        store.press(.enter) { $0.sheet = .confirmPurchase(confirm) }
        store.press(.enter) { $0.sheet = .askPermission(confirm) }
        let text = Golden.text(store.state)
        #expect(text.contains("Ask Permission"), "\(text)")
        #expect(text.contains("Ask your parent to buy"), "\(text)")
        // Not Now sends nothing.
        store.press(.escape) {
            $0.sheet = nil
            $0.status = ReducerTests.status("Not asked: no request was sent.")
        }
        store.press(.enter) { $0.sheet = .confirmPurchase(confirm) }
        store.press(.enter) { $0.sheet = .askPermission(confirm) }
        let title = Presentation.title(store.state, product: product)
        store.press(.enter, effects: [.buy(productId: product, quantity: 1, account: "alice")]) {
            $0.sheet = nil
            $0.status = ReducerTests.status(UIStrings(.english).purchasing(title))
        }
        #expect(UIStrings(.simplifiedChinese).askPermissionTitle == "请求许可")
        #expect(UIStrings(.simplifiedChinese).refundDeclined("高级月度") == "App Store 拒绝了“高级月度”的退款；购买保留。")
    }
}
