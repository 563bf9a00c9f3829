import Scenarios
import StoreCore
import Testing

/// A scenario's `clear --account NAME`: the sandbox's Clear Purchase History for one account.
@Suite struct ClearAccountStepTests {
    @Test func clearWithAnAccountClearsThatAccountOnly() throws {
        let step = try ManageStep.parse(["clear", "--account", "kenji"]).get()
        #expect(step.account == "kenji" && step.transaction == nil)
        #expect(step.action(on: "") == .clearAccount("kenji"))
        #expect(try ManageStep.parse(["clear"]).get().action(on: "") == .clearAll)
    }

    @Test func anAccountWithoutItsNameOrOnAnotherVerbIsRefused() {
        for words in [["clear", "--account"], ["clear", "--account", "a", "b"], ["clear", "kenji"]] {
            guard case .failure = ManageStep.parse(words) else {
                Issue.record("\(words) was read")
                continue
            }
        }
        #expect(ManageStep(.reset, account: "kenji", transaction: nil) == nil)
    }
}
