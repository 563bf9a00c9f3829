import CellGrid
import Foundation
import StoreCore
import StoreKitModel

/// The purchase confirmation sheet, as the App Store's: what is charged now and what follows,
/// on the billing plan chosen.
extension Sheets {
    static func confirmation(_ confirm: ConfirmPurchase, _ state: AppState, _ strings: UIStrings, _ hints: KeyHints)
        -> (String, [Line], String)
    {
        guard let product = state.catalog.product(id: confirm.productId) else {
            return (strings.confirmTitle, [], hints.confirm)
        }
        let title = product.title.text(in: state.language)
        let plan = confirm.billingPlan
        let quote = state.quote(product, quantity: confirm.quantity, plan: plan)
        let chosen = confirm.offerId.flatMap { product.subscription?.offer(id: $0) }
        // A chosen offer's first payment: nothing for a free one, or one that waits for the plan in
        // force to renew; else its price here.
        let waits =
            switch quote.basis {
            case .alreadySubscribed, .atNextRenewal: true
            default: false
            }
        let charged = chosen.map { waits ? 0 : $0.terms.firstPayment(in: state.storefront.id) } ?? quote.price
        let total = charged.map { state.priceFormatter.string($0) } ?? "—"
        var lines =
            chosen.map { chosenOfferLines($0, product: product, plan: plan, waits: waits, state, strings) }
            ?? quoteLines(
                quote, product: product, title: title, quantity: confirm.quantity, total: total, state, strings)
        lines += commitmentLines(quote, state, strings)
        lines += [Line(text: "")]
        if product.type == .consumable {
            lines.append(Line(text: field(strings.quantity, "\(confirm.quantity)  (+/-)")))
        }
        let price = plan == .upFront ? state.displayPrice(product) : planPrice(product, plan, state) ?? "—"
        lines += [
            Line(text: field(strings.price, price), role: .price),
            Line(text: field(strings.total, total), role: .price),
        ]
        let plans = state.billingPlans(product).count > 1
        if plans { lines.append(Line(text: field(strings.billingLabel, strings.planName(plan)))) }
        lines += [
            Line(text: field(strings.accountLabel, state.account.name)),
            Line(text: field(strings.storefrontLabel, "\(state.storefront.id) (\(state.storefront.currency))")),
        ]
        if !confirm.pendingIds.isEmpty {
            lines.append(Line(text: ""))
            lines.append(Line(text: strings.pendingWarning(confirm.pendingIds), role: .warning))
            if confirm.acknowledged { lines.append(Line(text: strings.payAnyway, role: .warning)) }
        }
        // As the App Store's sheet, only offers the account may take; the details sheet says why not.
        let offers = !state.eligibleOfferIds(product, plan: plan).isEmpty
        return (
            strings.confirmTitle, lines,
            hints.confirm(quantity: product.type == .consumable, offers: offers, plans: plans)
        )
    }

    /// What one payment of `plan` costs here, with its period: "59,99 €/year", "4,99 €/month".
    static func planPrice(_ product: Product, _ plan: BillingPlanType, _ state: AppState) -> String? {
        guard let amount = product.billingPrice(plan, in: state.storefront.id) else { return nil }
        let period = plan == .monthly ? CommitmentPlan.billingPeriod : product.subscription?.period
        return state.priceFormatter.string(amount, period: period, language: state.language)
    }

    /// Apple requires the monthly payment and the commitment's total to be stated before the
    /// purchase; nothing on the up-front plan.
    static func commitmentLines(_ quote: PurchaseQuote, _ state: AppState, _ strings: UIStrings) -> [Line] {
        guard quote.plan == .monthly, let monthly = quote.renewalPrice, let total = quote.commitmentPrice else {
            return []
        }
        let text = strings.commitmentTerms(
            monthly: state.priceFormatter.string(monthly), total: state.priceFormatter.string(total),
            payments: CommitmentPlan.totalBillingPeriods)
        return [Line(text: text, role: .price)]
    }

    /// A promotional or win-back offer chosen with `o`: the store decides whether the account may
    /// take it; the sheet says what it would be.
    static func chosenOfferLines(
        _ offer: SubscriptionOffer, product: Product, plan: BillingPlanType, waits: Bool, _ state: AppState,
        _ strings: UIStrings
    ) -> [Line] {
        let renewal = product.subscription == nil ? "—" : planPrice(product, plan, state) ?? "—"
        var lines = [
            Line(text: strings.confirmSubscribe(product.title.text(in: state.language)), role: .title),
            Line(
                text: strings.chosenOffer(offer.kind)
                    + strings.offerThen(
                        offer.terms, renewal: renewal, formatter: state.priceFormatter,
                        storefront: state.storefront.id), role: .success),
        ]
        if waits { lines.append(Line(text: strings.offerAtRenewal, role: .warning)) }
        return lines
    }

    /// The sheet's first words, as the App Store's purchase sheet puts them: what the account
    /// already has is not sold again, and an introductory offer says what follows it.
    static func quoteLines(
        _ quote: PurchaseQuote, product: Product, title: String, quantity: Int, total: String,
        _ state: AppState, _ strings: UIStrings
    ) -> [Line] {
        switch quote.basis {
        case .alreadyOwned:
            return [Line(text: strings.alreadyPurchased(title), role: .title)]
        case .alreadySubscribed(let until):
            let renews = state.entitlements.first { $0.productId == product.id }?.willAutoRenew ?? false
            return [
                Line(text: strings.alreadySubscribed(title), role: .title),
                Line(text: strings.subscription(title, expires: until, now: state.now, renews: renews), role: .muted),
            ]
        case .introductory(let offer):
            // A payment of the plan chosen: a month's on the monthly plan.
            let period = quote.plan == .monthly ? CommitmentPlan.billingPeriod : product.subscription?.period
            let renewal =
                quote.renewalPrice.map {
                    state.priceFormatter.string($0, period: period, language: state.language)
                } ?? "—"
            return [
                Line(text: strings.confirmSubscribe(title), role: .title),
                Line(
                    text: strings.offerThen(
                        offer, renewal: renewal, formatter: state.priceFormatter, storefront: state.storefront.id),
                    role: .success),
            ]
        case .replacesNow(let from, let refund):
            let refunded = refund > 0 ? state.priceFormatter.string(refund) : nil
            let current = Presentation.title(state, product: from)
            return [
                Line(text: strings.confirmSubscribe(title), role: .title),
                Line(text: strings.switchNow(current, refund: refunded), role: .warning),
            ]
        case .atNextRenewal(let from, let on):
            let left = UIStrings.timeLeft(max(0, Int(on.timeIntervalSince(state.now).rounded(.up))))
            let current = Presentation.title(state, product: from)
            return [
                Line(text: strings.confirmSubscribe(title), role: .title),
                Line(text: strings.switchAtRenewal(current, left: left), role: .warning),
            ]
        case .fullPrice where quote.plan == .monthly:
            // The commitment's own line says what is paid, and for how long.
            return [Line(text: strings.confirmSubscribe(title), role: .title)]
        case .fullPrice where product.type == .autoRenewable:
            // Subscribed to, as everywhere else on the sheet; its price is per period, also for
            // one who subscribed before.
            let price = planPrice(product, quote.plan, state) ?? total
            return [Line(text: strings.confirmSubscribe(title, price: price), role: .title)]
        case .fullPrice:
            return [Line(text: strings.confirmQuestion(title, quantity: quantity, price: total), role: .title)]
        }
    }
}
