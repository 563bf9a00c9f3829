import Foundation
import StoreCore
import StoreKitModel
import Testing

/// `storefront manage`: the transaction manager's actions, and every `set` taking effect.
@Suite struct ManageCommandTests {
    // MARK: Ask to Buy

    @Test func approvedAskToBuyIsDeliveredByTheNextRestore() throws {
        let state = try StateDir()
        let buy = try state.buy(ProductID.gems, "--account", "kid", "--quantity", "2")
        #expect(buy.status == 0, "\(buy)")
        let id = try buy.transactionId()
        #expect(buy.updates.map { $0["state"] as? String } == ["purchasing", "deferred"])
        #expect(
            buy.steps("warning").map { $0["message"] as? String } == ["waiting for approval (Ask to Buy); not finished"]
        )
        #expect(try buy.result()["result"] as? String == "deferred")
        #expect(try buy.result()["finished"] as? Bool == false)

        let approve = try state.manage("approve", id)
        #expect(approve.stdout == "approve \(id): done; \(id) is purchased\n")
        // Approved in the store, but the app has not seen it yet.
        let approved = try state.transactions("--account", "kid")
        #expect(approved.unfinished.map(\.transactionId) == [id])
        #expect(approved.unfinished.first?.state == "purchased")
        #expect(try state.wallet("--account", "kid").balances.isEmpty)

        // The observer handles the unfinished transaction at start.
        let restore = try state.run(["restore", "--json", "--account", "kid"])
        #expect(restore.status == 0, "\(restore)")
        #expect(restore.updates.map { $0["transactionId"] as? String } == [id])
        #expect(restore.updates.first?["state"] as? String == "purchased")
        #expect(restore.steps("delivered").first?["firstTime"] as? Bool == true)
        #expect(restore.steps("finished").map { $0["transactionId"] as? String } == [id])
        #expect(try restore.result()["result"] as? String == "nothing")

