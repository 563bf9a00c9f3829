import Foundation
import Testing

/// `storefront restore` and `storefront wallet`.
@Suite struct RestoreAndWalletTests {
    static let nothingText =
        "result: nothing to restore — alice owns no non-consumables or auto-renewable subscriptions"
        + " (consumables and non-renewing subscriptions are never restored)\n"

    // MARK: Restore

    @Test func restoreWithNothingSaysWhy() throws {
        let state = try StateDir()
        let json = try state.run(["restore", "--json"])
        #expect(json.status == 0)
        #expect(json.lines.count == 1)
        let result = try json.result()
        #expect(Set(result.keys) == ["result", "restored"])
        #expect(result["result"] as? String == "nothing")
        #expect(result["restored"] as? Int == 0)

        let text = try state.run(["restore"])
        #expect(text.status == 0)
        #expect(text.stdout == Self.nothingText)
    }

    @Test func consumablesAndNonRenewingSubscriptionsAreNeverRestored() throws {
        let state = try StateDir()
        _ = try state.buy(ProductID.gems, "--quantity", "3")
        _ = try state.buy(ProductID.seasonPass)
        let before = try state.transactions().history
        let text = try state.run(["restore"])
        #expect(text.status == 0)
        #expect(text.stdout == Self.nothingText)
        #expect(try state.transactions().history == before)  // no new transactions
        #expect(try state.wallet().balances == ["gems": 300])
    }

    @Test func restoreWithSeveralCreatesNewTransactionsPointingAtTheOriginals() throws {
        let state = try StateDir()
        let gems = try state.buy(ProductID.gems).transactionId()
        let ads = try state.buy(ProductID.removeAds).transactionId()
        let monthly = try state.buy(ProductID.monthly).transactionId()
        let season = try state.buy(ProductID.seasonPass).transactionId()
        let originals = [gems, ads, monthly, season]

        let restore = try state.run(["restore", "--json"])
        #expect(restore.status == 0, "\(restore)")
        #expect(
            restore.kinds == [
                "restored", "delivered", "verified", "finished", "restored", "delivered", "verified", "finished",
                "result",
            ])
        let updates = restore.updates
        #expect(updates.map { $0["productId"] as? String } == [ProductID.removeAds, ProductID.monthly])
        let restoredIds = updates.compactMap { $0["transactionId"] as? String }
        #expect(restoredIds.count == 2)
        #expect(Set(restoredIds).isDisjoint(with: originals))
        #expect(updates.allSatisfy { ($0["receipt"] as? String)?.isEmpty == false })
        #expect(restore.steps("delivered").allSatisfy { $0["firstTime"] as? Bool == true })
        let result = try restore.result()
        #expect(result["result"] as? String == "restored")
        #expect(result["restored"] as? Int == 2)

