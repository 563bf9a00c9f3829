import Foundation
import StoreCore
import Testing

/// `storefront transactions --json` and `storefront finish ID`.
@Suite struct TransactionsCommandTests {
    static let transactionKeys: Set<String> = [
        "transactionId", "originalTransactionId", "productId", "state", "quantity",
        "purchaseDate", "finished", "finishedBy", "orderId", "price", "currency", "transactionReason",
        "appStoreOrderId",
    ]

    @Test func emptyStateListsNothing() throws {
        let state = try StateDir()
        let object = try state.run(["transactions", "--json"]).object()
        #expect(Set(object.keys) == ["unfinished", "history"])
        #expect((object["unfinished"] as? [Any])?.isEmpty == true)
        #expect((object["history"] as? [Any])?.isEmpty == true)
    }

    @Test func jsonCarriesEveryFieldOfAFinishedPurchase() throws {
        let state = try StateDir()
        let buy = try state.buy(ProductID.gems, "--quantity", "2", "--order", "order-42")
        #expect(buy.status == 0, "\(buy)")
        let id = try buy.transactionId()

        let object = try state.run(["transactions", "--json"]).object()
        #expect(Set(object.keys) == ["unfinished", "history"])
        #expect((object["unfinished"] as? [Any])?.isEmpty == true)
        let history = try #require(object["history"] as? [[String: Any]])
        try #require(history.count == 1)
        let transaction = history[0]
        #expect(Set(transaction.keys) == Self.transactionKeys)  // no "error" on a purchase
        #expect(transaction["transactionId"] as? String == id)
        #expect(transaction["originalTransactionId"] as? String == id)
        #expect(transaction["productId"] as? String == ProductID.gems)
        #expect(transaction["state"] as? String == "purchased")
        #expect(transaction["quantity"] as? Int == 2)
        #expect(transaction["finished"] as? Bool == true)
        #expect(transaction["orderId"] as? String == "order-42")
        #expect(transaction["appStoreOrderId"] as? String == OrderId.of(transactionId: id))
        #expect(transaction["price"] as? String == "1.98")
        #expect(transaction["currency"] as? String == "USD")
        #expect(id.count == 16 && id.allSatisfy(\.isNumber))
        let date = try #require(transaction["purchaseDate"] as? String)
        let parsed = try #require(try? Date(date, strategy: .iso8601), "purchaseDate \(date) is not ISO 8601")
        #expect(abs(parsed.timeIntervalSinceNow) < 3_600)
    }

