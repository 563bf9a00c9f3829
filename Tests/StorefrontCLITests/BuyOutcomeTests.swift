import Foundation
import Testing

/// `storefront buy ID --outcome X --json` for every forced outcome and each of the four product types.
@Suite struct BuyOutcomeTests {
    /// What a forced outcome must produce.
    struct Expectation: Sendable, CustomTestStringConvertible {
        let outcome: String
        let status: Int32
        let result: String
        /// Each JSON line's kind (update state, step name, "result").
        let kinds: [String]
        /// `(code, domain, name)` of a failure.
        let error: (code: Int, domain: String, name: String)?
        let finished: Bool

        var testDescription: String { outcome }
    }

    static let products = [ProductID.gems, ProductID.removeAds, ProductID.monthly, ProductID.seasonPass]

    static let outcomes: [Expectation] = [
        Expectation(
            outcome: "success", status: 0, result: "purchased",
            kinds: ["purchasing", "purchased", "delivered", "verified", "finished", "result"], error: nil,
            finished: true),
        // A cancellation shows no message: no warning step.
        Expectation(
            outcome: "cancel", status: 3, result: "cancelled",
            kinds: ["purchasing", "failed", "finished", "result"], error: (2, "SKErrorDomain", "paymentCancelled"),
            finished: true),
        Expectation(
            outcome: "fail:0", status: 3, result: "failed",
            kinds: ["purchasing", "failed", "warning", "finished", "result"], error: (0, "SKErrorDomain", "unknown"),
            finished: true),
        Expectation(
            outcome: "fail:4", status: 3, result: "failed",
            kinds: ["purchasing", "failed", "warning", "finished", "result"],
            error: (4, "SKErrorDomain", "paymentNotAllowed"), finished: true),
        Expectation(
            outcome: "fail:clientInvalid", status: 3, result: "failed",
            kinds: ["purchasing", "failed", "warning", "finished", "result"],
            error: (1, "SKErrorDomain", "clientInvalid"), finished: true),
        Expectation(
            outcome: "fail:21", status: 3, result: "failed",
            kinds: ["purchasing", "failed", "warning", "finished", "result"],
            error: (21, "SKErrorDomain", "paymentMethodBindingConfigurationRequired"), finished: true),
        Expectation(
            outcome: "network", status: 3, result: "failed",
            kinds: ["purchasing", "failed", "warning", "finished", "result"],
            error: (-1009, "NSURLErrorDomain", "notConnectedToInternet"), finished: true),
        Expectation(
            outcome: "network:-1001", status: 3, result: "failed",
            kinds: ["purchasing", "failed", "warning", "finished", "result"],
            error: (-1001, "NSURLErrorDomain", "timedOut"), finished: true),
        Expectation(
            outcome: "deferred", status: 0, result: "deferred",
            kinds: ["purchasing", "deferred", "warning", "result"], error: nil, finished: false),
        // Interrupted: failed first (unknown), purchased once resolved.
        Expectation(
            outcome: "interrupted", status: 3, result: "failed",
            kinds: ["purchasing", "failed", "warning", "finished", "result"], error: (0, "SKErrorDomain", "unknown"),
            finished: true),
    ]

