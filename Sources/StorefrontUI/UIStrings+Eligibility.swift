import StoreCore
import StoreKitModel

/// Why the sheet does not offer an offer, in the UI's language.
extension UIStrings {
    /// "Promotional offer halfprice: this account may take it (o on the purchase sheet)".
    func eligible(_ offer: SubscriptionOffer) -> String {
        let kind = String(chosenOffer(offer.kind).dropLast(zh ? 1 : 2))
        return pick(
            "\(kind) \(offer.id): available to this account (o on the purchase sheet)",
            "\(kind) \(offer.id)：此账户可用（在购买确认中按 o）")
    }

    /// "Win-back offer comeback: not for this account (the account has never subscribed in this group)".
    func notEligible(_ offer: SubscriptionOffer, _ reason: IneligibleReason) -> String {
        let kind = String(chosenOffer(offer.kind).dropLast(zh ? 1 : 2))
        return pick(
            "\(kind) \(offer.id): not for this account (\(reason.message))",
            "\(kind) \(offer.id)：此账户不符合条件（\(chineseReason(reason))）")
    }

    func chineseReason(_ reason: IneligibleReason) -> String {
        switch reason {
        case .introOfferUsed: "此账户曾在该群组订阅，首次优惠仅限新订阅者"
        case .neverSubscribed: "此账户从未在该群组订阅"
        case .subscribedNow: "该群组的订阅仍有效，赢回优惠仅限已过期的订阅者"
        case .billingRetry: "订阅处于账单重试期"
        case .paidTooShort(let months): "需在该群组付费订阅满 \(months) 个月"
        case .lapsedTooRecently(let months): "订阅结束不足 \(months) 个月"
        case .lapsedTooLongAgo(let months): "订阅结束已超过 \(months) 个月"
        case .winBackTooRecent(let months): "此账户 \(months) 个月内已使用过该群组的赢回优惠"
        case .notForCustomer: "此优惠代码不适用于此类订阅者"
        case .codeRedeemed: "此优惠代码已被兑换"
        case .codeLimitReached(let limit): "此优惠代码已达 \(limit) 次兑换上限"
        case .notForSpender: "此优惠代码不适用于此类购买者"
        case .offerRedeemed: "此账户已兑换过该优惠的代码，每位顾客每项优惠限兑一次"
        }
    }
}
