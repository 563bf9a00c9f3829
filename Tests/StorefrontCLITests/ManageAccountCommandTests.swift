import Foundation
import Testing

/// `storefront manage clear --account` and `manage family add|remove`: the sandbox's account tools.
@Suite struct ManageAccountCommandTests {
    @Test func clearWithAnAccountClearsOnlyThatAccountsHistory() throws {
        let state = try StateDir()
        _ = try state.buy(ProductID.monthly)
        let lenas = try state.buy(ProductID.gems, "--account", "lena").transactionId()
        let clear = try state.manage("clear", "--account", "alice")
        #expect(clear.stdout == "clear --account alice: done\n")
        #expect(try state.transactions().history.isEmpty)
        #expect(try state.transactions("--account", "lena").history.map(\.transactionId) == [lenas])

        let unknown = try state.run(["manage", "clear", "--account", "mallory"])
        #expect(unknown.status != 0)
        #expect(unknown.stderr.contains("mallory"), "\(unknown.stderr)")
    }

    @Test func familyAddSharesAndRemoveTakesBack() throws {
        let state = try StateDir()
        _ = try state.buy(ProductID.theme)
        let add = try state.manage("family", "add", "kenji", "--family", "appleseed")
        #expect(add.stdout == "family add kenji --family appleseed: done\n")
        let shared = try state.transactions("--account", "kenji").history
        #expect(shared.map(\.productId) == [ProductID.theme])
        #expect(try state.wallet("--account", "kenji").owned.map(\.productId) == [ProductID.theme])

        let remove = try state.manage("family", "remove", "kenji")
        #expect(remove.stdout == "family remove kenji: done\n")
        #expect(try state.wallet("--account", "kenji").owned.isEmpty)
    }

    /// `manage assign ID --to ACCOUNT`: an organization's purchase assigned to a member (ASSIGNED).
    @Test func assignGivesTheMemberThePurchase() throws {
        let state = try StateDir()
        let bought = try state.buy(ProductID.lifetime, "--account", "kenji").transactionId()
        let assign = try state.manage("assign", bought, "--to", "lena")
        let copy = try #require(try state.transactions("--account", "lena").history.first)
        #expect(assign.stdout == "assign \(bought) --to lena: done; \(copy.transactionId) is purchased\n")
        #expect(copy.productId == ProductID.lifetime)
        #expect(try state.wallet("--account", "lena").owned.map(\.productId) == [ProductID.lifetime])

        let again = try state.run(["manage", "assign", bought, "--to", "lena"])
        #expect(again.status == 1 && again.stderr.contains("already has"), "\(again.stderr)")
    }
}
