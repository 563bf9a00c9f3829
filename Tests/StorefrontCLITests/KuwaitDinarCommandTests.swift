import Foundation
import TestSupport
import Testing

/// A catalog with a storefront priced in Kuwaiti dinars (three decimals), through the commands a
/// tester runs: the price listed, a purchase of three, and a refund.
@Suite struct KuwaitDinarCommandTests {
    @Test func dinarsAreListedBoughtAndRefundedWithThreeDecimals() throws {
        let state = try StateDir()
        let catalog = state.root.appendingPathComponent("kuwait.json")
        try KuwaitCatalog.bytes().write(to: catalog)
        let listed = try Executable.run([
            "products", "--catalog", catalog.path, "--storefront", "KWT", "--locale", "en_US",
        ])
        #expect(listed.status == 0, "\(listed)")
        #expect(listed.stdout.contains("KWD\u{00A0}1.250"), "\(listed)")

        let bought = try state.buy(
            ProductID.gems, "--catalog", catalog.path, "--account", KuwaitCatalog.account, "--quantity", "3")
        #expect(bought.status == 0, "\(bought)")
        let id = try bought.transactionId()
        try state.manage("refund", id, "--reason", "app-issue", "--catalog", catalog.path)
        let record = try #require(
            try state.transactions("--catalog", catalog.path, "--account", KuwaitCatalog.account).transaction(id))
        #expect(record.price == "3.75")
        #expect(record.currency == "KWD")
        #expect(record.quantity == 3)
        #expect(record.revocationReason == "developerIssue")

        let bad = state.root.appendingPathComponent("bad.json")
        try KuwaitCatalog.bytes(gemsPrice: "1.2505").write(to: bad)
        let run = try Executable.run(["products", "--catalog", bad.path])
        #expect(run.status != 0)
        #expect(run.stderr.contains(#"prices.KWT: "1.2505" has more decimal places than KWD allows (3)"#), "\(run)")
    }
}
