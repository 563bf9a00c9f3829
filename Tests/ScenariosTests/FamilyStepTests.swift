import Scenarios
import StoreCore
import Testing

/// A scenario's or a tape's `family add ACCOUNT --family NAME` and `family remove ACCOUNT`: a
/// Sandbox Test Family edited while the store runs, as `storefront manage family` edits it.
@Suite struct FamilyStepTests {
    @Test func addAndRemoveMoveOneAccount() throws {
        let add = try ManageStep.parse(["family", "add", "lena", "--family", "smiths"]).get()
        #expect(add.account == "lena" && add.family == "smiths" && add.transaction == nil)
        #expect(add.action(on: "") == .setFamily(account: "lena", family: "smiths"))
        let remove = try ManageStep.parse(["family", "remove", "lena"]).get()
        #expect(remove.action(on: "") == .setFamily(account: "lena", family: nil))
        #expect(add != remove)
    }

    @Test func wordsThatAreNotAnEditAreRefusedWithTheForm() {
        for words in [
            ["family"], ["family", "add", "lena"], ["family", "remove", "lena", "--family", "smiths"],
            ["family", "join", "lena"], ["family", "add", "lena", "--team", "smiths"],
        ] {
            guard case .failure(let problem) = ManageStep.parse(words) else {
                Issue.record("\(words) was read")
                continue
            }
            #expect(problem.message.contains("family add lena --family smiths"), "\(problem.message)")
        }
        #expect(ManageStep(.refund, family: "smiths", transaction: .last) == nil)
    }
}
