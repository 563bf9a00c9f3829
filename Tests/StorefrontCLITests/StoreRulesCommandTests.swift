import Foundation
import TestSupport
import Testing

/// The store's purchase rules as the headless commands show them: the free-trial and refund
/// walkthroughs, and what an account already has.
@Suite struct StoreRulesCommandTests {
    @Test func aFreeTrialWalkthrough() throws {
        let state = try StateDir()
        let id = try state.buy(ProductID.monthly).transactionId()
        let trial = try #require(try state.transactions().transaction(id))
        #expect(trial.price == "0")
        #expect(trial.currency == "USD")
        #expect(trial.offerType == "introductory")
        #expect(trial.offerPaymentMode == "freeTrial")
        #expect(trial.offerId == nil)
        let start = try Date(trial.purchaseDate, strategy: .iso8601)
        let end = try Date(try #require(trial.expirationDate), strategy: .iso8601)
        #expect(end.timeIntervalSince(start) == 7 * 86_400)
        // The text form says what was charged and which offer applied.
        let text = try state.run(["transactions"])
        #expect(
            text.stdout.contains(
                "\(id)  purchased   \(ProductID.monthly) ×1  finished  0 USD  introductory offer (freeTrial)"),
            "\(text)")
    }

    @Test func aRefundWalkthroughTakesTheCreditBackOnce() throws {
        let state = try StateDir()
        let gems = try state.buy(ProductID.gems).transactionId()
        #expect(try state.wallet().balances == ["gems": 100])
        let refund = try state.manage("refund", gems)
        #expect(refund.stdout == "refund \(gems): done; \(gems) is refunded (other)\n")
        // The app learns of it at its next launch, takes the gems back and says so.
        let next = try state.buy(ProductID.removeAds)
        let revoked = next.steps("revoked")
        #expect(revoked.count == 1, "\(next)")
        #expect(revoked.first?["transactionId"] as? String == gems)
        #expect(revoked.first?["amount"] as? Int == 100)
        #expect(revoked.first?["balance"] as? String == "gems")
        #expect(try state.wallet().balances == ["gems": 0])
        // Once: a later launch takes nothing more.
        #expect(try state.buy(ProductID.theme).steps("revoked").isEmpty)
        #expect(try state.wallet().balances == ["gems": 0])
        let record = try #require(try state.transactions().transaction(gems))
        #expect(record.revocationReason == "other")
        #expect(record.revocationDate != nil)
        #expect(try state.run(["manage", "refund", gems]).status == 1, "a second refund of one transaction is refused")
    }

    @Test func aRenewalSaysItIsOneAndADeclineSaysItIsOne() throws {
        let state = try StateDir()
        let id = try state.buy(ProductID.monthly).transactionId()
        try state.manage("renew", id)
        let listed = try state.transactions()
        #expect(listed.history.map(\.transactionReason) == ["renewal", "purchase"])
        try state.manage("set", "ask-to-buy", "on")
        let asked = try state.buy(ProductID.removeAds).transactionId()
        try state.manage("decline", asked)
        let declined = try #require(try state.transactions().transaction(asked))
        #expect(declined.state == "deferred", "the app is sent nothing, as on a device")
        #expect(declined.error == nil)
        #expect(declined.failureContext == "declined")
        #expect(declined.transactionReason == nil, "nothing was charged: no terms")
    }

    @Test func whatTheAccountOwnsIsNotChargedAgain() throws {
        let state = try StateDir()
        let first = try state.buy(ProductID.removeAds).transactionId()
        let again = try state.buy(ProductID.removeAds).transactionId()
        let listed = try state.transactions()
        #expect(listed.transaction(first)?.price == "2.99")
        #expect(listed.transaction(again)?.price == "0")
        let two = try state.run(["buy", ProductID.removeAds, "--quantity", "2"])
        #expect(two.status == 1, "\(two)")
        #expect(two.stderr.contains("only consumables can be bought more than one at a time"), "\(two)")
        #expect(try state.transactions().history.count == 2, "the refused payment left a transaction")
    }
}

/// The renewal lifecycle from the command line: `manage auto-renew`, `manage price-increase`,
/// billing issues, and each subscription's `renewal` in `wallet --json`.
@Suite struct SubscriptionCommandTests {
    @Test func aBillingRetryWalkthrough() throws {
        let state = try StateDir()
        try state.manage("set", "time-rate", "2s")
        try state.manage("set", "billing-issues", "on")
        let id = try state.buy(ProductID.monthly).transactionId()
        Thread.sleep(forTimeInterval: 2.5)  // the free week lasts 2 s at this rate, and its renewal cannot bill
        let retrying = try #require(try state.wallet().subscriptions.first)
        #expect(retrying.renewal?.isInBillingRetry == true, "\(retrying)")
        #expect(!retrying.active)
        #expect(try state.run(["wallet"]).stdout.contains("billing issue: in billing retry"))
        try state.manage("set", "billing-issues", "off")
        let resolve = try state.manage("resolve", id)
        #expect(resolve.stdout.hasPrefix("resolve \(id): done; "), "\(resolve)")
        #expect(resolve.stdout.hasSuffix(" is purchased\n"), "\(resolve)")
        let recovered = try #require(try state.wallet().subscriptions.first)
        #expect(recovered.renewal?.isInBillingRetry == false)
        #expect(recovered.transactionId != id)
    }

