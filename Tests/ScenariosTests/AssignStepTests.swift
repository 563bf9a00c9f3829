import Scenarios
import StoreCore
import Testing

/// A scenario's or a tape's `assign last --to ACCOUNT`: a purchase an organization or group
/// assigns to a member, as `storefront manage assign` does.
@Suite struct AssignStepTests {
    @Test func assignNamesTheTransactionAndTheMember() throws {
        let step = try ManageStep.parse(["assign", "last", "--to", "lena"]).get()
        #expect(step.transaction == .last && step.account == "lena")
        #expect(step.action(on: "7") == .assign("7", account: "lena"))
        let before = try ManageStep.parse(["assign", "--to", "lena", "2000000000000001"]).get()
        #expect(before.action(on: "2000000000000001") == .assign("2000000000000001", account: "lena"))
    }

    @Test func assignWithoutAMemberOrATransactionIsRefusedWithTheForm() {
        for words in [["assign", "last"], ["assign", "--to", "lena"], ["assign", "last", "--to"]] {
            guard case .failure(let problem) = ManageStep.parse(words) else {
                Issue.record("\(words) was read")
                continue
            }
            #expect(problem.message.contains("assign last --to lena"), "\(problem.message)")
        }
    }
}
