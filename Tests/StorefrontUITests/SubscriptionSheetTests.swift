import CellGrid
import Foundation
import StoreCore
import StoreKitModel
import StorefrontUI
import Testing

/// StoreKit's manage-subscriptions and refund-request sheets, exhaustively: each key's whole
/// change of state and every effect.
@Suite struct SubscriptionSheetTests {
    typealias F = UIFixture

    static let monthly: Transaction = {
        var monthly = F.transaction("2000000000000002", F.monthly, .purchased, finished: true)
        monthly.terms = TransactionTerms(
            price: Decimal(string: "4.99")!, currency: "USD", expirationDate: F.now.addingTimeInterval(86_400))
        return monthly
    }()
    static let entitlement = Entitlement(
        productId: F.monthly, type: .autoRenewable, transactionId: monthly.id, originalTransactionId: monthly.id,
        purchaseDate: F.now, expiresDate: F.now.addingTimeInterval(86_400), willAutoRenew: true,
        renewal: RenewalInfo(willAutoRenew: true, autoRenewProductId: F.monthly))

    static func subscribed(language: Language = .english) -> ReducerTestStore {
        var store = ReducerTestStore(F.state(language: language))
        store.arrange {
            $0.history = [monthly]
            $0.entitlements = [entitlement]
        }
        return store
    }

    @Test func manageSubscriptionsCancelsAndRefundsTheSelectedOne() {
        var store = Self.subscribed()
        store.press(.character("u")) { $0.sheet = .manageSubscriptions(selection: 0) }
        #expect(Golden.text(store.state).contains("Premium Monthly renews in 24 h"))
        store.press(.enter, effects: [Self.loadMessage(store.state)]) {
            $0.sheet = .cancelSubscription(Self.cancelling)
        }
        store.send(.cancellationMessage(productId: F.monthly, nil)) {
            $0.sheet = .cancelSubscription(Self.cancelling.with(.none))
        }
        store.press(.enter, effects: [.manage(.setAutoRenew(Self.monthly.id, false)), .refresh(account: "alice")]) {
            $0.sheet = .manageSubscriptions(selection: 0)
            $0.status = ReducerTests.status("Premium Monthly cancelled: it runs to the end of its period.")
        }
        store.press(.character("f")) { $0.sheet = .refundRequest(RefundRequest(transactionId: Self.monthly.id)) }
        #expect(Golden.text(store.state).contains("I didn't receive it, or it doesn't work"))
        store.press(.down) { $0.sheet = .refundRequest(RefundRequest(transactionId: Self.monthly.id, reason: 1)) }
        // The reason chosen is the one servers hear (consumptionRequestReason); an issue with
        // receiving or using the purchase is refunded as the app's (revocationReason 1).
        let effects: [Effect] = [
            .manage(.requestRefund(Self.monthly.id, reason: .fulfillmentIssue)), .refresh(account: "alice"),
        ]
        // It waits for the App Store's decision, which the transaction manager makes.
        store.press(.enter, effects: effects) {
            $0.sheet = nil
            $0.refundRequests[Self.monthly.id] = WaitingRefund(reason: .fulfillmentIssue, requestedAt: F.now)
            $0.status = ReducerTests.status(
                "Refund request for Premium Monthly submitted; it waits for the App Store (m, then Y approves, D declines)."
            )
        }
        store.arrange { $0.history = [Self.monthly] }
        store.press(.character("m")) { $0.sheet = .transactionManager(selection: 0) }
        store.press(
            .character("Y"),
            effects: [.manage(.refund(Self.monthly.id, reason: .developerIssue)), .refresh(account: "alice")]
        ) {
            $0.refundRequests = [:]
            $0.status = ReducerTests.status("The App Store approved the refund of Premium Monthly.")
        }
    }

    @Test func aRefundRequestIsDeclinedInTheManagerOrApprovedAtOnceByTheControl() {
        var store = Self.subscribed()
        store.arrange {
            $0.history = [Self.monthly]
            $0.sheet = .refundRequest(RefundRequest(transactionId: Self.monthly.id))
        }
        store.press(
            .enter,
            effects: [
                .manage(.requestRefund(Self.monthly.id, reason: .unintendedPurchase)), .refresh(account: "alice"),
            ]
        ) {
            $0.sheet = nil
            $0.refundRequests[Self.monthly.id] = WaitingRefund(reason: .unintendedPurchase, requestedAt: F.now)
            $0.status = ReducerTests.status(
                "Refund request for Premium Monthly submitted; it waits for the App Store (m, then Y approves, D declines)."
            )
        }
        store.arrange { $0.sheet = .transactionManager(selection: 0) }
        store.press(.character("D"), effects: [.manage(.declineRefund(Self.monthly.id)), .refresh(account: "alice")]) {
            $0.refundRequests = [:]
            $0.status = ReducerTests.status("The App Store declined the refund of Premium Monthly; the purchase stays.")
        }
        // With the test control on, the store grants it at once, as Xcode's test environment does.
        store.arrange {
            $0.controls.autoApproveRefunds = true
            $0.sheet = .refundRequest(RefundRequest(transactionId: Self.monthly.id))
        }
        store.press(
            .enter,
            effects: [
                .manage(.requestRefund(Self.monthly.id, reason: .unintendedPurchase)), .refresh(account: "alice"),
            ]
        ) {
            $0.sheet = nil
            $0.status = ReducerTests.status(
                "Refund request for Premium Monthly submitted; the test environment approves it at once.")
        }
    }