    @Test(arguments: products, outcomes)
    func forcedOutcome(productId: String, expected: Expectation) throws {
        let state = try StateDir()
        let buy = try state.buy(productId, "--outcome", expected.outcome)
        #expect(buy.status == expected.status, "\(buy)")
        // Exit 3 prints an empty line on stderr (ArgumentParser's message for a bare ExitCode); nothing else.
        #expect(buy.stderr.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(buy)")
        #expect(buy.kinds == expected.kinds, "\(buy)")
        let id = try buy.transactionId()
        #expect(id.count == 16 && id.allSatisfy(\.isNumber))

        let updates = buy.updates
        #expect(
            updates.allSatisfy {
                $0["transactionId"] as? String == id && $0["productId"] as? String == productId
                    && $0["quantity"] as? Int == 1
            })
        let last = try #require(updates.last)
        if expected.result == "purchased" {
            #expect(
                Set(last.keys) == [
                    "state", "transactionId", "productId", "quantity", "receipt", "price", "currency", "displayPrice",
                ])
            let receipt = try #require(last["receipt"] as? String)
            #expect(Data(base64Encoded: receipt) != nil)
        } else {
            #expect(last["receipt"] == nil)
        }
        if let error = expected.error {
            let reported = try #require(last["error"] as? [String: Any], "\(buy)")
            #expect(Set(reported.keys) == ["code", "name", "message"])
            #expect(reported["code"] as? Int == error.code)
            #expect(reported["name"] as? String == error.name)
            let message = try #require(reported["message"] as? String)
            #expect(!message.isEmpty)
            if error.name != "paymentCancelled" {
                #expect(buy.steps("warning").map { $0["message"] as? String } == [message])
            }
        } else {
            #expect(last["error"] == nil)
        }

        let result = try buy.result()
        #expect(Set(result.keys) == ["result", "transactionId", "finished"])
        #expect(result["result"] as? String == expected.result)
        #expect(result["finished"] as? Bool == expected.finished)

        let listed = try state.transactions()
        let stored = try #require(listed.transaction(id))
        #expect(stored.state == last["state"] as? String)
        #expect(stored.finished == expected.finished)
        #expect(stored.error?.code == expected.error?.code)
        #expect(stored.error?.domain == expected.error?.domain)
        #expect(stored.error?.name == expected.error?.name)
        #expect(listed.unfinished.map(\.transactionId) == (expected.finished ? [] : [id]))

        switch expected.outcome {
        case "success":
            try expectDelivered(productId, transactionId: id, in: state)
        case "interrupted":
            let resolve = try state.manage("resolve", id)
            let resolvedId = try #require(resolve.stdout.firstMatch(of: /; (\d{16}) is purchased\n$/)?.1).description
            let restore = try state.run(["restore", "--json"])
            #expect(restore.steps("finished").first?["transactionId"] as? String == resolvedId, "\(restore)")
            // (For a non-consumable or subscription, the restore also delivers its own restored copy.)
            try expectDelivered(
                productId, transactionId: resolvedId, in: state,
                alone: productId == ProductID.gems || productId == ProductID.seasonPass)
        default:
            let wallet = try state.wallet()
            #expect(wallet.balances.isEmpty && wallet.owned.isEmpty && wallet.subscriptions.isEmpty)
        }
    }

    /// The wallet shows what a purchase of `productId` grants.
    private func expectDelivered(_ productId: String, transactionId: String, in state: StateDir, alone: Bool = true)
        throws
    {
        let wallet = try state.wallet()
        switch productId {
        case ProductID.gems:
            #expect(wallet.balances == ["gems": 100])
        case ProductID.removeAds:
            #expect(wallet.owned.map(\.transactionId) == [transactionId])
        default:
            #expect(wallet.subscriptions.map(\.transactionId) == [transactionId])
            #expect(wallet.subscriptions.first?.active == true)
            #expect(wallet.subscriptions.first?.willAutoRenew == (productId == ProductID.monthly))
        }
        let delivered = try state.deliveries().map(\.transactionId)
        #expect(delivered.first == transactionId)
        #expect(delivered.count == (alone ? 1 : 2))
    }

    /// As text, a failure's sentence is on its update's line, after the error's name, and the app
    /// step that shows it says so without printing it again.
    @Test func aFailedPurchasesSentenceIsPrintedOnce() throws {
        let state = try StateDir()
        try state.manage("set", "next-outcome", "fail:4")
        let buy = try state.run(["buy", ProductID.gems])
        #expect(buy.status == 3, "\(buy)")
        let sentence = "Purchases aren't allowed on this device."
        #expect(buy.stdout.components(separatedBy: sentence).count == 2, "\(buy)")
        let lines = buy.stdout.split(separator: "\n").map(String.init)
        let id = try #require(lines.first?.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first)
        #expect(
            lines == [
                "purchasing \(id)  \(ProductID.gems) ×1",
                "failed     \(id)  \(ProductID.gems) ×1  SKErrorDomain 4 paymentNotAllowed: \(sentence)",
                "  shown to the buyer",
                "  finished \(id)",
                "result: failed (finished)",
            ], "\(buy)")
    }

    @Test(arguments: ["sometimes", "fail", "fail:22", "network:-1", "deferred:1"])
    func anUnknownOutcomeIsAUsageError(outcome: String) throws {
        let state = try StateDir()
        let buy = try state.buy(ProductID.gems, "--outcome", outcome)
        #expect(buy.status == 2)
        #expect(buy.stdout.isEmpty)
        #expect(
            buy.stderr
                == "storefront: --outcome \(outcome): expected success, cancel, fail:CODE, network[:CODE], deferred or interrupted\n"
        )
    }

    @Test(arguments: ["0", "11"])
    func quantityOutsideOneToTenIsAUsageError(quantity: String) throws {
        let state = try StateDir()
        let buy = try state.buy(ProductID.gems, "--quantity", quantity)
        #expect(buy.status == 2)
        #expect(buy.stderr == "storefront: --quantity \(quantity): StoreKit allows 1 to 10\n")
    }

    @Test func unknownAndRemovedProductsFailAsInvalidPayments() throws {
        let state = try StateDir()
        for productId in ["com.example.nope", "com.example.storefront.levels.classic"] {
            let buy = try state.buy(productId)
            #expect(buy.status == 3, "\(buy)")
            #expect((buy.updates.last?["error"] as? [String: Any])?["name"] as? String == "paymentInvalid")
            #expect(try buy.result()["result"] as? String == "failed")
        }
    }

    @Test func buyingAnOwnedNonConsumableAgainYieldsACopyOfTheOriginal() throws {
        let state = try StateDir()
        let first = try state.buy(ProductID.removeAds).transactionId()
        let again = try state.buy(ProductID.removeAds)
        #expect(again.status == 0, "\(again)")
        let second = try again.transactionId()
        #expect(first != second)
        let listed = try state.transactions()
        #expect(listed.history.map(\.transactionId) == [second, first])
        #expect(listed.history.map(\.state) == ["restored", "purchased"])
        #expect(listed.history.allSatisfy { $0.originalTransactionId == first && $0.finished })
        #expect(try state.wallet().owned.map(\.transactionId) == [first])
    }
}