    @Test func autoRenewAndPriceIncreaseShowInTheWallet() throws {
        let state = try StateDir()
        let id = try state.buy(ProductID.monthly).transactionId()
        #expect(
            try state.wallet().subscriptions.first?.renewal
                == WalletOutput.Renewal(
                    willAutoRenew: true, autoRenewProductId: ProductID.monthly, expirationReason: nil,
                    isInBillingRetry: false, gracePeriodExpiresDate: nil, priceIncreaseStatus: nil))
        #expect(try state.manage("auto-renew", "off", id).stdout == "auto-renew off \(id): done\n")
        #expect(try state.wallet().subscriptions.first?.renewal?.willAutoRenew == false)
        try state.manage("auto-renew", "on", id)
        try state.manage("price-increase", "request", id)
        #expect(try state.wallet().subscriptions.first?.renewal?.priceIncreaseStatus == "pending")
        try state.manage("price-increase", "consent", id)
        #expect(try state.wallet().subscriptions.first?.renewal?.priceIncreaseStatus == "agreed")
    }

    /// The wallet shows the subscription's one record: the plan in force, what it renews to, its
    /// state, its paid periods through an upgrade, and a price increase's new price.
    @Test func aPlanChangeKeepsOneSubscriptionInTheWallet() throws {
        let state = try StateDir()
        let monthly = try state.buy(ProductID.monthly).transactionId()
        let plus = try state.buy("com.example.storefront.premiumplus.monthly").transactionId()
        let downgrade = try state.buy(ProductID.monthly).transactionId()
        let wallet = try state.wallet().subscriptions
        #expect(wallet.count == 1, "\(wallet)")
        let subscription = try #require(wallet.first)
        #expect(subscription.originalTransactionId == monthly)
        #expect(subscription.transactionId == plus)
        #expect(subscription.state == "subscribed")
        #expect(subscription.periods == [plus, monthly], "the downgrade's copy is no period")
        #expect(subscription.renewal?.autoRenewProductId == ProductID.monthly)
        let listed = try state.transactions()
        #expect(listed.transaction(downgrade)?.state == "restored")
        #expect(listed.transaction(downgrade)?.appStoreOrderId == nil, "a copy is no order")
        let order = try #require(listed.transaction(plus)?.appStoreOrderId)
        #expect(order.count == 10 && order.hasPrefix("M"), "\(order)")
        let increase = try state.manage("price-increase", "request", plus, "--price", "10.99", "--no-consent")
        #expect(increase.status == 0, "\(increase)")
        let renewal = try #require(try state.wallet().subscriptions.first?.renewal)
        #expect(renewal.priceIncreaseStatus == "agreed" && renewal.renewalPrice == "10.99")
        let bad = try state.run(["manage", "price-increase", "consent", plus, "--price", "11.99"])
        #expect(bad.status != 0 && bad.stderr.contains("--price and --no-consent go with `request` only"), "\(bad)")
    }

    @Test func renewalActionsOnAConsumableAreRefusedAndChangeNothing() throws {
        let state = try StateDir()
        let gems = try state.buy(ProductID.gems).transactionId()
        let before = try state.transactions()
        for words in [["price-increase", "request", gems], ["auto-renew", "off", gems]] {
            let run = try state.run(["manage"] + words)
            #expect(run.status == 1, "\(run)")
            #expect(run.stderr.contains("only an auto-renewable subscription can be"), "\(run)")
        }
        #expect(try state.transactions().history == before.history)
    }
}

/// `manage set api-error`: a StoreKit call fails until the error is turned off.
@Suite struct APIErrorCommandTests {
    @Test func aSimulatedPurchaseErrorStaysUntilNone() throws {
        let state = try StateDir()
        #expect(try state.manage("set", "api-error", "purchase", "fail:4").stdout == "set api-error purchase fail:4\n")
        for _ in 0..<2 {
            let buy = try state.buy(ProductID.gems)
            #expect(buy.status == 3, "\(buy)")
            #expect((buy.updates.last?["error"] as? [String: Any])?["name"] as? String == "paymentNotAllowed")
        }
        try state.manage("set", "api-error", "purchase", "none")
        #expect(try state.buy(ProductID.gems).status == 0)
        let restore = try state.manage("set", "api-error", "app-store-sync", "network")
        #expect(restore.status == 0)
        #expect(try state.run(["restore", "--json"]).result()["result"] as? String == "failed")
    }