        let listed = try state.transactions()
        #expect(listed.unfinished.isEmpty)
        #expect(listed.history.count == 6)
        let restored = restoredIds.compactMap(listed.transaction)
        #expect(restored.map(\.originalTransactionId) == [ads, monthly])
        #expect(
            restored.allSatisfy {
                $0.state == "restored" && $0.finished && $0.transactionId != $0.originalTransactionId
            })

        // Entitlements still come from the originals; the consumable was not credited again.
        let wallet = try state.wallet()
        #expect(wallet.balances == ["gems": 100])
        #expect(wallet.owned.map(\.transactionId) == [ads])
        #expect(wallet.subscriptions.map(\.productId) == [ProductID.monthly, ProductID.seasonPass])
        #expect(wallet.subscriptions.map(\.transactionId) == [monthly, season])
        #expect(try state.deliveries().map(\.transactionId) == originals + restoredIds)

        // Restoring again makes two more new transactions.
        let again = try state.run(["restore", "--json"])
        let againIds = again.updates.compactMap { $0["transactionId"] as? String }
        #expect(againIds.count == 2)
        #expect(Set(againIds).isDisjoint(with: originals + restoredIds))
        #expect(try state.wallet().balances == ["gems": 100])
    }

    @Test(arguments: [
        ("network", "failed", -1009, "NSURLErrorDomain", "notConnectedToInternet"),
        ("network:-1005", "failed", -1005, "NSURLErrorDomain", "networkConnectionLost"),
        ("fail:0", "failed", 0, "SKErrorDomain", "unknown"),
        ("cancel", "cancelled", 2, "SKErrorDomain", "paymentCancelled"),
    ])
    func restoreFailsWithAForcedOutcome(outcome: String, result: String, code: Int, domain: String, name: String) throws
    {
        let state = try StateDir()
        _ = try state.buy(ProductID.removeAds)
        let before = try state.transactions().history
        try state.manage("set", "next-outcome", outcome)

        let restore = try state.run(["restore", "--json"])
        #expect(restore.status == 3, "\(restore)")
        #expect(restore.lines.count == 1)
        let line = try restore.result()
        #expect(Set(line.keys) == ["result", "error"])
        #expect(line["result"] as? String == result)
        let error = try #require(line["error"] as? [String: Any])
        #expect(Set(error.keys) == ["code", "domain", "name", "message"])
        #expect(error["code"] as? Int == code)
        #expect(error["domain"] as? String == domain)
        #expect(error["name"] as? String == name)
        #expect((error["message"] as? String)?.isEmpty == false)
        #expect(try state.transactions().history == before)

        try state.manage("set", "next-outcome", outcome)
        let text = try state.run(["restore"])
        #expect(text.status == 3)
        #expect(text.stdout.hasPrefix("restore failed: \(domain) \(code) \(name): "))
    }

    // MARK: Wallet

    @Test func walletOfANewAccountIsEmpty() throws {
        let state = try StateDir()
        let object = try state.run(["wallet", "--json"]).object()
        #expect(Set(object.keys) == ["account", "storefront", "balances", "owned", "subscriptions", "pending"])
        #expect(object["account"] as? String == "alice")
        #expect(object["storefront"] as? String == "USA")
        #expect((object["balances"] as? [String: Any])?.isEmpty == true)
        for key in ["owned", "subscriptions", "pending"] {
            #expect((object[key] as? [Any])?.isEmpty == true)
        }
        let kenji = try state.wallet("--account", "kenji")
        #expect(kenji.account == "kenji")
        #expect(kenji.storefront == "JPN")
    }

    @Test func balancesAreCreditedOncePerTransaction() throws {
        let state = try StateDir()
        _ = try state.buy(ProductID.gems, "--quantity", "3")
        #expect(try state.wallet().balances == ["gems": 300])

        // Delivered but not finished: credited now, and not again when the next run re-delivers it.
        let crashed = try state.buy(ProductID.gems, "--quantity", "2", "--no-finish")
        let crashedId = try crashed.transactionId()
        #expect(try state.wallet().balances == ["gems": 500])
        let next = try state.buy("com.example.storefront.energy.refill")
        #expect(
            next.steps("delivered").map { $0["transactionId"] as? String } == [crashedId, try next.transactionId()])
        #expect(next.steps("delivered").map { $0["firstTime"] as? Bool } == [false, true])
        #expect(try state.wallet().balances == ["gems": 500, "energy": 1])

        // Each account has its own balances.
        _ = try state.buy("com.example.storefront.gems.550", "--account", "lena")
        #expect(try state.wallet("--account", "lena").balances == ["gems": 550])
        #expect(try state.wallet().balances == ["gems": 500, "energy": 1])
        #expect(try state.deliveries().count == 4)
    }

    @Test func subscriptionsShowExpiryActivityAndRenewal() throws {
        let state = try StateDir()
        let monthly = try state.buy(ProductID.monthly).transactionId()
        let season = try state.buy(ProductID.seasonPass).transactionId()
        let ads = try state.buy(ProductID.removeAds).transactionId()
        let listed = try state.transactions()
        let wallet = try state.wallet()

        #expect(wallet.owned.map(\.productId) == [ProductID.removeAds])
        #expect(wallet.owned.first?.transactionId == ads)
        #expect(wallet.owned.first?.purchaseDate == listed.transaction(ads)?.purchaseDate)
        #expect(wallet.subscriptions.count == 2)

        let expected: [(id: String, title: String, length: DateComponents, renews: Bool)] = [
            // Premium Monthly starts with its free week; Season Pass lasts three months of the calendar.
            (monthly, "Premium Monthly", DateComponents(day: 7), true),
            (season, "Season Pass", DateComponents(month: 3), false),
        ]
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        for (subscription, expected) in zip(wallet.subscriptions, expected) {
            #expect(subscription.transactionId == expected.id)
            #expect(subscription.originalTransactionId == expected.id)
            #expect(subscription.title == expected.title)
            #expect(subscription.active)
            #expect(subscription.willAutoRenew == expected.renews)
            let start = try Date(try #require(listed.transaction(expected.id)).purchaseDate, strategy: .iso8601)
            let end = try Date(subscription.expiresDate, strategy: .iso8601)
            #expect(end == calendar.date(byAdding: expected.length, to: start))
            #expect(subscription.secondsLeft > 0 && Double(subscription.secondsLeft) <= end.timeIntervalSince(start))
        }
    }

    /// The app keeps a non-renewing subscription's term: a Season Pass bought again is charged
    /// again and extends the term by its three months, from the end of the first.
    @Test func aSeasonPassBoughtAgainExtendsTheTerm() throws {
        let state = try StateDir()
        let first = try state.buy(ProductID.seasonPass).transactionId()
        let second = try state.buy(ProductID.seasonPass).transactionId()
        let listed = try state.transactions()
        #expect(listed.transaction(second)?.price == listed.transaction(first)?.price)
        let subscription = try #require(try state.wallet().subscriptions.first)
        #expect(subscription.transactionId == second)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let start = try Date(try #require(listed.transaction(first)).purchaseDate, strategy: .iso8601)
        let end = try Date(subscription.expiresDate, strategy: .iso8601)
        let firstEnd = try #require(calendar.date(byAdding: DateComponents(month: 3), to: start))
        #expect(end == calendar.date(byAdding: DateComponents(month: 3), to: firstEnd))
    }

    @Test func anUnverifiedPaymentIsPendingUntilARunVerifiesIt() throws {
        let state = try StateDir()
        try state.manage("set", "verification", "unreachable")
        let buy = try state.buy(ProductID.gems)
        #expect(buy.status == 0, "\(buy)")
        let id = try buy.transactionId()
        #expect(buy.kinds == ["purchasing", "purchased", "delivered", "warning", "result"])
        #expect(
            buy.steps("warning").first?["message"] as? String
                == "not verified yet (the verification server is unreachable); kept unfinished and retried at next launch"
        )
        #expect(try buy.result()["finished"] as? Bool == false)

        let wallet = try state.wallet()
        #expect(wallet.balances == ["gems": 100])  // delivered before verification
        #expect(wallet.pending.count == 1)
        let pending = try #require(wallet.pending.first)
        #expect(pending.transactionId == id)
        #expect(pending.productId == ProductID.gems)
        #expect(pending.state == "purchased")
        #expect(pending.since == (try state.transactions().transaction(id)?.purchaseDate))
        #expect(
            pending.waitingFor
                == "paid and delivered; waiting for the server to confirm the receipt (1 attempt: the verification server is unreachable)"
        )

        // Buying the same product again while it is pending warns, naming the pending transaction.
        let again = try state.buy(ProductID.gems)
        let warning = try #require(again.steps("warning").first { $0["pending"] != nil }, "\(again)")
        #expect(warning["pending"] as? [String] == [id])
        #expect(warning["productId"] as? String == ProductID.gems)
        let secondId = try again.transactionId()
        #expect(try state.wallet().pending.map(\.transactionId) == [id, secondId])

        try state.manage("set", "verification", "ok")
        // Read-only commands do not verify; the observer runs in buy and restore.
        _ = try state.transactions()
        #expect(try state.wallet().pending.map(\.transactionId) == [id, secondId])

        let restore = try state.run(["restore", "--json"])
        #expect(restore.status == 0, "\(restore)")
        #expect(restore.steps("verified").map { $0["transactionId"] as? String } == [id, secondId])
        #expect(restore.steps("delivered").allSatisfy { $0["firstTime"] as? Bool == false })
        let after = try state.wallet()
        #expect(after.pending.isEmpty)
        #expect(after.balances == ["gems": 200])
        #expect(try state.transactions().unfinished.isEmpty)
    }
}
