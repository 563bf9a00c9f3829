import Foundation
import TestSupport
import Testing

/// The transaction manager in a real terminal: the inspector of one transaction, a refund
/// confirmed and then reversed, and a parent approving a child's Ask to Buy from every
/// account's view.
@Suite(.serialized) struct ManagerTmuxTests {
    typealias App = InteractiveEndToEndTests.App

    @Test func theInspectorShowsEveryFieldAndARefundIsConfirmedThenReversed() throws {
        let session = try App().launch(columns: 100, rows: 30)
        defer { session.kill() }
        try session.sendKeys("Enter", "Enter")
        try session.waitFor(text: "verified ✓ finished")
        try session.sendKeys("m")
        try session.waitFor(text: "Transaction manager")
        try session.sendKeys("Enter")
        try session.waitUntil("the inspector, with the fields of transactions --json") {
            $0.contains("Transaction 2000000000000001") && $0.contains("originalTransactionId")
                && $0.contains("appStoreOrderId") && $0.contains("M000000001")
        }
        try session.sendKeys("End")
        try session.waitFor(text: "Subscription it belongs to")
        try session.sendKeys("Escape")
        try session.waitFor(text: "> 2000000000000001  purchased")
        try session.sendKeys("F", "F")
        try session.waitUntil("the refund confirmed, and the row says so") {
            $0.contains("Refunded 2000000000000001.") && $0.contains("2000000000000001  refunded")
        }
        // F on a refunded transaction reverses the refund, confirmed the same way.
        try session.sendKeys("F", "F")
        try session.waitUntil("the refund reversed, and the row says so") {
            $0.contains("Refund of 2000000000000001 reversed.") && $0.contains("2000000000000001  purchased")
        }
    }

    @Test func aParentApprovesTheChildsAskToBuyFromEveryAccountsView() throws {
        let app = App()
        let session = try TmuxSession.start(
            command: [Executable.url.path, "--state", app.state.path, "--account", "kid"], columns: 100, rows: 30)
        defer { session.kill() }
        try session.waitFor(text: "Products 1/12")
        try session.sendKeys("/")
        try session.type("remove ads")
        try session.sendKeys("Enter", "Enter", "Enter")
        // The child asks permission first, as on a device.
        try session.waitFor(text: "Ask your parent to buy Remove Ads")
        try session.sendKeys("Enter")
        try session.waitFor(text: "waiting for a parent · not charged")
        // The parent's own account: its manager lists nothing of kid's until every account's is shown.
        try session.sendKeys("Escape", "a", "g", "Enter")
        try session.waitFor(text: "Signed in as alice")
        try session.sendKeys("m")
        try session.waitFor(text: "Transaction manager")
        try session.sendKeys("A")
        try session.waitUntil("kid's request under kid's name") {
            $0.contains("Transaction manager · every account") && $0.contains("kid · family appleseed · Ask to Buy")
                && $0.contains("2000000000000001  deferred")
        }
        try session.sendKeys("Y")
        try session.waitUntil("approved from alice's account: kid's purchase completes") {
            $0.contains("Approved 2000000000000001 (Remove Ads).") && $0.contains("2000000000000001  purchased")
        }
    }
}