    @Test func aSimulatedSubscriptionStatusErrorLeavesTheRenewalInfoOut() throws {
        let state = try StateDir()
        _ = try state.buy(ProductID.monthly)
        try state.manage("set", "api-error", "subscription-status", "fail:0")
        let run = try state.run(["wallet", "--json"])
        #expect(run.stderr.contains("subscription status unavailable (SKErrorDomain 0 unknown)"), "\(run)")
        #expect(try state.wallet().subscriptions.first?.renewal == nil)
        try state.manage("set", "api-error", "subscription-status", "none")
        #expect(try state.wallet().subscriptions.first?.renewal != nil)
    }

    @Test func anUnknownAPIIsAUsageErrorNamingTheChoices() throws {
        let state = try StateDir()
        let run = try state.run(["manage", "set", "api-error", "purchases", "fail:0"])
        #expect(run.status == 2, "\(run)")
        #expect(run.stderr.contains("expected one of load-products, purchase, verification, app-store-sync"), "\(run)")
    }
}

/// `buy --offer`, `--offer-signature` and `--offer-code`, and the offers `products --json` lists.
@Suite struct OfferCommandTests {
    static let promo = "com.example.storefront.premium.halfprice"

    @Test func aPromotionalOfferSignedWithTheCatalogsKey() throws {
        let state = try StateDir()
        // Never subscribed in the group: not eligible.
        let early = try state.buy(ProductID.monthly, "--offer", Self.promo)
        #expect(early.status == 3)
        #expect((early.updates.last?["error"] as? [String: Any])?["name"] as? String == "ineligibleForOffer")
        let trial = try state.buy(ProductID.monthly).transactionId()
        try state.manage("expire", trial)
        let promo = try state.buy(ProductID.monthly, "--offer", Self.promo)
        #expect(promo.status == 0, "\(promo)")
        let record = try #require(try state.transactions().transaction(try promo.transactionId()))
        #expect(record.offerType == "promotional")
        #expect(record.offerId == Self.promo)
        #expect(record.price == "2.5")
    }

    @Test func aSignatureMadeElsewhereIsCheckedForReal() throws {
        let state = try StateDir()
        let missing = try state.buy(
            ProductID.monthly, "--offer", Self.promo, "--offer-signature", "MEUCIQ==", "--order", "o-1")
        #expect(
            (missing.updates.last?["error"] as? [String: Any])?["name"] as? String == "missingOfferParams", "\(missing)"
        )
        let forged = try state.buy(
            ProductID.monthly, "--offer", Self.promo, "--offer-signature", "MEUCIQ==", "--order", "o-2",
            "--offer-nonce", "3f3b1a9e-2f7e-4a43-9d55-0a1e4c1f2b3c", "--offer-timestamp", "1800000000000")
        #expect(
            (forged.updates.last?["error"] as? [String: Any])?["name"] as? String == "invalidSignature", "\(forged)")
        let noOrder = try state.run(["buy", ProductID.monthly, "--offer", Self.promo, "--offer-signature", "MEUCIQ=="])
        #expect(noOrder.status == 2)
        #expect(noOrder.stderr.contains("--offer-signature needs --order"), "\(noOrder)")
    }

    @Test func anOfferCodeRedeemsOnce() throws {
        let state = try StateDir()
        let first = try state.buy(ProductID.monthly, "--offer-code", "FREEMONTH02")
        #expect(first.status == 0, "\(first)")
        #expect(try state.transactions().transaction(try first.transactionId())?.offerType == "code")
        let again = try state.run([
            "buy", ProductID.monthly, "--offer-code", "FREEMONTH02", "--account", "kenji", "--json",
        ])
        #expect(again.status == 3, "\(again)")
    }

    @Test func productsJSONListsEachSubscriptionsOffers() throws {
        let run = try Executable.run(["products", "--json"])
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stderr)")
        let products = try #require(object["products"] as? [[String: Any]])
        let monthly = try #require(products.first { $0["id"] as? String == ProductID.monthly })
        let offers = try #require(monthly["offers"] as? [[String: Any]])
        #expect(offers.map { $0["type"] as? String } == ["introductory", "promotional", "code", "winBack"])
        #expect(offers[1]["id"] as? String == Self.promo)
        #expect(offers[1]["displayPrice"] as? String == "$2.50")
        #expect(offers[1]["periods"] as? Int == 3)
        #expect(offers[0]["id"] == nil)
        #expect(products.first { $0["id"] as? String == ProductID.gems }?["offers"] == nil)
    }
}