    static let cancelling = CancelSubscription(transactionId: monthly.id, productId: F.monthly, selection: 0)
    static let message = CancellationMessage(
        header: "Before you go", body: "Your streak is 40 days long.", imageAltText: "A flame",
        bulletPoints: ["Offline lessons"], source: .realtime)

    static func loadMessage(_ state: AppState) -> Effect {
        .loadCancellationMessage(
            account: "alice", productId: F.monthly, locale: state.locale.replacingOccurrences(of: "_", with: "-"))
    }

    @Test func cancellingShowsTheRetentionMessageAndEscapeKeepsTheSubscription() {
        var store = Self.subscribed()
        store.press(.character("u")) { $0.sheet = .manageSubscriptions(selection: 0) }
        store.press(.enter, effects: [Self.loadMessage(store.state)]) {
            $0.sheet = .cancelSubscription(Self.cancelling)
        }
        #expect(Golden.text(store.state).contains("Asking the App Store for the developer's message"))
        // A message for another product (a stale answer) changes nothing.
        store.send(.cancellationMessage(productId: F.plusMonthly, Self.message))
        store.send(.cancellationMessage(productId: F.monthly, Self.message)) {
            $0.sheet = .cancelSubscription(Self.cancelling.with(.shown(Self.message)))
        }
        Golden.check("cancel-subscription-80x24", store.state)
        let screen = Golden.text(store.state)
        for text in [
            "Cancel Premium Monthly?", "[image: A flame]", "Before you go", "Your streak", "• Offline lessons",
        ] {
            #expect(screen.contains(text), "\(text) in\n\(screen)")
        }
        store.press(.escape) {
            $0.sheet = .manageSubscriptions(selection: 0)
            $0.status = ReducerTests.status("Premium Monthly kept: it will renew.")
        }
    }

    @Test func aCancelledRefundRequestChangesNothingButSaysSo() {
        var store = Self.subscribed()
        store.arrange { $0.list.setQuery("premium monthly") }
        store.press(.character("f")) { $0.sheet = .refundRequest(RefundRequest(transactionId: Self.monthly.id)) }
        store.press(.escape) {
            $0.sheet = nil
            $0.status = ReducerTests.status("Refund request cancelled.")
        }
    }

    @Test func simulatedErrorsFailTheSheetsAsStoreKitWould() {
        var store = Self.subscribed()
        store.arrange {
            $0.controls.apiErrors = [
                .manageSubscriptions: .network(.notConnectedToInternet), .refundRequest: .storeKit(.unknown),
            ]
        }
        store.press(.character("u")) {
            $0.sheet = .error(
                ErrorSheet(
                    kind: .store(.network(.notConnectedToInternet)), productId: nil, call: .manageSubscriptions))
        }
        // Each sheet names the call that failed, not a purchase.
        let manage = Golden.text(store.state)
        #expect(manage.contains("Manage Subscriptions failed"), "\(manage)")
        #expect(manage.contains("AppStore.showManageSubscriptions(in:)"), "\(manage)")
        #expect(!manage.contains("Purchase failed"), "\(manage)")
        store.arrange { $0.sheet = .refundRequest(RefundRequest(transactionId: Self.monthly.id)) }
        store.press(.enter) {
            $0.sheet = .error(ErrorSheet(kind: .store(.storeKit(.unknown)), productId: nil, call: .refundRequest))
        }
        let refund = Golden.text(store.state)
        #expect(refund.contains("Refund request failed"), "\(refund)")
        #expect(refund.contains("Transaction.RefundRequestError"), "\(refund)")
    }