        #expect(try state.wallet("--account", "kid").balances == ["gems": 200])
        let after = try state.transactions("--account", "kid")
        #expect(after.unfinished.isEmpty)
        #expect(after.history.map(\.state) == ["purchased"])
        #expect(after.history.first?.finished == true)
    }

    @Test func approvedForcedDeferralIsDeliveredByTheNextBuy() throws {
        let state = try StateDir()
        let deferred = try state.buy(ProductID.removeAds, "--outcome", "deferred")
        #expect(try deferred.result()["result"] as? String == "deferred")
        let id = try deferred.transactionId()
        try state.manage("approve", id)

        let next = try state.buy(ProductID.gems)
        #expect(next.status == 0, "\(next)")
        let newId = try next.transactionId()
        // The approved transaction first (delivered, verified, finished), then the new purchase.
        #expect(next.updates.map { $0["transactionId"] as? String } == [id, newId, newId])
        #expect(next.updates.map { $0["state"] as? String } == ["purchased", "purchasing", "purchased"])
        #expect(next.steps("finished").map { $0["transactionId"] as? String } == [id, newId])

        let wallet = try state.wallet()
        #expect(wallet.owned.map(\.productId) == [ProductID.removeAds])
        #expect(wallet.owned.first?.transactionId == id)
        #expect(wallet.balances == ["gems": 100])
        #expect(try state.transactions().unfinished.isEmpty)
    }

    /// Apple: "Your app doesn't receive a transaction because you declined Ask to Buy".
    @Test func aDeclinedAskToBuyIsTheStoresSideAndTheAppStillWaits() throws {
        let state = try StateDir()
        let id = try state.buy(ProductID.gems, "--account", "kid").transactionId()
        let decline = try state.manage("decline", id)
        #expect(
            decline.stdout
                == "decline \(id): done; store's side: \(id) declined, nothing charged (the app is sent nothing; it stays deferred)\n"
        )
        let declined = try #require(try state.transactions("--account", "kid").transaction(id))
        #expect(declined.state == "deferred")
        #expect(declined.failureContext == "declined")
        #expect(declined.finished == false)
        #expect(declined.error == nil)
        #expect(try state.run(["manage", "decline", id]).status == 1, "a request is declined once")

        let restore = try state.run(["restore", "--json", "--account", "kid"])
        #expect(restore.status == 0, "\(restore)")
        #expect(restore.steps("finished").isEmpty, "the app neither finishes nor clears it")
        #expect(
            restore.steps("warning").map { $0["transactionId"] as? String } == [id], "it is still waiting for approval")
        #expect(try state.transactions("--account", "kid").transaction(id)?.finished == false)
        #expect(try state.wallet("--account", "kid").balances.isEmpty)
    }

    @Test func onlyDeferredTransactionsCanBeApprovedOrDeclined() throws {
        let state = try StateDir()
        let id = try state.buy(ProductID.gems).transactionId()
        for action in ["approve", "decline"] {
            let result = try state.run(["manage", action, id])
            #expect(result.status == 1)
            #expect(
                result.stderr
                    == "storefront: transaction \(id) is purchased, not deferred; only Ask to Buy requests can be \(action)d\n"
            )
        }
    }

    @Test(arguments: ManageVerb.allCases.filter(\.takesTransaction))
    func actionsOnAnUnknownIdFail(action: ManageVerb) throws {
        let state = try StateDir()
        // `assign` names its member too.
        let member = action == .assign ? [ManageVerb.assignOption, "lena"] : []
        let result = try state.run(
            ["manage", action.rawValue] + action.choices.prefix(1) + ["2000000000000999"] + member)
        #expect(result.status == 1)
        #expect(result.stderr == "storefront: no transaction 2000000000000999; see `storefront transactions`\n")
    }

    // MARK: Transaction manager

    @Test func resolvingAnInterruptedPurchaseAddsAPurchasedTransaction() throws {
        let state = try StateDir()
        let buy = try state.buy(ProductID.gems, "--outcome", "interrupted", "--order", "order-i")
        #expect(buy.status == 3, "\(buy)")
        let id = try buy.transactionId()

        let resolve = try state.manage("resolve", id)
        let resolvedId = try #require(resolve.stdout.firstMatch(of: /; (\d{16}) is purchased\n$/)?.1).description
        #expect(resolve.stdout == "resolve \(id): done; \(resolvedId) is purchased\n")
        #expect(resolvedId != id)
        // Resolved once only.
        let again = try state.run(["manage", "resolve", id])
        #expect(again.status == 1)
        #expect(
            again.stderr
                == "storefront: transaction \(id) is not an interrupted purchase or a subscription with a billing issue\n"
        )

        let listed = try state.transactions()
        #expect(listed.unfinished.map(\.transactionId) == [resolvedId])
        let resolved = try #require(listed.transaction(resolvedId))
        #expect(resolved.state == "purchased")
        #expect(resolved.orderId == "order-i")
        #expect(resolved.originalTransactionId == resolvedId)
        #expect(listed.transaction(id)?.state == "failed")

        let restore = try state.run(["restore", "--json"])
        #expect(restore.steps("delivered").map { $0["transactionId"] as? String } == [resolvedId])
        #expect(try state.wallet().balances == ["gems": 100])
        #expect(try state.transactions().unfinished.isEmpty)
    }

    @Test func refundRemovesANonConsumableFromTheWallet() throws {
        let state = try StateDir()
        let id = try state.buy(ProductID.removeAds).transactionId()
        let before = try state.wallet()
        #expect(before.owned.map(\.productId) == [ProductID.removeAds])
        #expect(before.owned.first?.transactionId == id)
        #expect(before.owned.first?.title == "Remove Ads")

        let refund = try state.manage("refund", id)
        #expect(refund.stdout == "refund \(id): done; \(id) is refunded (other)\n")
        #expect(try state.wallet().owned.isEmpty)
        // Nothing is left to restore either.
        #expect(try state.run(["restore", "--json"]).result()["result"] as? String == "nothing")
    }

    /// `--reason app-issue` is Apple's revocation reason 1; the subscription keeps its expiration
    /// date, and the refund alone ends it.
    @Test func refundTakesAReasonAndKeepsTheExpirationDate() throws {
        let state = try StateDir()
        let id = try state.buy(ProductID.monthly).transactionId()
        let expiry = try #require(try state.transactions().transaction(id)?.expirationDate)
        let refund = try state.manage("refund", id, "--reason", "app-issue")
        #expect(refund.stdout == "refund \(id) --reason app-issue: done; \(id) is refunded (developerIssue)\n")
        let refunded = try #require(try state.transactions().transaction(id))
        #expect(refunded.expirationDate == expiry)
        #expect(refunded.revocationReason == "developerIssue")
        #expect(refunded.revocationDate != nil)
        #expect(try state.wallet().subscriptions.allSatisfy { $0.active == false })

        let gems = try state.buy(ProductID.gems).transactionId()
        let bad = try state.run(["manage", "refund", gems, "--reason", "changed-my-mind"])
        #expect(bad.status == 2, "\(bad)")
        #expect(bad.stderr.contains("other"), "\(bad)")
        #expect(bad.stderr.contains("app-issue"), "\(bad)")
        #expect(try state.transactions().transaction(gems)?.revocationReason == nil)
        let plain = try state.manage("refund", gems)
        #expect(plain.stdout == "refund \(gems): done; \(gems) is refunded (other)\n")
    }

    /// `--percentage 25.5` refunds that share (a prorated refund); a share that is not above 0
    /// and below 100 is a usage error that names the option.
    @Test func refundTakesAPercentage() throws {
        let state = try StateDir()
        let gems = try state.buy(ProductID.gems).transactionId()
        let bad = try state.run(["manage", "refund", gems, "--percentage", "100"])
        #expect(bad.status == 2, "\(bad)")
        #expect(bad.stderr.contains("--percentage"), "\(bad)")
        #expect(try state.transactions().transaction(gems)?.revocationReason == nil)
        let prorated = try state.manage("refund", gems, "--percentage", "25.5")
        #expect(prorated.stdout == "refund \(gems) --percentage 25.5: done; \(gems) is refunded 25.5 % (other)\n")
    }

    /// The app's server finishes what the app never did: the queue drops it, and the history
    /// says who finished each transaction.
    @Test func theServerFinishesWhatTheAppNeverDid() throws {
        let state = try StateDir()
        // The gems first: each buy launches the app, which would finish what an earlier one left.
        let gems = try state.buy(ProductID.gems).transactionId()
        let kept = try state.buy(ProductID.removeAds, "--no-finish").transactionId()
        #expect(try state.transactions().unfinished.map(\.transactionId) == [kept])
        let done = try state.manage("server-finish", kept)
        #expect(done.stdout == "server-finish \(kept): done\n")
        let after = try state.transactions()
        #expect(after.unfinished.isEmpty)
        #expect(after.transaction(kept)?.finishedBy == "server" && after.transaction(gems)?.finishedBy == "app")
        let failed = try state.buy(ProductID.removeAds, "--outcome", "fail:0").transactionId()
        let refused = try state.run(["manage", "server-finish", failed])
        #expect(refused.status == 1 && refused.stderr.contains("only a purchased or restored"), "\(refused)")
    }

    /// A refund request takes the customer's reason (what CONSUMPTION_REQUEST carries); an
    /// unknown one is a usage error that names the five.
    @Test func aRefundRequestTakesTheCustomersReason() throws {
        let state = try StateDir()
        let id = try state.buy(ProductID.gems).transactionId()
        let bad = try state.run(["manage", "request-refund", id, "--reason", "changed-my-mind"])
        #expect(bad.status == 2, "\(bad)")
        for reason in RefundRequestReason.allCases {
            #expect(bad.stderr.contains(reason.rawValue), "\(bad)")
        }
        let asked = try state.manage("request-refund", id, "--reason", "unintended-purchase")
        #expect(asked.stdout == "request-refund \(id) --reason unintended-purchase: done\n")
        let again = try state.run(["manage", "request-refund", id])
        #expect(again.status == 1 && again.stderr.contains("already requested"), "\(again)")
    }

    @Test func refundOfAFailedTransactionIsRefused() throws {
        let state = try StateDir()
        let id = try state.buy(ProductID.removeAds, "--outcome", "fail:0").transactionId()
        let refund = try state.run(["manage", "refund", id])
        #expect(refund.status == 1)
        #expect(
            refund.stderr == "storefront: transaction \(id) is failed; only purchased transactions can be refunded\n")
    }

    @Test func expiringASubscriptionMakesItInactive() throws {
        let state = try StateDir()
        let id = try state.buy(ProductID.monthly).transactionId()
        let before = try #require(try state.wallet().subscriptions.first)
        #expect(before.active == true)
        #expect(before.willAutoRenew == true)
        #expect(before.transactionId == id)

        try state.manage("expire", id)
        let wallet = try state.wallet()
        #expect(wallet.subscriptions.count == 1)
        let after = try #require(wallet.subscriptions.first)
        #expect(after.productId == ProductID.monthly)
        #expect(after.transactionId == id)
        #expect(after.active == false)
        #expect(after.willAutoRenew == false)
        #expect(after.secondsLeft == 0)

        let notSubscription = try state.run(["manage", "expire", try state.buy(ProductID.gems).transactionId()])
        #expect(notSubscription.status == 1)
        #expect(notSubscription.stderr.hasSuffix("is not a subscription\n"))
    }

    @Test func renewalAddsATransactionInTheSameChain() throws {
        let state = try StateDir()
        let id = try state.buy(ProductID.monthly).transactionId()
        let renew = try state.manage("renew", id)
        let renewalId = try #require(renew.stdout.firstMatch(of: /; (\d{16}) is purchased\n$/)?.1).description
        #expect(renewalId != id)

        let listed = try state.transactions()
        #expect(listed.history.map(\.transactionId) == [renewalId, id])
        let renewal = try #require(listed.transaction(renewalId))
        #expect(renewal.originalTransactionId == id)
        #expect(renewal.productId == ProductID.monthly)
        #expect(renewal.state == "purchased")
        #expect(renewal.finished == false)  // the app has not seen it yet
        #expect(listed.unfinished.map(\.transactionId) == [renewalId])

        let subscription = try #require(try state.wallet().subscriptions.first)
        #expect(subscription.transactionId == renewalId)
        #expect(subscription.originalTransactionId == id)
        #expect(subscription.active == true)
        #expect(subscription.willAutoRenew == true)

        let notRenewable = try state.run(["manage", "renew", try state.buy(ProductID.seasonPass).transactionId()])
        #expect(notRenewable.status == 1)
        #expect(
            notRenewable.stderr.hasSuffix("(non-renewing); only an auto-renewable subscription can be renewed\n"),
            "\(notRenewable.stderr)")
    }

    @Test func deleteRemovesOneTransaction() throws {
        let state = try StateDir()
        let kept = try state.buy(ProductID.gems).transactionId()
        let deleted = try state.buy(ProductID.removeAds).transactionId()
        let delete = try state.manage("delete", deleted)
        #expect(delete.stdout == "delete \(deleted): done\n")
        #expect(try state.transactions().history.map(\.transactionId) == [kept])
        #expect(try state.wallet().owned.isEmpty)
    }

    @Test func clearRemovesEveryTransactionButKeepsTheSettings() throws {
        let state = try StateDir()
        _ = try state.buy(ProductID.gems)
        _ = try state.buy(ProductID.removeAds)
        _ = try state.buy(ProductID.gems, "--account", "lena")
        try state.manage("set", "ask-to-buy", "on")
        #expect(try state.manage("clear").stdout == "clear: done\n")

        #expect(try state.transactions().history.isEmpty)
        #expect(try state.transactions("--account", "lena").history.isEmpty)
        let wallet = try state.wallet()
        #expect(wallet.owned.isEmpty)
        // The app's own data (its ledger and balances) is not the store's to clear.
        #expect(wallet.balances == ["gems": 100])
        // Ask to Buy is still on.
        #expect(try state.buy(ProductID.gems).result()["result"] as? String == "deferred")
    }

    @Test func resetClearsTransactionsAndRestoresDefaultControls() throws {
        let state = try StateDir()
        _ = try state.buy(ProductID.removeAds)
        for words in [
            ["ask-to-buy", "on"], ["storefront", "JPN"], ["account", "lena"],
            ["product-outcome", ProductID.gems, "cancel"],
            ["payments-allowed", "off"],
        ] {
            try state.manage(["set"] + words)
        }
        #expect(try state.manage("reset").stdout == "reset: done\n")

        #expect(try state.transactions().history.isEmpty)
        let wallet = try state.wallet()
        #expect(wallet.account == "alice")
        #expect(wallet.storefront == "USA")
        let buy = try state.buy(ProductID.gems)
        #expect(buy.status == 0, "\(buy)")
        #expect(try buy.result()["result"] as? String == "purchased")
    }

    // MARK: Settings

    @Test func paymentsNotAllowedFailsEveryPurchaseUntilTurnedBackOn() throws {
        let state = try StateDir()
        #expect(try state.manage("set", "payments-allowed", "off").stdout == "set payments-allowed off\n")
        for _ in 0..<2 {
            let buy = try state.buy(ProductID.gems)
            #expect(buy.status == 3, "\(buy)")
            let failed = try #require(buy.updates.last)
            #expect(failed["state"] as? String == "failed")
            let error = try #require(failed["error"] as? [String: Any])
            #expect(error["code"] as? Int == 4)
            #expect(error["name"] as? String == "paymentNotAllowed")
            #expect(error["message"] as? String == "Purchases aren't allowed on this device.")
            #expect(
                buy.steps("warning").map { $0["message"] as? String } == ["Purchases aren't allowed on this device."])
            #expect(try buy.result()["result"] as? String == "failed")
        }
        try state.manage("set", "payments-allowed", "on")
        #expect(try state.buy(ProductID.gems).status == 0)
        #expect(try state.wallet().balances == ["gems": 100])
    }

    @Test func aRestrictedAccountCannotPay() throws {
        let state = try StateDir()
        let buy = try state.buy(ProductID.gems, "--account", "restricted")
        #expect(buy.status == 3)
        #expect((buy.updates.last?["error"] as? [String: Any])?["name"] as? String == "paymentNotAllowed")
    }

    @Test func nextOutcomeAppliesToOnePurchaseOnly() throws {
        let state = try StateDir()
        try state.manage("set", "next-outcome", "fail:4")
        let failed = try state.buy(ProductID.gems)
        #expect(failed.status == 3)
        #expect((failed.updates.last?["error"] as? [String: Any])?["code"] as? Int == 4)
        let next = try state.buy(ProductID.gems)
        #expect(next.status == 0)
        #expect(try next.result()["result"] as? String == "purchased")
    }

    @Test func productOutcomeAppliesUntilNone() throws {
        let state = try StateDir()
        try state.manage("set", "product-outcome", ProductID.gems, "cancel")
        for _ in 0..<2 {
            let buy = try state.buy(ProductID.gems)
            #expect(buy.status == 3)
            #expect(try buy.result()["result"] as? String == "cancelled")
        }
        #expect(try state.buy(ProductID.removeAds).status == 0)  // other products are not affected
        try state.manage("set", "product-outcome", ProductID.gems, "none")
        #expect(try state.buy(ProductID.gems).result()["result"] as? String == "purchased")
        #expect(try state.wallet().balances == ["gems": 100])
    }

    @Test func storefrontSettingChangesWhereTheAccountPays() throws {
        let state = try StateDir()
        #expect(try state.manage("set", "storefront", "jpn").stdout == "set storefront jpn\n")
        #expect(try state.wallet().storefront == "JPN")
        let yen = try state.buy(ProductID.gems).transactionId()
        let euro = try state.buy(ProductID.gems, "--storefront", "DEU").transactionId()  // this command only
        #expect(try state.wallet().storefront == "JPN")
        #expect(try state.wallet("--storefront", "GBR").storefront == "GBR")

        let rows = try state.query(
            state.storeDatabase, "SELECT id, price, currency, storefront FROM transactions ORDER BY seq")
        #expect(rows.map { $0["id"] as? String } == [yen, euro])
        #expect(rows.map { $0["price"] as? String } == ["160", "1.19"])
        #expect(rows.map { $0["currency"] as? String } == ["JPY", "EUR"])
        #expect(rows.map { $0["storefront"] as? String } == ["JPN", "DEU"])

        // Pro Lifetime is not sold in China.
        try state.manage("set", "storefront", "CHN")
        let buy = try state.buy(ProductID.lifetime)
        #expect(buy.status == 3)
        #expect((buy.updates.last?["error"] as? [String: Any])?["name"] as? String == "storeProductNotAvailable")
    }

    @Test func accountSettingChangesTheDefaultAccount() throws {
        let state = try StateDir()
        _ = try state.buy(ProductID.gems)  // alice
        try state.manage("set", "account", "kid")
        let buy = try state.buy(ProductID.gems)
        #expect(try buy.result()["result"] as? String == "deferred")  // kid has Ask to Buy
        let wallet = try state.wallet()
        #expect(wallet.account == "kid")
        #expect(wallet.balances.isEmpty)
        #expect(wallet.pending.map(\.transactionId) == [try buy.transactionId()])
        #expect(wallet.pending.first?.waitingFor == "waiting for a parent to approve (Ask to Buy); not charged")
        #expect(try state.transactions().history.map(\.state) == ["deferred"])
        #expect(try state.wallet("--account", "alice").balances == ["gems": 100])
    }

    @Test func askToBuyOnDefersEveryAccountsPurchases() throws {
        let state = try StateDir()
        try state.manage("set", "ask-to-buy", "on")
        #expect(try state.buy(ProductID.gems).result()["result"] as? String == "deferred")
        #expect(try state.buy(ProductID.gems, "--account", "lena").result()["result"] as? String == "deferred")
        // A forced failure is not turned into a deferral.
        #expect(try state.buy(ProductID.gems, "--outcome", "fail:0").result()["result"] as? String == "failed")
        try state.manage("set", "ask-to-buy", "off")
        let buy = try state.buy(ProductID.gems)
        #expect(try buy.result()["result"] as? String == "purchased")
        // The next buy warns about the deferred one still pending for the same product.
        let pending = buy.steps("warning").compactMap { $0["pending"] as? [String] }
        #expect(pending.count == 1)
        #expect(pending.first?.count == 1)
    }

    @Test func dropOrderIdMakesTheAppMatchTheOrderByAccountAndProduct() throws {
        let state = try StateDir()
        try state.manage("set", "drop-order-id", "on")
        let buy = try state.buy(ProductID.gems, "--order", "order-7")
        #expect(buy.status == 0, "\(buy)")
        let id = try buy.transactionId()
        #expect(
            buy.kinds == ["purchasing", "purchased", "delivered", "orderMatched", "verified", "finished", "result"])
        let matched = try #require(buy.steps("orderMatched").first)
        #expect(matched["transactionId"] as? String == id)
        #expect(matched["orderId"] as? String == "order-7")
        #expect(Set(matched.keys) == ["step", "transactionId", "orderId"])

        try state.manage("set", "drop-order-id", "off")
        let plain = try state.buy(ProductID.gems, "--order", "order-8")
        #expect(plain.steps("orderMatched").isEmpty)
    }

    @Test func timeRateShortensSubscriptionPeriods() throws {
        let state = try StateDir()
        try state.manage("set", "time-rate", "monthly-1h")
        let id = try state.buy(ProductID.monthly).transactionId()
        let purchase = try #require(try state.transactions().transaction(id))
        let subscription = try #require(try state.wallet().subscriptions.first)
        let start = try Date(purchase.purchaseDate, strategy: .iso8601)
        let end = try Date(subscription.expiresDate, strategy: .iso8601)
        // Apple's table for monthly renewal every hour makes a week 15 minutes: Premium Monthly's free week.
        #expect(end.timeIntervalSince(start) == 900)
        #expect(subscription.secondsLeft <= 900)
        #expect(subscription.active)
    }

    @Test func latencyDelaysButDoesNotChangeTheOutcome() throws {
        let state = try StateDir()
        try state.manage("set", "latency", "300")
        let buy = try state.buy(ProductID.gems)
        #expect(buy.status == 0, "\(buy)")
        #expect(try buy.result()["result"] as? String == "purchased")
    }

    @Test func verificationStatusRejectsTheReceiptButFinishes() throws {
        let state = try StateDir()
        try state.manage("set", "verification", "21003")
        let buy = try state.buy(ProductID.gems)
        #expect(buy.status == 0, "\(buy)")
        #expect(buy.steps("verified").isEmpty)
        #expect(
            buy.steps("warning").map { $0["message"] as? String } == [
                "verification rejected: verifyReceipt status 21003: the receipt could not be authenticated (tampered or not signed by this store)"
            ])
        #expect(try buy.result()["finished"] as? Bool == true)
        try state.manage("set", "verification", "ok")
        #expect(try state.buy(ProductID.gems).steps("verified").count == 1)
    }

    // MARK: Usage errors

    @Test(arguments: [
        (["set", "frobnicate", "on"], "manage set frobnicate: unknown setting; see storefront manage set --help"),
        (["set", "ask-to-buy"], "manage set ask-to-buy needs one value: on or off"),
        (["set", "ask-to-buy", "maybe"], "ask-to-buy: expected on or off, got maybe"),
        (["set", "payments-allowed", "yes"], "payments-allowed: expected on or off, got yes"),
        (["set", "drop-order-id", "1"], "drop-order-id: expected on or off, got 1"),
        (
            ["set", "storefront", "XXX"],
            "storefront XXX: not a storefront of this catalog (it has USA, JPN, DEU, CHN, GBR, IND, BRA, CHE, SAU, FRA)"
        ),
        (
            ["set", "account", "nobody"],
            "account nobody: not an account of this catalog (it has alice, kenji, lena, wei, oliver, priya, ana, luca, omar, chloe, kid, restricted)"
        ),
        (
            ["set", "product-outcome", "com.example.nope", "cancel"],
            "product-outcome com.example.nope: not a product of this catalog; see storefront products"
        ),
        (
            ["set", "product-outcome", ProductID.gems, "bogus"],
            "product-outcome bogus: expected success, cancel, fail:CODE, network[:CODE], deferred, interrupted or none"
        ),
        (
            ["set", "product-outcome", ProductID.gems],
            "manage set product-outcome needs a product id and an outcome (or none)"
        ),
        (
            ["set", "next-outcome", "fail:99"],
            "next-outcome fail:99: expected success, cancel, fail:CODE, network[:CODE], deferred or interrupted"
        ),
        (
            ["set", "time-rate", "3s"],
            "time-rate 3s: expected one of real, monthly-1h, monthly-30m, monthly-15m, monthly-5m, monthly-30s, 15m, 5m, 1m, 30s, 10s, 2s, 1h-day, 30m-day, 5m-day, 1m-day, 30s-day, 1s-day"
        ),
        (["set", "latency", "700000"], "latency 700000: expected milliseconds, 0 to 600000"),
        (
            ["set", "verification", "20000"],
            "verification 20000: expected ok, unreachable or a verifyReceipt status such as 21003"
        ),
    ])
    func badInputsAreUsageErrors(words: [String], message: String) throws {
        let state = try StateDir()
        let result = try state.run(["manage"] + words)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "storefront: \(message)\n")
    }

    /// Actions are subcommands: a wrong shape is the argument parser's usage error, naming what is
    /// wrong and the help to read.
    @Test(arguments: [
        (["frobnicate", "1"], "Error: 2 unexpected arguments: 'frobnicate', '1'", "See 'storefront manage --help'"),
        (["approve"], "Error: Missing expected argument '<id>'", "See 'storefront manage approve --help'"),
        (["clear", "now"], "Error: Unexpected argument 'now'", "See 'storefront manage clear --help'"),
        (
            ["price-increase", "raise", "2000000000000001"],
            "Error: The value 'raise' is invalid for '<request|consent|decline>'. Please provide one of 'request', 'consent' or 'decline'.",
            "See 'storefront manage price-increase --help'"
        ),
    ])
    func aWrongShapeIsAUsageError(words: [String], error: String, help: String) throws {
        let state = try StateDir()
        let result = try state.run(["manage"] + words)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix(error + "\n"), "\(result.stderr)")
        #expect(result.stderr.contains(help), "\(result.stderr)")
    }

    @Test func everyActionAndSettingIsDocumentedInHelp() throws {
        let state = try StateDir()
        let manage = try state.run(["manage", "--help"])
        for action in ManageVerb.allCases {
            #expect(manage.stdout.contains("  \(action.rawValue) "), "manage --help lacks \(action.rawValue)")
        }
        let set = try state.run(["manage", "set", "--help"])
        for setting in ControlSetting.allCases {
            #expect(set.stdout.contains("  \(setting.name)"), "manage set --help lacks \(setting.name)")
        }
    }

    @Test func aBadSettingChangesNothing() throws {
        let state = try StateDir()
        try state.manage("set", "storefront", "JPN")
        #expect(try state.run(["manage", "set", "storefront", "XXX"]).status == 2)
        #expect(try state.wallet().storefront == "JPN")
    }
}
