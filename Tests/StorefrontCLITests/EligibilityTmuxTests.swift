import Foundation
import TestSupport
import Testing

/// Offer eligibility in the real terminal, in English and Chinese: the purchase sheet offers only
/// what the account may take, as the App Store's does, and the details sheet says why the others
/// are not offered. A new account may take neither Premium Monthly's promotional nor its win-back
/// offer; once subscribed, it may take the promotional one, and the store agrees when it buys it.
@Suite(.serialized) struct EligibilityTmuxTests {
    static let halfprice = "com.example.storefront.premium.halfprice"
    static let comeback = "com.example.storefront.premium.comeback"

    @Test func theSheetOffersOnlyWhatTheAccountMayTakeAndTheDetailsSayWhy() throws {
        let session = try InteractiveEndToEndTests.App().launch(rows: 32)
        defer { session.kill() }
        try session.sendKeys("/")
        // The product id matches in both languages; a title only in its own.
        try session.type("premium.monthly")
        try session.sendKeys("Enter")
        try session.waitFor(text: "> Premium Monthly")

        try session.sendKeys("Enter")
        let newcomer = try session.waitFor(text: "Free for 1 week, then $4.99/month")
        #expect(!newcomer.contains("o offer"), "nothing to choose:\n\(newcomer)")
        try session.sendKeys("Escape")
        try details(
            session, in: .english,
            saying: [
                "Promotional offer \(Self.halfprice): not for this account (the account has never subscribed in this group)",
                "Win-back offer \(Self.comeback): not for this account (the account has never subscribed in this group)",
            ])
        try details(
            session, in: .chinese,
            saying: [
                "\(Self.halfprice)：此账户不符合条件（此账户从未在该群组订阅）",
                "\(Self.comeback)：此账户不符合条件（此账户从未在该群组订阅）",
            ])

        try session.sendKeys("l", "Enter", "Enter")
        try session.waitUntil("subscribed") { $0.contains("verified ✓ finished") }
        try session.sendKeys("Enter")
        try session.waitUntil("the sheet offers the promotional offer") {
            $0.contains("You're currently subscribed") && $0.contains("o offer")
        }
        try session.sendKeys("o")
        try session.waitUntil("the promotional offer chosen") {
            CommitmentTmuxTests.sheetText($0).contains("Promotional offer: $2.50/month for 3 months")
        }
        try session.sendKeys("Escape")
        try details(
            session, in: .english,
            saying: [
                "Promotional offer \(Self.halfprice): available to this account (o on the purchase sheet)",
                "Win-back offer \(Self.comeback): not for this account (a subscription in this group is in force",
            ])
        try details(
            session, in: .chinese,
            saying: [
                "\(Self.halfprice)：此账户可用（在购买确认中按 o）",
                "\(Self.comeback)：此账户不符合条件（该群组的订阅仍有效，赢回优惠仅限已过期的订阅者）",
            ])

        // The store agrees: the offer bought waits for the renewal, with no SKError 18.
        try session.sendKeys("l", "Enter", "o", "Enter")
        try session.waitUntil("the purchase answered") { $0.contains("restored   Premium Monthly") }
        try session.sendKeys("u")
        let waiting = try session.waitFor(text: "promotional offer from the next renewal")
        #expect(!waiting.contains("SKError 18"), "\(waiting)")
    }

    enum Language { case english, chinese }

    /// From the list in the other language (English first), switches with `l`, opens the details
    /// sheet and waits for each of `lines` in its text, rows joined as they wrap; Chinese is
    /// compared without spaces, as a wrapped row adds one. Closes the sheet.
    func details(_ session: TmuxSession, in language: Language, saying lines: [String]) throws {
        if language == .chinese { try session.sendKeys("l") }
        try session.sendKeys("i")
        try session.waitUntil("the details say \(lines)") { screen in
            let text = CommitmentTmuxTests.sheetText(screen)
            let compact = text.replacingOccurrences(of: " ", with: "")
            return lines.allSatisfy {
                language == .english ? text.contains($0) : compact.contains($0.replacingOccurrences(of: " ", with: ""))
            }
        }
        try session.sendKeys("Escape")
    }
}
