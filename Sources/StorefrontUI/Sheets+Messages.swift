import CellGrid
import Foundation
import StoreCore
import StoreKitModel

/// StoreKit's own sheets over the app: a price increase to consent to, a billing issue, a
/// win-back offer, a generic message, a purchase started on the App Store, and the child's Ask
/// Permission.
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
        case .winBackOffer, .generic:
            // Sent by the App Store rather than called for by the subscription: `sentMessage`.
            return (strings.appStoreTitle, [Line(text: title, role: .title)], hints.message)
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

    /// A message the App Store sent: a win-back offer's, as StoreKit's win-back offer sheet
    /// shows it (the offer, then what follows), or a generic one.
    static func sentMessage(_ message: AppStoreMessage, _ state: AppState, _ strings: UIStrings, _ hints: KeyHints)
        -> (String, [Line], String)
    {
        guard message.reason == .winBackOffer, let productId = message.productId,
            let product = state.catalog.product(id: productId)
        else {
            return (
                strings.appStoreTitle,
                [
                    Line(text: strings.genericMessageBody), Line(text: ""),
                    Line(text: strings.genericMessageNote, role: .muted),
                ],
                hints.genericMessage
            )
        }
        let title = product.title.text(in: state.language)
        var lines = [
            Line(text: strings.winBackInvitation(title), role: .title), Line(text: ""),
        ]
        lines += offerLines(product, offerId: message.offerId, state, strings)
        return (strings.winBackTitle, lines, hints.winBackOffer)
    }

    /// A purchase the customer started on the App Store, which the app offers to complete.
    static func promotedPurchase(_ intent: PurchaseIntentInfo, _ state: AppState, _ strings: UIStrings) -> [Line] {
        let title = Presentation.title(state, product: intent.productId)
        var lines = [Line(text: strings.promotedStarted(title), role: .title), Line(text: "")]
        if let product = state.catalog.product(id: intent.productId) {
            lines += offerLines(product, offerId: intent.offerId, state, strings)
        }
        lines += [Line(text: ""), Line(text: strings.promotedQuestion)]
        return lines
    }

    /// The offer's terms and what follows them ("Win-back offer: free for 1 month, then
    /// $4.99/month"), or the product's price without one.
    static func offerLines(_ product: Product, offerId: String?, _ state: AppState, _ strings: UIStrings) -> [Line] {
        guard let offer = offerId.flatMap({ product.subscription?.offer(id: $0) }) else {
            return [Line(text: field(strings.price, state.displayPrice(product)), role: .price)]
        }
        let renewal = planPrice(product, .upFront, state) ?? "—"
        return [
            Line(
                text: strings.chosenOffer(offer.kind)
                    + strings.offerThen(
                        offer.terms, renewal: renewal, formatter: state.priceFormatter, storefront: state.storefront.id),
                role: .success)
        ]
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
