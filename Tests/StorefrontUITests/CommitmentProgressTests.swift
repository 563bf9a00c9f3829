import CellGrid
import Foundation
import StoreCore
import StoreKitModel
import StorefrontUI
import Testing

/// A subscription on the monthly plan: its payment's place in the commitment, and what turning
/// auto-renew off mid-commitment does (the months left are billed, then it ends).
@Suite struct CommitmentProgressTests {
    typealias F = UIFixture
    static let yearly = BillingPlanTests.yearly
    static let id = "2000000000000004"

    static let payment: Transaction = {
        var payment = F.transaction(id, yearly, .purchased, account: "lena", finished: true)
        let price = Decimal(string: "4.99") ?? 0
        payment.terms = TransactionTerms(
            price: price, currency: "EUR", expirationDate: F.now.addingTimeInterval(86_400), isRenewal: true,
            billingPlan: .monthly,
            commitment: TransactionCommitment(
                billingPeriodNumber: 4, totalBillingPeriods: 12, price: price * 12,
                expirationDate: F.now.addingTimeInterval(9 * 86_400)))
        return payment
    }()

    /// Lena's subscription at payment 4; `renewsAfter`: whether a new commitment follows this one.
    static func entitlement(renewsAfter: Bool) -> Entitlement {
        let commitment = RenewalCommitment(
            willAutoRenew: renewsAfter, autoRenewProductId: yearly, renewalBillingPlan: .monthly,
            renewalPrice: Decimal(string: "4.99"), renewalDate: F.now.addingTimeInterval(9 * 86_400))
        return Entitlement(
            productId: yearly, type: .autoRenewable, transactionId: id, originalTransactionId: "2000000000000001",
            purchaseDate: F.now, expiresDate: F.now.addingTimeInterval(86_400), willAutoRenew: true,
            renewal: RenewalInfo(
                willAutoRenew: true, autoRenewProductId: yearly, renewalBillingPlan: .monthly, commitment: commitment))
    }

    static func subscribed(_ size: TerminalSize = BillingPlanTests.wide, renewsAfter: Bool = true) -> ReducerTestStore {
        var store = ReducerTestStore(F.state(size, account: "lena"))
        store.arrange {
            $0.history = [payment]
            $0.entitlements = [entitlement(renewsAfter: renewsAfter)]
        }
        return store
    }

    @Test func cancellingMidCommitmentSaysItEndsAfterThePaymentsLeft() {
        var store = Self.subscribed()
        #expect(Golden.text(store.state).contains("Premium Yearly renews in 24 h · payment 4 of 12"))
        store.press(.character("u")) { $0.sheet = .manageSubscriptions(selection: 0) }
        #expect(Golden.text(store.state).contains("Premium Yearly renews in 24 h · payment 4 of 12"))
        let cancelling = CancelSubscription(transactionId: Self.id, productId: Self.yearly, selection: 0)
        let load = Effect.loadCancellationMessage(
            account: "lena", productId: Self.yearly, locale: store.state.locale.replacingOccurrences(of: "_", with: "-")
        )
        store.press(.enter, effects: [load]) { $0.sheet = .cancelSubscription(cancelling) }
        let question = Golden.text(store.state)
        #expect(question.contains("You are at payment 4 of 12"), "\(question)")
        store.press(.enter, effects: [.manage(.setAutoRenew(Self.id, false)), .refresh(account: "lena")]) {
            $0.sheet = .manageSubscriptions(selection: 0)
            $0.status = ReducerTests.status(
                "Premium Yearly cancelled: the commitment's payments left are billed, and it ends after payment 12.")
        }
        // The store's answer: StoreKit's willAutoRenew stays true, the commitment's turns false.
        store.arrange { $0.entitlements = [Self.entitlement(renewsAfter: false)] }
        let ends = "Premium Yearly renews in 24 h · payment 4 of 12, ends after payment 12 of 12"
        #expect(Golden.text(store.state).contains(ends), "\(Golden.text(store.state))")
        // Enter again resumes it rather than cancelling twice.
        store.press(.enter, effects: [.manage(.setAutoRenew(Self.id, true)), .refresh(account: "lena")]) {
            $0.status = ReducerTests.status("Premium Yearly will renew again.")
        }
        store.press(.escape) { $0.sheet = nil }
        #expect(Golden.text(store.state).contains("Wallet: " + ends))
    }

    @Test func theManagerMarksMonthlyPaymentsAndTogglesTheCustomersChoice() {
        var store = Self.subscribed(TerminalSize(columns: 80, rows: 24), renewsAfter: false)
        store.press(.character("m")) { $0.sheet = .transactionManager(selection: 0) }
        Golden.check("manager-commitment-80x24", store.state)
        #expect(Golden.text(store.state).contains("4/12"))
        store.press(
            .character("O"), effects: [.manageAndReport(.setAutoRenew(Self.id, true)), .refresh(account: "lena")])
        var wide = Self.subscribed()
        wide.press(.character("m")) { $0.sheet = .transactionManager(selection: 0) }
        #expect(Golden.text(wide.state).contains("monthly 4/12 · finished"), "\(Golden.text(wide.state))")
    }
}
