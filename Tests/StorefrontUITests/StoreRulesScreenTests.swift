import CellGrid
import Foundation
import StoreCore
import StoreKitModel
import StorefrontUI
import Testing

/// What the App Store's purchase rules look like on screen: the sheet for what the account
/// already has and for an introductory offer, the list's marks, and a refund.
@Suite struct StoreRulesScreenTests {
    typealias F = UIFixture
    static let small = TerminalSize(columns: 80, rows: 24)

    /// The catalog filtered down to `text`'s products, the first selected.
    static func filtered(_ state: inout AppState, _ text: String) {
        F.keys(&state, .character("/"))
        for character in text { F.keys(&state, .character(character)) }
        F.keys(&state, .enter)
    }

    /// An account that owns Remove Ads and is subscribed to Premium Monthly for 95 s more.
    static func holding(language: Language = .english) -> AppState {
        var state = F.state(small, language: language)
        let ads = F.transaction("2000000000000001", F.removeAds, .purchased, finished: true)
        let monthly = F.transaction("2000000000000002", F.monthly, .purchased, finished: true)
        F.send(
            &state,
            .snapshot(
                StoreSnapshot(
                    history: [monthly, ads], pending: [], balances: [:],
                    entitlements: [
                        Entitlement(
                            productId: F.removeAds, type: .nonConsumable, transactionId: ads.id,
                            originalTransactionId: ads.id,
                            purchaseDate: F.now, expiresDate: nil, willAutoRenew: false),
                        Entitlement(
                            productId: F.monthly, type: .autoRenewable, transactionId: monthly.id,
                            originalTransactionId: monthly.id,
                            purchaseDate: F.now, expiresDate: F.now.addingTimeInterval(95), willAutoRenew: true),
                    ],
                    controls: TestControls())))
        return state
    }

    @Test func anOwnedNonConsumableIsOfferedAgainForFree() {
        var state = Self.holding()
        Self.filtered(&state, "remove")
        F.keys(&state, .enter, .character("+"))
        guard case .confirmPurchase(let confirm)? = state.sheet else {
            Issue.record("no confirmation sheet: \(String(describing: state.sheet))")
            return
        }
        #expect(confirm.quantity == 1, "+ raised the quantity of a non-consumable")
        Golden.check("confirm-owned-80x24", state)
    }

    @Test func anActiveSubscriptionSaysSoAndChargesNothing() {
        var state = Self.holding()
        Self.filtered(&state, "premium monthly")
        F.keys(&state, .enter)
        Golden.check("confirm-subscribed-80x24", state)
    }

    @Test(arguments: [Language.english, .simplifiedChinese]) func aFreeTrialSaysWhatFollowsIt(language: Language) {
        var state = F.state(Self.small, language: language)
        Self.filtered(&state, language == .english ? "premium monthly" : "员（月")
        F.keys(&state, .enter)
        Golden.check("confirm-trial-\(language == .english ? "en" : "zh")-80x24", state)
    }

    @Test func anAccountThatHadTheGroupPaysThePrice() {
        var state = F.state(Self.small)
        let expired = F.transaction("2000000000000001", F.plusMonthly, .purchased, finished: true)
        F.send(
            &state,
            .snapshot(
                StoreSnapshot(
                    history: [expired], pending: [], balances: [:], entitlements: [], controls: TestControls())))
        Self.filtered(&state, "premium monthly")
        F.keys(&state, .enter)
        let text = Golden.text(state)
        #expect(text.contains("Do you want to subscribe to Premium Monthly for $4.99/month?"), "\(text)")
        #expect(!text.contains("Free for"), "\(text)")
    }

    @Test func aRefundedTransactionReadsRefunded() {
        var state = F.state(Self.small)
        var gems = F.transaction("2000000000000001", F.gems, .purchased, finished: true)
        gems.terms = TransactionTerms(
            price: Decimal(string: "0.99")!, currency: "USD",
            revocation: Revocation(date: F.now, reason: .other))
        F.send(
            &state,
            .snapshot(
                StoreSnapshot(
                    history: [gems], pending: [], balances: ["gems": 0], entitlements: [], controls: TestControls())))
        F.send(&state, .appSteps([.revoked(transactionId: gems.id, balance: "gems", amount: 100)]))
        Golden.check("refunded-80x24", state)
    }