    /// A price increase declined (auto-renew turned off with it unanswered) no longer reads as
    /// waiting: the subscription ends at its renewal.
    @Test func aDeclinedPriceIncreaseSaysItEndsAtTheRenewal() {
        var store = Self.subscribed()
        let declined = Entitlement(
            productId: F.monthly, type: .autoRenewable, transactionId: Self.monthly.id,
            originalTransactionId: Self.monthly.id, purchaseDate: F.now, expiresDate: F.now.addingTimeInterval(86_400),
            willAutoRenew: false,
            renewal: RenewalInfo(
                willAutoRenew: false, autoRenewProductId: F.monthly, priceIncreaseStatus: .pending,
                renewalPrice: Decimal(string: "5.49")))
        store.arrange { $0.entitlements = [declined] }
        store.press(.character("u")) { $0.sheet = .manageSubscriptions(selection: 0) }
        let text = Golden.text(store.state)
        #expect(text.contains("price increase to $5.49 declined: it end"), "\(text)")
        #expect(!text.contains("waiting for consent"), "\(text)")
    }

    @Test func theSheetsReadWell() {
        var store = Self.subscribed()
        store.press(.character("u")) { $0.sheet = .manageSubscriptions(selection: 0) }
        Golden.check("subscriptions-80x24", store.state)
        store.press(.character("f")) { $0.sheet = .refundRequest(RefundRequest(transactionId: Self.monthly.id)) }
        Golden.check("refund-request-80x24", store.state)
    }

    @Test func anOfferCodeIsTypedAndRedeemedForItsProduct() {
        var store = ReducerTestStore(F.state())
        store.press(.character("c")) { $0.sheet = .redeemCode("") }
        for (index, key) in "FREEMONTH01".enumerated() {
            store.press(.character(key)) { $0.sheet = .redeemCode(String("FREEMONTH01".prefix(index + 1))) }
        }
        store.press(.control("x"))  // not part of a code: ignored
        // Its offer's terms first; Esc goes back to the code, Enter redeems it.
        store.press(.enter) { $0.sheet = .redeemOffer("FREEMONTH01") }
        let terms = Golden.text(store.state)
        #expect(terms.contains("Code FREEMONTH01: Premium Monthly"), "\(terms)")
        #expect(terms.contains("then $4.99/month"), "\(terms)")
        store.press(.escape) { $0.sheet = .redeemCode("FREEMONTH01") }
        store.press(.enter) { $0.sheet = .redeemOffer("FREEMONTH01") }
        store.press(.enter, effects: [.redeem(code: "FREEMONTH01", productId: F.monthly, account: "alice")]) {
            $0.sheet = nil
            $0.status = ReducerTests.status("Redeeming FREEMONTH01 for Premium Monthly…")
        }
        // A code no product has is told as a code, and the sheet stays to correct it.
        store.press(.character("c")) { $0.sheet = .redeemCode("") }
        store.press(.character("x")) { $0.sheet = .redeemCode("x") }
        store.press(.enter) {
            $0.status = ReducerTests.status(
                "The offer code x isn't valid: no product of this app has it (codes are matched exactly, as typed).",
                .warning)
        }
        store.arrange { $0.sheet = .redeemCode("") }
        store.arrange {
            $0.sheet = nil
            $0.controls.apiErrors = [.offerCodeRedeem: .storeKit(.unknown)]
        }
        store.press(.character("c")) {
            $0.sheet = .error(ErrorSheet(kind: .store(.storeKit(.unknown)), productId: nil, call: .offerCodeRedeem))
        }
    }

    @Test func thePurchaseSheetChoosesAPromotionalOrWinBackOffer() {
        var store = ReducerTestStore(F.state())
        // A lapsed subscriber: both offers are the account's to take.
        store.arrange {
            $0.list.setQuery("premium monthly")
            $0.history = [Self.monthly]
        }
        let sheet = { (offer: String?) in
            Sheet.confirmPurchase(ConfirmPurchase(productId: F.monthly, quantity: 1, pendingIds: [], offerId: offer))
        }
        store.press(.enter) { $0.sheet = sheet(nil) }
        store.press(.character("o")) { $0.sheet = sheet("com.example.storefront.premium.halfprice") }
        Golden.check("confirm-promotional-80x24", store.state)
        store.press(.character("o")) { $0.sheet = sheet("com.example.storefront.premium.comeback") }
        store.press(.character("o")) { $0.sheet = sheet(nil) }
        store.press(.character("o")) { $0.sheet = sheet("com.example.storefront.premium.halfprice") }
        store.press(
            .enter,
            effects: [
                .buyWithOffer(
                    productId: F.monthly, offerId: "com.example.storefront.premium.halfprice", account: "alice")
            ]
        ) {
            $0.sheet = nil
            $0.status = ReducerTests.status("Purchasing Premium Monthly…")
        }
    }

