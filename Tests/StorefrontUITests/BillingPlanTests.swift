import CellGrid
import Foundation
import StoreCore
import StoreKitModel
import StorefrontUI
import Testing

/// Premium Yearly's monthly plan with a 12-month commitment on the purchase and details sheets:
/// chosen with `b` where it is offered (lena, Germany; chloe, France), never in the United States
/// (alice), and stated in full before the purchase.
@Suite struct BillingPlanTests {
    typealias F = UIFixture
    static let yearly = "com.example.storefront.premium.yearly"
    static let wide = TerminalSize(columns: 120, rows: 40)

    static func sheet(_ plan: BillingPlanType) -> Sheet {
        .confirmPurchase(ConfirmPurchase(productId: yearly, quantity: 1, pendingIds: [], billingPlan: plan))
    }

    static func store(account: String, size: TerminalSize = wide, language: Language = .english) -> ReducerTestStore {
        var store = ReducerTestStore(F.state(size, language: language, account: account))
        store.arrange { $0.list.setQuery(language == .english ? "premium yearly" : "年度") }
        return store
    }

    /// The sheet's text as one run, its wrapped lines joined: what lies between a row's first and
    /// last border.
    static func sheetText(_ state: AppState) -> String {
        Golden.text(state).split(separator: "\n").compactMap { row -> String? in
            guard let first = row.firstIndex(of: "│"), let last = row.lastIndex(of: "│"), first < last else {
                return nil
            }
            return row[row.index(after: first)..<last].trimmingCharacters(in: .whitespaces)
        }.joined(separator: " ").plainSpaces
    }

    @Test func bSwitchesToMonthlyAndThePaymentCarriesThePlan() {
        var store = Self.store(account: "lena")
        store.press(.enter) { $0.sheet = Self.sheet(.upFront) }
        var text = Golden.text(store.state)
        #expect(text.contains("Billing     up front"), "\(text)")
        #expect(text.contains("b billing plan"), "\(text)")
        #expect(!text.contains("monthly payments"), "\(text)")
        store.press(.character("b")) { $0.sheet = Self.sheet(.monthly) }
        text = Self.sheetText(store.state)
        #expect(
            text.contains(
                "12 monthly payments of 4,99 €, 59,88 € in total; cancel any time to stop the next commitment"),
            "\(text)")
        #expect(text.contains("Price       4,99 €/month"), "\(text)")
        #expect(text.contains("Total       4,99 €"), "\(text)")
        #expect(text.contains("Billing     monthly, 12-month commitment"), "\(text)")
        store.press(.character("b")) { $0.sheet = Self.sheet(.upFront) }
        store.press(.character("b")) { $0.sheet = Self.sheet(.monthly) }
        store.press(.enter, effects: [.buy(productId: Self.yearly, quantity: 1, account: "lena", plan: .monthly)]) {
            $0.sheet = nil
            $0.status = ReducerTests.status("Purchasing Premium Yearly…")
        }
    }

    @Test func upFrontPaysWithoutAPlanAsBefore() {
        var store = Self.store(account: "chloe")
        store.press(.enter) { $0.sheet = Self.sheet(.upFront) }
        store.press(.enter, effects: [.buy(productId: Self.yearly, quantity: 1, account: "chloe")]) {
            $0.sheet = nil
            $0.status = ReducerTests.status("Purchasing Premium Yearly…")
        }
    }

    @Test func theUnitedStatesIsNotOfferedTheMonthlyPlan() {
        var store = Self.store(account: "alice")
        store.press(.enter) { $0.sheet = Self.sheet(.upFront) }
        store.press(.character("b"))  // nothing to switch to
        let text = Golden.text(store.state)
        #expect(!text.contains("Billing"), "\(text)")
        #expect(!text.contains("b billing plan"), "\(text)")
        #expect(!text.contains("monthly"), "\(text)")
        store.press(.enter, effects: [.buy(productId: Self.yearly, quantity: 1, account: "alice")]) {
            $0.sheet = nil
            $0.status = ReducerTests.status("Purchasing Premium Yearly…")
        }
        store.press(.character("i")) { $0.sheet = .productDetails }
        #expect(!Golden.text(store.state).contains("Monthly:"))
    }

    @Test func theSheetsAtEightyColumns() {
        var store = Self.store(account: "lena", size: TerminalSize(columns: 80, rows: 24))
        store.press(.enter) { $0.sheet = Self.sheet(.upFront) }
        store.press(.character("b")) { $0.sheet = Self.sheet(.monthly) }
        Golden.check("confirm-monthly-plan-80x24", store.state)
        store.press(.escape) { $0.sheet = nil }
        store.press(.character("i")) { $0.sheet = .productDetails }
        Golden.check("details-billing-plans-80x24", store.state)
        let text = Golden.text(store.state).plainSpaces
        #expect(text.contains("Price       Up front: 59,99 €/year"), "\(text)")
        #expect(text.contains("            Monthly: 4,99 €/month for 12 months (59,88 € in total)"), "\(text)")
    }

    @Test func theSheetSpeaksChinese() {
        var store = Self.store(account: "lena", language: .simplifiedChinese)
        store.press(.enter) { $0.sheet = Self.sheet(.upFront) }
        store.press(.character("b")) { $0.sheet = Self.sheet(.monthly) }
        let text = Self.sheetText(store.state)
        #expect(text.contains("12 次月付，每次 4,99 €，共 59,88 €；可随时取消，以停止下一期承诺"), "\(text)")
        #expect(text.contains("b 付款方式"), "\(text)")
    }
}

extension String {
    /// ICU separates an amount from its currency with a no-break space; tests type plain ones.
    fileprivate var plainSpaces: String {
        replacingOccurrences(of: "\u{00A0}", with: " ").replacingOccurrences(of: "\u{202F}", with: " ")
    }
}
