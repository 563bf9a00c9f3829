import StoreCore
import StoreKitModel

/// StoreKit's own messages (a price increase to consent to, a billing issue, a win-back offer, a
/// generic message, a purchase started on the App Store, Ask Permission) and a refund request's
/// wait for the App Store's decision.
extension UIStrings {
    func refundWaiting(_ title: String) -> String {
        let (manager, approve, decline) = (
            keys.key(.manager), keys.key(.approve, .manager), keys.key(.decline, .manager)
        )
        return pick(
            "Refund request for \(title) submitted; it waits for the App Store (\(manager), then \(approve) approves, \(decline) declines).",
            "已提交“\(title)”的退款申请，等待 App Store 决定（\(manager) 后按 \(approve) 批准、\(decline) 拒绝）。")
    }
    func refundApproved(_ title: String) -> String {
        pick("The App Store approved the refund of \(title).", "App Store 已批准“\(title)”的退款。")
    }
    func refundDeclined(_ title: String) -> String {
        pick("The App Store declined the refund of \(title); the purchase stays.", "App Store 拒绝了“\(title)”的退款；购买保留。")
    }

    var priceIncreaseTitle: String { pick("Subscription Price Increase", "订阅价格上涨") }
    func priceIncreaseBody(from old: String, to new: String) -> String {
        pick("The price rises from \(old) to \(new).", "价格将从 \(old) 涨至 \(new)。")
    }
    /// `renewsIn`: how long until the renewal that charges the new price ("16 d").
    func priceIncreaseTerms(renewsIn: String?) -> String {
        let when = renewsIn.map { (en: " in \($0)", zh: "\($0)后") } ?? (en: "", zh: "")
        return pick(
            "If you agree, it renews\(when.en) at the new price. If you decline, it ends then.",
            "如果同意，将于\(when.zh)以新价格续订；如果拒绝，届时结束。")
    }
    func priceIncreaseAccepted(_ title: String) -> String {
        pick("You agreed to the new price of \(title).", "你已同意“\(title)”的新价格。")
    }
    func priceIncreaseDeclined(_ title: String) -> String {
        pick("You declined the new price of \(title); it ends at its renewal.", "你拒绝了“\(title)”的新价格；它将在续订时结束。")
    }
    var billingIssueTitle: String { pick("Billing Problem", "付款问题") }
    func billingIssueBody(_ title: String) -> String {
        pick(
            "We couldn't renew \(title): there's a problem with your payment method. Update it to keep your subscription.",
            "无法续订“\(title)”：你的付款方式有问题。请更新付款方式以保留订阅。")
    }
    func billingIssueGrace(_ left: String) -> String {
        pick("You keep access for \(left) while you update it.", "更新期间你仍可使用 \(left)。")
    }
    func billingIssueResolved(_ title: String) -> String {
        pick("Payment method updated; \(title) renews.", "付款方式已更新；“\(title)”已续订。")
    }
    /// A message closed because what it was about ended before it was answered.
    func storeMessageEnded(_ title: String, _ reason: StoreMessage.Reason) -> String {
        switch reason {
        case .billingIssue:
            pick(
                "The billing problem with \(title) is over: the store billed it, or the subscription ended.",
                "“\(title)”的付款问题已结束：商店已扣款，或订阅已结束。")
        case .priceIncreaseConsent:
            pick(
                "The price increase of \(title) no longer waits for an answer.", "“\(title)”的涨价已无需你回复。")
        case .winBackOffer, .generic:
            pick("The message about \(title) is over.", "关于“\(title)”的消息已结束。")
        }
    }
    var appStoreTitle: String { "App Store" }
    var genericMessageBody: String {
        pick("The App Store has a message for your account.", "App Store 有一条给你账户的消息。")
    }
    var genericMessageNote: String {
        pick(
            "StoreKit's generic message: an app that listens to Message.messages chooses when it shows.",
            "StoreKit 的 generic 消息：监听 Message.messages 的应用决定何时显示。")
    }
    var winBackTitle: String { pick("Win-Back Offer", "赢回优惠") }
    func winBackInvitation(_ title: String) -> String {
        pick("Come back to \(title) with a special offer.", "以特别优惠重新订阅“\(title)”。")
    }
    var promotedTitle: String { pick("Promoted In-App Purchase", "推广的 App 内购买项目") }
    func promotedStarted(_ title: String) -> String {
        pick("You started buying \(title) on the App Store.", "你已在 App Store 开始购买“\(title)”。")
    }
    var promotedQuestion: String {
        pick("Complete the purchase in the app?", "是否在应用内完成购买？")
    }
    func promotedNotBought(_ title: String) -> String {
        pick("Not bought: \(title) from the App Store was left.", "未购买：已放弃从 App Store 开始的“\(title)”。")
    }
    func unknownProduct(_ id: String) -> String {
        pick("\(id) is not a product of this catalog.", "\(id) 不是此目录中的商品。")
    }
    var askPermissionTitle: String { pick("Ask Permission", "请求许可") }
    func askPermissionQuestion(_ title: String, price: String) -> String {
        pick("Ask your parent to buy \(title) (\(price))?", "请家长购买“\(title)”（\(price)）？")
    }
    var askPermissionBody: String {
        pick(
            "Your family organiser gets the request and can approve or decline it; nothing is charged until then.",
            "家庭组织者会收到请求，可以批准或拒绝；在此之前不会扣费。")
    }
    var permissionNotAsked: String { pick("Not asked: no request was sent.", "未请求：没有发送请求。") }
}
