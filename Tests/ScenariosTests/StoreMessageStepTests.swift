import Scenarios
import StoreCore
import Testing

/// A scenario's `message generic --account A` and `purchase-intent PRODUCT [--offer ID] --account
/// A`, as `storefront manage` and a tape's `Store` take them: the App Store's side of one account.
@Suite struct StoreMessageStepTests {
    @Test func aMessageStepSendsTheAccountAGenericMessage() throws {
        let step = try ManageStep.parse(["message", "generic", "--account", "kenji"]).get()
        #expect(step.account == "kenji" && step.transaction == nil)
        #expect(step.action(on: "") == .sendMessage(account: "kenji", reason: .generic))
        #expect(try ManageStep.parse(["message", "--account", "kenji", "generic"]).get() == step)
    }

    @Test func aPurchaseIntentStepNamesItsProductAndOffer() throws {
        let promoted = try ManageStep.parse([
            "purchase-intent", "com.example.storefront.removeads", "--account", "alice",
        ])
        .get()
        #expect(
            promoted.action(on: "")
                == .purchaseIntent(account: "alice", productId: "com.example.storefront.removeads", offerId: nil))
        let winBack = try ManageStep.parse([
            "purchase-intent", "--offer", "com.example.storefront.premium.comeback",
            "com.example.storefront.premium.monthly",
            "--account", "alice",
        ]).get()
        #expect(
            winBack.action(on: "")
                == .purchaseIntent(
                    account: "alice", productId: "com.example.storefront.premium.monthly",
                    offerId: "com.example.storefront.premium.comeback"))
        #expect(winBack != promoted)
    }

    @Test func aStepWithoutItsAccountOrWithAWrongWordIsRefused() {
        for words in [
            ["message", "generic"], ["message", "billingIssue", "--account", "alice"],
            ["message", "--account", "alice"],
            ["message", "generic", "--account"], ["message", "generic", "--offer", "x", "--account", "alice"],
            ["purchase-intent", "--account", "alice"], ["purchase-intent", "p", "q", "--account", "alice"],
            ["purchase-intent", "p"], ["purchase-intent", "p", "--account", "a", "--account", "b"],
        ] {
            guard case .failure(let problem) = ManageStep.parse(words) else {
                Issue.record("\(words) was read")
                continue
            }
            #expect(problem.message.contains("--account"), "\(words): \(problem.message)")
        }
        #expect(ManageStep(.message, choice: "generic", transaction: nil) == nil, "no account")
        #expect(ManageStep(.refund, account: "alice", product: "p", transaction: .last) == nil)
    }
}
