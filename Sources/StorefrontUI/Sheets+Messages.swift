import CellGrid
import Foundation
import StoreCore
import StoreKitModel

/// StoreKit's own sheets over the app: a price increase to consent to, a billing issue, and the
/// child's Ask Permission.
extension Sheets {
    static func storeMessage(_ message: StoreMessage, _ state: AppState, _ strings: UIStrings, _ hints: KeyHints)
        -> (String, [Line], String)
    {
        let title = Presentation.title(state, product: message.productId)
        let entitlement = state.entitlements.first { $0.transactionId == message.transactionId }
        let renewal = entitlement?.renewal
        switch message.reason {
        case .priceIncreaseConsent:
            let product = state.catalog.product(id: message.productId)
            let period = product?.subscription?.period
            let price = { (amount: Decimal) in
                state.priceFormatter.string(amount, period: period, language: state.language)
            }
            let old =
                product?.billingPrice(renewal?.renewalBillingPlan ?? .upFront, in: state.storefront.id).map(price)
                ?? "—"
            let new = renewal?.renewalPrice.map(price) ?? "—"
            let lines = [
                Line(text: title, role: .title), Line(text: ""),
                Line(text: strings.priceIncreaseBody(from: old, to: new), role: .price),
                Line(text: ""),
                Line(text: strings.priceIncreaseTerms(renewsIn: entitlement?.expiresDate.map { left($0, state) })),
            ]
            return (strings.priceIncreaseTitle, lines, hints.priceIncreaseConsent)
        case .billingIssue:
            var lines = [
                Line(text: title, role: .title), Line(text: ""),
                Line(text: strings.billingIssueBody(title), role: .warning),
            ]
            if let grace = renewal?.gracePeriodExpirationDate, grace > state.now {
                lines.append(Line(text: strings.billingIssueGrace(left(grace, state))))
            }
            return (strings.billingIssueTitle, lines, hints.billingIssue)
        }
    }

    static func askPermission(_ confirm: ConfirmPurchase, _ state: AppState, _ strings: UIStrings) -> [Line] {
        let title = Presentation.title(state, product: confirm.productId)
        let price =
            state.catalog.product(id: confirm.productId).map {
                state.quote($0, quantity: confirm.quantity, plan: confirm.billingPlan).price.map(
                    state.priceFormatter.string)
            } ?? nil
        return [
            Line(text: strings.askPermissionQuestion(title, price: price ?? "—"), role: .title), Line(text: ""),
            Line(text: strings.askPermissionBody),
        ]
    }

    /// "16 d", "12 min": how long until `date`, as the wallet says it.
    static func left(_ date: Date, _ state: AppState) -> String {
        UIStrings.timeLeft(max(0, Int(date.timeIntervalSince(state.now).rounded(.up))))
    }
}