    /// What happened to a refund: a waiting request with its reason, a prorated refund's share,
    /// a reversal's date.
    @Test func jsonSaysWhatBecameOfARefund() throws {
        let state = try StateDir()
        let id = try state.buy(ProductID.gems).transactionId()
        func listed() throws -> [String: Any] {
            let history = try #require(
                try state.run(["transactions", "--json"]).object()["history"] as? [[String: Any]])
            return try #require(history.first)
        }
        #expect(try state.run(["manage", "request-refund", id, "--reason", "fulfillment-issue"]).status == 0)
        var transaction = try listed()
        #expect(transaction["refundRequestReason"] as? String == "fulfillment-issue")
        #expect((transaction["refundRequestDate"] as? String).flatMap { try? Date($0, strategy: .iso8601) } != nil)
        #expect(try state.run(["manage", "refund", id, "--percentage", "25.5"]).status == 0)
        transaction = try listed()
        #expect(transaction["refundRequestReason"] == nil, "decided")
        #expect(transaction["revocationPercentage"] as? Int == 25_500)
        #expect(try state.run(["manage", "reverse-refund", id]).status == 0)
        transaction = try listed()
        #expect(transaction["revocationDate"] == nil && transaction["revocationPercentage"] == nil)
        #expect((transaction["refundReversalDate"] as? String).flatMap { try? Date($0, strategy: .iso8601) } != nil)
    }

    @Test func failedTransactionsCarryTheirError() throws {
        let state = try StateDir()
        let buy = try state.buy(ProductID.gems, "--outcome", "fail:5")
        #expect(buy.status == 3, "\(buy)")
        let listed = try state.transactions()
        #expect(listed.unfinished.isEmpty)  // the observer finished the failed transaction
        #expect(listed.history.count == 1)
        #expect(listed.history.first?.state == "failed")
        #expect(listed.history.first?.finished == true)
        let error = try #require(listed.history.first?.error)
        #expect(error.code == 5)
        #expect(error.domain == "SKErrorDomain")
        #expect(error.name == "storeProductNotAvailable")
        #expect(!error.message.isEmpty)
    }

    @Test func noFinishLeavesOneUnfinishedThatFinishFinishes() throws {
        let state = try StateDir()
        let buy = try state.buy(ProductID.gems, "--no-finish")
        #expect(buy.status == 0, "\(buy)")
        let id = try buy.transactionId()
        #expect(try buy.result()["finished"] as? Bool == false)
        #expect(buy.steps("delivered").count == 1)
        #expect(buy.steps("finished").isEmpty)

        let before = try state.transactions()
        #expect(before.unfinished.map(\.transactionId) == [id])
        #expect(before.unfinished.first?.state == "purchased")
        #expect(before.unfinished.first?.finished == false)
        #expect(before.history.map(\.transactionId) == [id])

        // Another account's app cannot finish it: alice's app would never deliver it.
        let foreign = try state.run(["finish", id, "--account", "kid"])
        #expect(foreign.status == 1 && foreign.stderr.contains("kid has no transaction \(id)"), "\(foreign)")
        #expect(try state.transactions().unfinished.map(\.transactionId) == [id])

        let finish = try state.run(["finish", id])
        #expect(finish.status == 0, "\(finish)")
        #expect(finish.stdout == "finished \(id)\n")

        let after = try state.transactions()
        #expect(after.unfinished.isEmpty)
        #expect(after.history.map(\.transactionId) == [id])
        #expect(after.history.first?.finished == true)
        #expect(after.history.first?.state == "purchased")
    }

    @Test func historyIsNewestFirstAndUnfinishedIsASubset() throws {
        let state = try StateDir()
        let first = try state.buy(ProductID.gems).transactionId()
        let second = try state.buy(ProductID.removeAds, "--no-finish").transactionId()
        let third = try state.buy(ProductID.gems, "--outcome", "cancel").transactionId()
        let listed = try state.transactions()
        #expect(listed.history.map(\.transactionId) == [third, second, first])
        // --no-finish left `second` unfinished; the third buy's observer handled it before paying.
        #expect(listed.unfinished.isEmpty)
        #expect(listed.history.allSatisfy { $0.finished })
        #expect(Set([first, second, third]).count == 3)
    }

    @Test func finishOfAnUnknownIdFailsNamingIt() throws {
        let state = try StateDir()
        _ = try state.buy(ProductID.gems)
        let finish = try state.run(["finish", "2999999999999999"])
        #expect(finish.status == 1)
        #expect(finish.stdout.isEmpty)
        #expect(finish.stderr == "storefront: no transaction 2999999999999999; see `storefront transactions`\n")
    }

    @Test func finishOfADeferredTransactionIsRefused() throws {
        let state = try StateDir()
        let buy = try state.buy(ProductID.gems, "--account", "kid")
        #expect(buy.status == 0, "\(buy)")
        #expect(try buy.result()["result"] as? String == "deferred")
        let id = try buy.transactionId()

        let finish = try state.run(["finish", id, "--account", "kid"])
        #expect(finish.status == 1)
        #expect(
            finish.stderr
                == "storefront: transaction \(id) is deferred (waiting for Ask to Buy approval); an app must not finish it\n"
        )

        let listed = try state.transactions("--account", "kid")
        #expect(listed.unfinished.map(\.transactionId) == [id])
        #expect(listed.unfinished.first?.state == "deferred")
        #expect(listed.unfinished.first?.finished == false)
        // Another account sees none of it.
        #expect(try state.transactions().history.isEmpty)
    }
}