    @Test func aReversedRefundSaysWhatCameBack() {
        var state = F.state(Self.small)
        var gems = F.transaction("2000000000000001", F.gems, .purchased, finished: true)
        gems.terms = TransactionTerms(price: Decimal(string: "0.99")!, currency: "USD", refundReversalDate: F.now)
        F.send(
            &state,
            .snapshot(
                StoreSnapshot(
                    history: [gems], pending: [], balances: ["gems": 100], entitlements: [], controls: TestControls())))
        F.send(&state, .appSteps([.reinstated(transactionId: gems.id, balance: "gems", amount: 100)]))
        #expect(
            Golden.text(state).contains("refund of 100 Gems was reversed; 100 gems given back"), "\(Golden.text(state))"
        )
    }

    @Test func aBillingIssueShowsInTheWalletWithItsGracePeriod() {
        var state = F.state(Self.small)
        let monthly = F.transaction("2000000000000001", F.monthly, .purchased, finished: true)
        let inGrace = RenewalInfo(
            willAutoRenew: true, autoRenewProductId: F.monthly, isInBillingRetry: true,
            gracePeriodExpirationDate: F.now.addingTimeInterval(5 * 86_400))
        F.send(
            &state,
            .snapshot(
                StoreSnapshot(
                    history: [monthly], pending: [], balances: [:],
                    entitlements: [
                        Entitlement(
                            productId: F.monthly, type: .autoRenewable, transactionId: monthly.id,
                            originalTransactionId: monthly.id,
                            purchaseDate: F.now, expiresDate: F.now.addingTimeInterval(-60), willAutoRenew: true,
                            renewal: inGrace)
                    ],
                    controls: TestControls())))
        // StoreKit's billing-issue message comes first, once; Esc leaves it for later.
        #expect(
            state.sheet
                == .storeMessage(StoreMessage(reason: .billingIssue, transactionId: monthly.id, productId: F.monthly)))
        #expect(Golden.text(state).contains("You keep access for 5 d while you update it."))
        F.keys(&state, .escape)
        Self.filtered(&state, "premium monthly")
        let text = Golden.text(state)
        #expect(text.contains("Premium Monthly in grace period, 5 d left"), "\(text)")
        #expect(text.contains("Subscribed"), "a subscription in its grace period is still in force")
        var lapsed = inGrace
        lapsed.gracePeriodExpirationDate = nil
        F.send(
            &state,
            .snapshot(
                StoreSnapshot(
                    history: [monthly], pending: [], balances: [:],
                    entitlements: [
                        Entitlement(
                            productId: F.monthly, type: .autoRenewable, transactionId: monthly.id,
                            originalTransactionId: monthly.id,
                            purchaseDate: F.now, expiresDate: F.now.addingTimeInterval(-60), willAutoRenew: true,
                            renewal: lapsed)
                    ],
                    controls: TestControls())))
        #expect(Golden.text(state).contains("Premium Monthly in billing retry (no access)"))
        #expect(!Golden.text(state).contains("Subscribed"))
    }

    @Test func aDowngradeSaysItWaitsForTheRenewalAndAnUpgradeThatItReplacesNow() {
        var state = Self.holding()  // on Premium Monthly, which renews in 95 s
        Self.filtered(&state, "premium plus")
        F.keys(&state, .enter)
        #expect(Golden.text(state).contains("replacing Premium Monthly"))
        let plus = F.transaction("2000000000000003", F.plusMonthly, .purchased, finished: true)
        state = F.state(Self.small)
        F.send(
            &state,
            .snapshot(
                StoreSnapshot(
                    history: [plus], pending: [], balances: [:],
                    entitlements: [
                        Entitlement(
                            productId: F.plusMonthly, type: .autoRenewable, transactionId: plus.id,
                            originalTransactionId: plus.id,
                            purchaseDate: F.now, expiresDate: F.now.addingTimeInterval(3 * 86_400), willAutoRenew: true)
                    ],
                    controls: TestControls())))
        Self.filtered(&state, "premium monthly")
        F.keys(&state, .enter)
        Golden.check("confirm-downgrade-80x24", state)
    }

    @Test func anUpgradeQuotesTheRefundOfTheUnusedPartAndTheOldPlanSaysUpgraded() throws {
        var state = F.state(Self.small)
        let expiry = F.now.addingTimeInterval(30 * 86_400 - 60)
        var monthly = F.transaction("2000000000000002", F.monthly, .purchased, finished: true)
        monthly.terms = TransactionTerms(
            price: try #require(Decimal(string: "4.99")), currency: "USD", expirationDate: expiry)
        F.send(
            &state,
            .snapshot(
                StoreSnapshot(
                    history: [monthly], pending: [], balances: [:],
                    entitlements: [
                        Entitlement(
                            productId: F.monthly, type: .autoRenewable, transactionId: monthly.id,
                            originalTransactionId: monthly.id,
                            purchaseDate: monthly.purchaseDate, expiresDate: expiry, willAutoRenew: true)
                    ],
                    controls: TestControls())))
        Self.filtered(&state, "premium plus")
        F.keys(&state, .enter)
        let sheet = Golden.text(state)
        #expect(sheet.contains("$4.98, is refunded."), "\(sheet)")

        var upgraded = monthly
        upgraded.terms?.upgrade = Upgrade(date: F.now, refund: try #require(Decimal(string: "4.98")))
        state = F.state(Self.small)
        F.send(
            &state,
            .snapshot(
                StoreSnapshot(
                    history: [upgraded], pending: [], balances: [:], entitlements: [], controls: TestControls())))
        #expect(Golden.text(state).contains("upgraded · unused part refunded"))
    }
}