    @Test func aNewAccountIsOfferedNeitherAPromotionalNorAWinBackOffer() {
        var store = ReducerTestStore(F.state())
        store.arrange { $0.list.setQuery("premium monthly") }
        store.press(.enter) {
            $0.sheet = .confirmPurchase(ConfirmPurchase(productId: F.monthly, quantity: 1, pendingIds: []))
        }
        store.press(.character("o"))  // nothing to choose: the store would refuse both with SKError 18
        let text = Golden.text(store.state)
        #expect(text.contains("Enter buy   Esc cancel"), "\(text)")
        #expect(!text.contains("o offer"), "\(text)")
        store.press(.escape) { $0.sheet = nil }
        store.press(.character("i")) { $0.sheet = .productDetails }
        Golden.check("details-offers-ineligible-80x24", store.state, styles: true)
    }

    @Test func aSubscriberIsOfferedThePromotionalOfferButNotTheWinBackOne() {
        var store = Self.subscribed()
        store.arrange { $0.list.setQuery("premium monthly") }
        let sheet = { (offer: String?) in
            Sheet.confirmPurchase(ConfirmPurchase(productId: F.monthly, quantity: 1, pendingIds: [], offerId: offer))
        }
        store.press(.enter) { $0.sheet = sheet(nil) }
        store.press(.character("o")) { $0.sheet = sheet("com.example.storefront.premium.halfprice") }
        store.press(.character("o")) { $0.sheet = sheet(nil) }
        store.press(.escape) { $0.sheet = nil }
        store.press(.character("i")) { $0.sheet = .productDetails }
        let text = Golden.text(store.state)
        #expect(text.contains("com.example.storefront.premium.halfprice: available"), "\(text)")
        #expect(text.contains("a subscription in this group is in force"), "\(text)")
    }

    /// The details in Chinese: the same offers, the same reasons. The filter names the product id,
    /// which matches in either language.
    @Test func theDetailsSayWhoMayTakeEachOfferInChineseToo() {
        var newcomer = ReducerTestStore(F.state(language: .simplifiedChinese))
        newcomer.arrange { $0.list.setQuery("premium.monthly") }
        newcomer.press(.character("i")) { $0.sheet = .productDetails }
        Golden.check("details-offers-ineligible-zh-80x24", newcomer.state)
        var subscriber = Self.subscribed(language: .simplifiedChinese)
        subscriber.arrange { $0.list.setQuery("premium.monthly") }
        subscriber.press(.character("i")) { $0.sheet = .productDetails }
        Golden.check("details-offers-subscriber-zh-80x24", subscriber.state)
        let text = Golden.text(subscriber.state)
        #expect(text.contains("此账户可用"), "\(text)")
    }

    /// A promotional offer taken on the plan in force waits for the renewal, and the sheet says so.
    @Test func theSheetShowsAnOfferWaitingForTheRenewal() {
        for (language, words) in [
            (Language.english, "Premium Monthly renews in 24 h · promotional offer from the next renewal"),
            (.simplifiedChinese, "下次续订起享促销优惠"),
        ] {
            let offer = TransactionOffer(
                type: .promotional, id: "com.example.storefront.premium.halfprice", paymentMode: .payAsYouGo,
                period: SubscriptionPeriod(value: 1, unit: .month))
            let waiting = Entitlement(
                productId: F.monthly, type: .autoRenewable, transactionId: Self.monthly.id,
                originalTransactionId: Self.monthly.id, purchaseDate: F.now, expiresDate: Self.entitlement.expiresDate,
                willAutoRenew: true,
                renewal: RenewalInfo(willAutoRenew: true, autoRenewProductId: F.monthly, renewalOffer: offer))
            var store = Self.subscribed(language: language)
            store.arrange { $0.entitlements = [waiting] }
            store.press(.character("u")) { $0.sheet = .manageSubscriptions(selection: 0) }
            let text = Golden.text(store.state)
            #expect(text.contains(words), "\(text)")
        }
    }

    @Test func aSimulatedSubscriptionStatusErrorIsShownInsteadOfTheStatus() {
        var store = Self.subscribed()
        store.arrange { $0.controls.apiErrors = [.subscriptionStatus: .storeKit(.unknown)] }
        store.press(.character("u")) { $0.sheet = .manageSubscriptions(selection: 0) }
        let text = Golden.text(store.state)
        #expect(text.contains("Premium Monthly: status unavailable (SKError 0)"), "\(text)")
        #expect(!text.contains("renews in"), "\(text)")
    }
}

extension CancelSubscription {
    func with(_ message: Message) -> CancelSubscription {
        var copy = self
        copy.message = message
        return copy
    }
}
