import Foundation
import StoreCore
import StoreKitModel

/// Every sentence the screen shows, in English and Simplified Chinese. StoreKit's own error
/// messages come from `ErrorMessages`; these are the app's words around them.
public struct UIStrings: Sendable {
    public let language: Language
    var zh: Bool { language == .simplifiedChinese }

    public init(_ language: Language) {
        self.language = language
    }

    func pick(_ english: String, _ chinese: String) -> String { zh ? chinese : english }

    // Header, sections, footer
    var appName: String { "Storefront" }
    /// Names keys inside sentences; letters and Enter read the same with or without UTF-8.
    var keys: KeyHints { KeyHints(language: language, ascii: false) }
    var help: String { pick("\(keys.key(.help)) help", "\(keys.key(.help)) 帮助") }
    var products: String { pick("Products", "商品") }
    var transactions: String { pick("Transactions", "交易") }
    func transactionFilter(_ filter: TransactionPane.Filter) -> String {
        switch filter {
        case .all: pick("all", "全部")
        case .purchases: pick("purchases", "购买")
        case .failures: pick("failures", "失败")
        case .pending: pick("pending", "待处理")
        }
    }
    func noTransactionsShown(_ filter: TransactionPane.Filter) -> String {
        let none =
            filter == .pending
            ? pick("Nothing pending", "没有待处理的交易")
            : pick("No \(transactionFilter(filter))", "没有\(transactionFilter(filter))交易")
        return pick(
            "\(none) — \(keys.key(.transactionFilter)) shows the others.",
            "\(none) — 按 \(keys.key(.transactionFilter)) 显示其他。")
    }
    /// "3–8 of 20"
    func range(_ first: Int, _ last: Int, of count: Int) -> String {
        pick("\(first)–\(last) of \(count)", "\(first)–\(last) / 共 \(count)")
    }
    var transactionPaneKeys: String {
        let scroll = "\(keys.key(.transactionsDown))/\(keys.key(.transactionsUp))"
        return pick(
            "\(keys.key(.transactionFilter)) show · \(scroll) scroll",
            "\(keys.key(.transactionFilter)) 显示 · \(scroll) 滚动")
    }
    var noTransactions: String {
        pick("No transactions yet — press \(keys.key(.buy)) to buy.", "还没有交易 — 按 \(keys.key(.buy)) 购买。")
    }
    var loading: String { pick("Loading products…", "正在加载商品…") }
    var noMatches: String { pick("No product matches the filter.", "没有符合筛选的商品。") }
    var noProducts: String { pick("This storefront sells none of the catalog's products.", "此店面不销售目录中的任何商品。") }
    var nothingSelected: String { pick("Select a product first.", "请先选择商品。") }
    var filterPrompt: String { pick("filter: ", "筛选：") }
    /// Longest first: the screen shows the first that fits on one line, so it never wraps
    /// where a shorter one would not.
    func tooSmall(_ need: String) -> [String] {
        let quit = keys.key(.quit)
        return [
            pick("terminal too small (need \(need)) · \(quit) quits", "终端太小（需要 \(need)）· \(quit) 退出"),
            pick("too small: need \(need) · \(quit) quits", "太小：需要 \(need) · \(quit) 退出"),
            pick("need \(need) · \(quit) quits", "需要 \(need) · \(quit) 退出"),
        ]
    }
    func productsFailed(_ message: String) -> String {
        pick(
            "Products request failed: \(message) — \(keys.key(.retry)) retries",
            "商品请求失败：\(message) — 按 \(keys.key(.retry)) 重试")
    }
    var invalidIdsLabel: String { pick("⚠ invalid product identifiers: ", "⚠ 无效的商品 ID：") }

    // Banner and pending payments
    /// The pending payments in one line: paid ones must not be paid again; Ask to Buy requests
    /// are not charged while a parent has not answered.
    func banner(paid: Int, askToBuy: Int) -> String {
        var parts: [String] = []
        if paid > 0 {
            parts.append(
                pick(
                    "\(paid) payment\(paid == 1 ? " is" : "s are") still being confirmed — do not pay again",
                    "有 \(paid) 笔付款仍在确认中 — 请勿重复付款"))
        }
        if askToBuy > 0 {
            parts.append(
                pick(
                    "\(askToBuy) Ask to Buy request\(askToBuy == 1 ? "" : "s") waiting for a parent — not charged",
                    "\(askToBuy) 个购买请求等待家长批准 — 未扣款"))
        }
        return "⚠ " + parts.joined(separator: " · ")
    }
    func bannerUnconfirmed(_ count: Int) -> String {
        pick(
            "⚠ \(count) payment\(count == 1 ? "" : "s") may or may not have gone through — checked when the store is back; do not pay again",
            "⚠ 有 \(count) 笔付款可能已完成也可能未完成 — 商店恢复后会核实；请勿重复付款")
    }
    func paymentUnconfirmed(_ title: String) -> String {
        pick(
            "\(title): the store went away before it answered; the payment may or may not have gone through.",
            "“\(title)”：商店在回应前断开；这笔付款可能已完成也可能未完成。")
    }
    func paymentDidNotArrive(_ title: String) -> String {
        pick("\(title): the payment never reached the store; you were not charged.", "“\(title)”：付款未到达商店；未扣款。")
    }
    var heldPurchase: String { pick("unconfirmed · store away", "未确认 · 商店断开") }
    var unconfirmedReason: String {
        pick(
            "the store went away before it answered: it may or may not have gone through; checked when the store is back",
            "商店在回应前断开：可能已完成也可能未完成；商店恢复后会核实")
    }
    var bannerKey: String { pick("[\(keys.key(.pending))] pending payments", "[\(keys.key(.pending))] 待处理的付款") }
    var pendingTitle: String { pick("Pending payments", "待处理的付款") }
    var pendingNone: String { pick("No payment is pending.", "没有待处理的付款。") }
    /// What the pending payments mean for the user's money: paid ones are charged (do not pay
    /// again), Ask to Buy requests are not (until a parent approves).
    func pendingAdvice(paid: Bool, askToBuy: Bool) -> [String] {
        var advice: [String] = []
        if paid {
            advice.append(
                pick(
                    "The paid ones were charged. Do not pay again: each one will be delivered or refunded.",
                    "已付款的款项已扣除。请勿重复付款：每一笔都会完成交付或退款。"))
        }
        if askToBuy {
            advice.append(
                pick(
                    "Ask to Buy requests are not charged unless a parent approves; a decline charges nothing.",
                    "购买请求在家长批准前不会扣款；拒绝则不扣款。"))
        }
        return advice
    }
    func since(_ date: Date, now: Date) -> String {
        let seconds = max(0, Int(now.timeIntervalSince(date)))
        let text = seconds < 60 ? "\(seconds) s" : seconds < 3_600 ? "\(seconds / 60) min" : "\(seconds / 3_600) h"
        return pick("since \(text)", "已 \(text)")
    }
    func waitingFor(_ payment: PendingPayment) -> String {
        guard zh else { return payment.waitingFor }
        switch payment.reason {
        case .awaitingApproval: return "等待家长批准（购买请求）；未扣款"
        case .awaitingVerification(let attempts, _, _): return "已付款并交付；等待服务器确认收据（已尝试 \(attempts) 次）"
        case .unfinished: return "已付款；App 尚未完成，将会交付并确认"
        }
    }

    // Purchase flow
    var confirmTitle: String { pick("Confirm your in-app purchase", "确认您的 App 内购买项目") }
    func confirmQuestion(_ title: String, quantity: Int, price: String) -> String {
        pick(
            "Do you want to buy \(quantity == 1 ? "one" : "\(quantity) ×") \(title) for \(price)?",
            "是否以 \(price) 购买 \(quantity) 个“\(title)”？")
    }
    /// "Promotional offer: ", before the offer's terms.
    func chosenOffer(_ kind: SubscriptionOffer.Kind) -> String {
        switch kind {
        case .promotional: pick("Promotional offer: ", "促销优惠：")
        case .winBack: pick("Win-back offer: ", "赢回优惠：")
        case .code: pick("Offer code: ", "优惠代码：")
        }
    }
    /// A subscription whose status could not be read (a simulated subscription-status error).
    func statusUnavailable(_ title: String, _ error: StoreError) -> String {
        let code = "\(error.domain == "SKErrorDomain" ? "SKError" : "URLError") \(error.code)"
        return pick("\(title): status unavailable (\(code))", "\(title)：无法获取状态（\(code)）")
    }
    var offerAtRenewal: String {
        pick("It starts when the plan in force renews; nothing is charged now.", "将在当前方案续订时开始；现在不扣费。")
    }
    func confirmSubscribe(_ title: String) -> String {
        pick("Do you want to subscribe to \(title)?", "是否订阅“\(title)”？")
    }
    func confirmSubscribe(_ title: String, price: String) -> String {
        pick("Do you want to subscribe to \(title) for \(price)?", "是否以 \(price) 订阅“\(title)”？")
    }
    var quantity: String { pick("Quantity", "数量") }
    var price: String { pick("Price", "价格") }
    var total: String { pick("Total", "合计") }
    var accountLabel: String { pick("Account", "账户") }
    var storefrontLabel: String { pick("Storefront", "店面") }
    func pendingWarning(_ ids: [String]) -> String {
        pick(
            "A payment for this product is already pending (\(ids.joined(separator: ", "))). Paying again may charge twice.",
            "此商品已有待处理的付款（\(ids.joined(separator: ", "))）。再次付款可能会重复扣款。")
    }
    var payAnyway: String {
        let (buy, close) = (keys.key(.buy, .confirm), keys.key(.close, .confirm))
        return pick("Press \(buy) again to pay anyway, \(close) to cancel.", "再按 \(buy) 仍然付款，按 \(close) 取消。")
    }
    func purchasing(_ title: String) -> String { pick("Purchasing \(title)…", "正在购买“\(title)”…") }
    func purchaseComplete(_ title: String) -> String {
        pick("\(title): delivered, verified and finished.", "“\(title)”：已交付、验证并完成。")
    }
    /// A downgrade, a crossgrade or an offer on the plan in force: nothing charged or delivered yet.
    func startsAtRenewal(_ title: String, offer: Bool, in seconds: Int) -> String {
        let left = Self.timeLeft(max(0, seconds))
        return offer
            ? pick(
                "The offer on \(title) starts when it renews, in \(left); nothing was charged.",
                "“\(title)”的优惠将在续订时开始（\(left) 后）；未扣款。")
            : pick(
                "\(title) starts when the plan in force renews, in \(left); nothing was charged.",
                "“\(title)”将在当前方案续订时开始（\(left) 后）；未扣款。")
    }
    func waitingForApproval(_ title: String) -> String {
        pick("\(title): waiting for a parent's approval (Ask to Buy); not charged.", "“\(title)”：等待家长批准（购买请求）；未扣款。")
    }
    /// A refund the app acted on: what it took back, when it was a consumable's credit.
    func refunded(_ title: String, balance: String?, amount: Int) -> String {
        guard let balance, amount > 0 else {
            return pick("\(title) was refunded; it is withdrawn.", "“\(title)”已退款，已收回。")
        }
        return pick(
            "\(title) was refunded; \(amount) \(balance) taken back.", "“\(title)”已退款，已扣回 \(amount) \(balance)。")
    }
    func reinstated(_ title: String, balance: String?, amount: Int) -> String {
        guard let balance, amount > 0 else {
            return pick("The refund of \(title) was reversed; it is yours again.", "“\(title)”的退款已撤销，已恢复。")
        }
        return pick(
            "The refund of \(title) was reversed; \(amount) \(balance) given back.",
            "“\(title)”的退款已撤销，已退还 \(amount) \(balance)。")
    }
    func unshared(_ title: String) -> String {
        pick("\(title) is no longer shared with you by your family; it is withdrawn.", "家人不再与你共享“\(title)”，已收回。")
    }
    var noLongerShared: String { pick("no longer shared by the family", "家人已停止共享") }
    /// An organization's or group's purchase that was assigned to the account, taken back.
    func unassigned(_ title: String) -> String {
        pick("\(title) is no longer assigned to you by its purchaser; it is withdrawn.", "购买者已不再向你分配“\(title)”，已收回。")
    }
    var noLongerAssigned: String { pick("no longer assigned by the purchaser", "购买者已收回分配") }
    var familySharingLabel: String { pick("Family Sharing", "家人共享") }
    var familySharingOn: String { pick("on: a purchase is shared with the buyer's family", "开启：购买的项目会与购买者的家人共享") }
    func cancelled(_ title: String) -> String { pick("Purchase of \(title) cancelled.", "已取消购买“\(title)”。") }
    func finishedFlag(_ finished: Bool, by finisher: Finisher? = nil) -> String {
        guard finished else { return pick("unfinished", "未完成") }
        return finisher == .server ? pick("finished by the app's server", "由应用服务器完成") : pick("finished", "已完成")
    }
    func failureContextShort(_ context: FailureContext) -> String {
        switch context {
        case .interrupted:
            pick("interrupted: \(keys.key(.resolve, .manager)) resolves", "已中断：按 \(keys.key(.resolve, .manager)) 解决")
        case .declined: pick("store: declined by a parent; the app still waits", "商店：家长已拒绝；App 仍在等待")
        case .askToBuyExpired: pick("store: request expired; the app still waits", "商店：请求已过期；App 仍在等待")
        }
    }
    /// A failed transaction's row, where the store knows more than the error code.
    func failureContext(_ context: FailureContext) -> String {
        switch context {
        case .interrupted:
            pick(
                "interrupted · needs the user's action outside the app; resolve it in the manager with \(keys.key(.resolve, .manager))",
                "已中断 · 需要用户在 App 外操作；在交易管理器中按 \(keys.key(.resolve, .manager)) 解决")
        case .declined: pick("declined by a parent · not charged", "家长已拒绝 · 未扣款")
        case .askToBuyExpired:
            pick("Ask to Buy request expired unanswered · not charged", "购买请求无人回复，已过期 · 未扣款")
        }
    }
    var interruptedTitle: String { pick("Purchase interrupted", "购买已中断") }
    var interruptedBody: String {
        pick(
            "This purchase needs the user's action outside the app (for example, agreeing to new terms) before it can complete.",
            "此购买需要用户先在 App 外完成操作（例如同意新条款）才能完成。")
    }
    func interruptedAppSees(_ code: String) -> String {
        pick("The app sees it fail for now: \(code).", "App 目前看到它失败：\(code)。")
    }
    var interruptedHowToResolve: String {
        let (manager, resolve) = (keys.key(.manager), keys.key(.resolve, .manager))
        return pick(
            "To resolve it as the user would: \(manager) opens the transaction manager, \(resolve) resolves it, and it completes as a new purchase.",
            "如用户操作般解决：按 \(manager) 打开交易管理器，按 \(resolve) 解决，它将作为新的购买完成。")
    }
    func failedEarlier(_ title: String, _ error: StoreError) -> String {
        pick("\(title) failed: \(error.text(in: language).message)", "“\(title)”失败：\(error.text(in: language).message)")
    }
    func notVerifiedYet(_ reason: String) -> String {
        pick("Not verified yet (\(reason)); the payment is kept and retried.", "尚未验证（\(reason)）；付款已保留，将重试。")
    }
    func deliveredAgain(_ title: String) -> String {
        pick(
            "\(title) came back unfinished; it was delivered before, so nothing is credited twice.",
            "“\(title)”以未完成状态再次出现；它已交付过，因此不会重复计入。")
    }
    func deliveredElsewhere(_ title: String) -> String {
        pick(
            "\(title) was delivered on another device of this account; it is not credited here twice.",
            "\(title) 已在此账户的另一台设备上交付；此处不会重复计入。")
    }
    func orderMatched(_ orderId: String) -> String {
        pick(
            "applicationUsername came back empty; matched order \(orderId) by account and product.",
            "applicationUsername 为空；已按账户和商品匹配订单 \(orderId)。")
    }
    /// The words that matter first: a narrow screen cuts the detail, not the news.
    func storeUnreachable(_ problem: String) -> String {
        pick(
            "⚠ store unreachable — retrying; payments in flight are kept · \(problem)",
            "⚠ 无法连接商店 — 正在重试；进行中的付款会被保留 · \(problem)")
    }
    var restoring: String { pick("Restoring purchases…", "正在恢复购买…") }
    /// The files' name first: a narrow status line cuts the directory, not what to look for.
    func screenSaved(_ path: String) -> String {
        let name = (path as NSString).lastPathComponent
        let directory = (path as NSString).deletingLastPathComponent
        return pick(
            "Screen saved: \(name).{txt,ansi,svg} in \(directory)", "屏幕已保存：\(name).{txt,ansi,svg}，位于 \(directory)")
    }
    func screenNotSaved(_ reason: String) -> String { pick("Screen not saved: \(reason)", "屏幕未保存：\(reason)") }
    func switchedStorefront(_ storefront: Storefront) -> String {
        pick(
            "Storefront \(storefront.id): prices in \(storefront.currency).",
            "店面 \(storefront.id)：价格以 \(storefront.currency) 显示。")
    }
    func switchedAccount(_ name: String) -> String { pick("Signed in as \(name).", "已登录为 \(name)。") }

    // Progress words in the transaction list
    func progress(_ progress: PurchaseProgress?, state: TransactionState) -> String {
        switch progress {
        case .purchasing?: return pick("purchasing", "购买中")
        case .deferred?: return pick("waiting for a parent · not charged", "等待家长批准 · 未扣款")
        case .delivered?: return pick("delivered · verifying", "已交付 · 验证中")
        case .verifying?: return pick("delivering", "交付中")
        case .verified?: return pick("verified ✓", "已验证 ✓")
        case .finished?: return pick("verified ✓ finished", "已验证 ✓ 已完成")
        case .failed(let error)?:
            return "\(error.domain == "SKErrorDomain" ? "SKError" : "URLError") \(error.code) \(error.name)"
        case .unverified?: return pick("delivered · not verified yet", "已交付 · 尚未验证")
        case .rejected?: return pick("verification rejected", "验证被拒绝")
        case .revoked?: return pick("refunded", "已退款")
        case .crashed?: return pick("app crashed delivering · unfinished", "交付时应用崩溃 · 未完成")
        case .upgraded(let refunded)?:
            return refunded ? pick("upgraded · unused part refunded", "已升级 · 未用部分已退款") : pick("upgraded", "已升级")
        case nil: return ""
        }
    }

    /// A subscription's automatic renewal, which StoreKit reports as `purchased`.
    var renewedState: String { pick("renewed", "已续订") }

    func stateName(_ state: TransactionState) -> String {
        guard zh else { return state.name }
        switch state {
        case .purchasing: return "购买中"
        case .purchased: return "已购买"
        case .failed: return "失败"
        case .restored: return "已恢复"
        case .deferred: return "已延迟"
        }
    }

    // Wallet
    var wallet: String { pick("Wallet", "钱包") }
    var owned: String { pick("Owned", "已拥有") }
    func itemCount(_ count: Int) -> String { pick("\(count) items", "\(count) 项") }
    var subscribed: String { pick("Subscribed", "已订阅") }
    var nothingOwned: String { pick("nothing yet", "暂无") }
    var chineseNeedsUTF8: String {
        pick(
            "Chinese needs a UTF-8 locale (for example LANG=C.UTF-8); this terminal shows ASCII only.",
            "中文需要 UTF-8 区域设置（例如 LANG=C.UTF-8）。")
    }
    func subscription(_ title: String, expires: Date, now: Date, renews: Bool) -> String {
        let left = Int(expires.timeIntervalSince(now).rounded(.up))
        if left <= 0 { return pick("\(title) expired", "\(title) 已过期") }
        let text = Self.timeLeft(left)
        return renews
            ? pick("\(title) renews in \(text)", "\(title) \(text) 后续订")
            : pick("\(title) ends in \(text)", "\(title) \(text) 后到期")
    }

    /// A renewal that could not bill: in the grace period (access kept) or in billing retry (lost).
    func billingIssue(_ title: String, graceUntil: Date?, now: Date) -> String {
        let left = graceUntil.map { Int($0.timeIntervalSince(now).rounded(.up)) } ?? 0
        guard left > 0 else { return pick("\(title) in billing retry (no access)", "\(title) 扣费重试中（无权限）") }
        return pick("\(title) in grace period, \(Self.timeLeft(left)) left", "\(title) 宽限期内，剩余 \(Self.timeLeft(left))")
    }

    /// "45 s", "12 min", "5 h", "16 d".
    public static func timeLeft(_ seconds: Int) -> String {
        seconds < 120
            ? "\(seconds) s"
            : seconds < 7_200
                ? "\(seconds / 60) min" : seconds < 172_800 ? "\(seconds / 3_600) h" : "\(seconds / 86_400) d"
    }

    /// "Intro offer: free for 1 week", "$1.99/month for 3 months", "$9.99 for 6 months".
    func introOffer(_ offer: IntroOffer, formatter: PriceFormatter, storefront: String) -> String {
        pick("Intro offer: ", "首次优惠：") + offerTerms(offer, formatter: formatter, storefront: storefront)
    }

    /// What the purchase sheet says of an offer the account gets: "free for 1 week, then $4.99/month".
    func offerThen(_ offer: IntroOffer, renewal: String, formatter: PriceFormatter, storefront: String) -> String {
        let terms = offerTerms(offer, formatter: formatter, storefront: storefront)
        return pick("\(terms.prefix(1).uppercased() + terms.dropFirst()), then \(renewal)", "\(terms)，之后 \(renewal)")
    }

    func alreadyPurchased(_ title: String) -> String {
        pick("You've already purchased \(title). It will be restored for free.", "你已购买“\(title)”，将免费恢复。")
    }

    /// An upgrade, or a crossgrade of the same duration: the old plan's unused part is refunded.
    func switchNow(_ from: String, refund: String?) -> String {
        guard let refund else {
            return pick("It starts now, replacing \(from), which ends today.", "立即生效并取代“\(from)”，后者今天结束。")
        }
        return pick(
            "It starts now, replacing \(from), which ends today; its unused part, \(refund), is refunded.",
            "立即生效并取代“\(from)”，后者今天结束；其未用部分 \(refund) 将退款。")
    }

    /// A downgrade, or a crossgrade of another duration.
    func switchAtRenewal(_ from: String, left: String) -> String {
        pick(
            "It starts when \(from) renews, in \(left). Nothing is charged now.",
            "将在“\(from)”续订时生效（\(left)后），现在不扣费。")
    }

    // Manage subscriptions and refund requests
    var subscriptionsTitle: String { pick("Subscriptions", "订阅") }
    var noSubscriptions: String { pick("No subscriptions yet.", "还没有订阅。") }
    func renewsTo(_ title: String) -> String { pick("then \(title)", "之后为“\(title)”") }
    /// An offer taken on the plan in force, which the next renewal takes.
    func offerAtRenewal(_ type: OfferType) -> String {
        switch type {
        case .introductory: pick("introductory offer from the next renewal", "下次续订起享首次优惠")
        case .promotional: pick("promotional offer from the next renewal", "下次续订起享促销优惠")
        case .code: pick("offer code's offer from the next renewal", "下次续订起享优惠代码的优惠")
        case .winBack: pick("win-back offer from the next renewal", "下次续订起享赢回优惠")
        }
    }
    /// A price increase and where it stands; `price` is the new renewal price, formatted.
    /// `renews`: auto-renew is on; one left unanswered with it off was declined, and the
    /// subscription ends at its renewal.
    func priceIncrease(_ status: PriceIncreaseStatus, to price: String?, renews: Bool = true) -> String {
        let to = price.map { " to \($0)" } ?? ""
        let zhTo = price.map { "至 \($0)" } ?? ""
        switch (status, renews) {
        case (.pending, true):
            return pick("price increase\(to) waiting for consent", price == nil ? "涨价待同意" : "涨价\(zhTo)，待同意")
        case (.pending, false):
            return pick("price increase\(to) declined: it ends at its renewal", "已拒绝涨价\(zhTo)：将在续订时结束")
        default:
            return pick("price increase\(to) agreed", "已同意涨价\(zhTo)")
        }
    }
    var renewalLabel: String { pick("Renewal", "续订") }
    func expirationReason(_ reason: ExpirationReason) -> String {
        switch reason {
        case .autoRenewDisabled: pick("expired: auto-renew was turned off", "已过期：自动续订已关闭")
        case .billingError: pick("expired: billing retry ended", "已过期：扣费重试已结束")
        case .didNotConsentToPriceIncrease: pick("expired: the price increase was declined", "已过期：涨价被拒绝")
        case .productUnavailable: pick("expired: no longer for sale", "已过期：不再销售")
        case .unknown: pick("expired", "已过期")
        }
    }
    func cancelledSubscription(_ title: String) -> String {
        pick("\(title) cancelled: it runs to the end of its period.", "已取消“\(title)”：将持续到本期结束。")
    }
    func keptSubscription(_ title: String) -> String {
        pick("\(title) kept: it will renew.", "已保留“\(title)”：将继续续订。")
    }
    var cancelTitle: String { pick("Cancel Subscription", "取消订阅") }
    func cancelQuestion(_ title: String) -> String {
        pick("Cancel \(title)? It runs to the end of its period.", "取消“\(title)”？订阅将持续到本期结束。")
    }
    var retentionLoading: String { pick("Asking the App Store for the developer's message…", "正在获取开发者的消息…") }
    func retentionImage(_ altText: String) -> String { pick("[image: \(altText)]", "[图片：\(altText)]") }
    func retentionSwitch(_ title: String) -> String { pick("Switch plan instead: \(title)", "改为切换方案：\(title)") }
    func retentionOffer(_ offer: String) -> String { pick("Offer: \(offer)", "优惠：\(offer)") }
    func resumed(_ title: String) -> String { pick("\(title) will renew again.", "“\(title)”将再次续订。") }
    var redeemTitle: String { pick("Redeem Code", "兑换代码") }
    var redeemPrompt: String { pick("Type the offer code:", "输入优惠代码：") }
    /// SKError 11 speaks of promotional offers' identifiers; a typed code is told as a code.
    func unknownCode(_ code: String) -> String {
        pick(
            "The offer code \(code) isn't valid: no product of this app has it (codes are matched exactly, as typed).",
            "优惠代码 \(code) 无效：本应用没有商品使用此代码（代码须与输入完全一致）。")
    }
    func codeOfferTitle(_ code: String, _ title: String) -> String {
        pick("Code \(code): \(title)", "代码 \(code)：\(title)")
    }
    var codeOfferWhen: String {
        pick(
            "Starts now, or at the next renewal if you subscribe already; whether the code is still good is the App Store's to say.",
            "立即生效；若已订阅则在下次续期时生效。代码是否仍有效由 App Store 判定。")
    }
    /// A consumable's, a non-consumable's or a non-renewing subscription's offer code: one purchase at its price.
    func oneTimeOfferTerms(_ price: String, regular: String) -> String {
        pick("One purchase for \(price) (instead of \(regular))", "单次购买 \(price)（原价 \(regular)）")
    }
    var oneTimeOfferWhen: String {
        pick(
            "Redeemed now as a purchase; whether the code is still good, and for this account, is the App Store's to say.",
            "立即作为一次购买兑换。代码是否仍有效、是否适用于此账户由 App Store 判定。")
    }
    func redeeming(_ code: String, _ title: String) -> String {
        pick("Redeeming \(code) for \(title)…", "正在为“\(title)”兑换 \(code)…")
    }
    var refundTitle: String { pick("Request a Refund", "申请退款") }
    func refundQuestion(_ title: String, price: String) -> String {
        pick("Request a refund of \(title) (\(price))?", "为“\(title)”（\(price)）申请退款？")
    }
    var refundReasonPrompt: String { pick("Choose a reason:", "选择原因：") }
    /// The reasons of Apple's refund request sheet, in `RefundRequestReason.allCases` order.
    func refundReason(_ reason: RefundRequestReason) -> String {
        switch reason {
        case .unintendedPurchase: pick("I didn't mean to buy this", "我并非有意购买")
        case .fulfillmentIssue: pick("I didn't receive it, or it doesn't work", "未收到购买的项目，或无法正常使用")
        case .unsatisfiedWithPurchase: pick("It isn't what I expected", "与我的预期不符")
        case .legal: pick("A legal reason", "法律原因")
        case .other: pick("Other", "其他")
        }
    }
    func refundSubmitted(_ title: String) -> String {
        pick(
            "Refund request for \(title) submitted; the test environment approves it at once.",
            "已提交“\(title)”的退款申请；测试环境会立即批准。")
    }
    var refundCancelled: String { pick("Refund request cancelled.", "已取消退款申请。") }
    var nothingToRefund: String { pick("Nothing of the selected product to refund.", "所选商品没有可退款的购买。") }

    func alreadySubscribed(_ title: String) -> String {
        pick("You're currently subscribed to \(title). Nothing will be charged.", "你目前已订阅“\(title)”，不会扣费。")
    }

    /// "free for 1 week", "$1.99/month for 3 months", "$9.99 for 6 months".
    func offerTerms(_ offer: IntroOffer, formatter: PriceFormatter, storefront: String) -> String {
        let total = duration(offer.period.value * offer.periods, offer.period.unit)
        let price = offer.prices[storefront]
        let body: String
        switch offer.paymentMode {
        case .freeTrial:
            body = pick("free for \(total)", "免费试用 \(total)")
        case .payAsYouGo:
            let each = price.map { formatter.string($0, period: offer.period, language: language) } ?? "—"
            body = pick("\(each) for \(total)", "\(total)内 \(each)")
        case .payUpFront:
            let once = price.map(formatter.string) ?? "—"
            body = pick("\(once) for \(total)", "\(total) \(once)")
        case .oneTime:
            body = price.map(formatter.string) ?? "—"
        }
        return body
    }

    /// "1 week", "3 months", "1周", "3个月".
    func duration(_ value: Int, _ unit: SubscriptionPeriod.Unit) -> String {
        let english =
            switch unit {
            case .day: "day"
            case .week: "week"
            case .month: "month"
            case .year: "year"
            }
        let chinese =
            switch unit {
            case .day: "天"
            case .week: "周"
            case .month: "个月"
            case .year: "年"
            }
        return pick("\(value) \(english)\(value == 1 ? "" : "s")", "\(value)\(chinese)")
    }

    // Sheets
    var detailsTitle: String { pick("Product details", "商品详情") }
    var typeLabel: String { pick("Type", "类型") }
    var productIdLabel: String { pick("Product ID", "商品 ID") }
    var groupLabel: String { pick("Group", "订阅群组") }
    /// What failed, named for the call: a refund request's error is not a purchase's.
    func errorTitle(_ call: SimulatedAPI) -> String {
        switch call {
        case .purchase, .verification: pick("Purchase failed", "购买失败")
        case .manageSubscriptions: pick("Manage Subscriptions failed", "无法打开订阅管理")
        case .refundRequest: pick("Refund request failed", "退款请求失败")
        case .offerCodeRedeem: pick("Offer code redemption failed", "无法兑换优惠代码")
        case .loadProducts: pick("Loading products failed", "无法载入商品")
        case .appStoreSync: pick("Restore failed", "恢复购买失败")
        case .subscriptionStatus: pick("Subscription status failed", "无法读取订阅状态")
        case .appTransaction: pick("App transaction failed", "无法读取应用交易")
        }
    }
    var crashTitle: String { pick("The app crashed", "应用崩溃了") }
    func crashed(_ title: String, transactionId: String, crashes: Int) -> String {
        pick(
            "Delivering \(title) (transaction \(transactionId)) crashed the app: crash \(crashes).",
            "交付“\(title)”（交易 \(transactionId)）时应用崩溃：第 \(crashes) 次崩溃。")
    }
    var crashLoop: String {
        pick(
            "The transaction was never finished, so the payment queue offers it again at every launch, and the app crashes again: a crash loop.",
            "这笔交易从未完成，因此支付队列在每次启动时都会再次提供它，应用又会崩溃：崩溃循环。")
    }
    var crashWayOut: String {
        let (relaunch, fix, manager) = (keys.key(.relaunch, .crash), keys.key(.fixApp, .crash), keys.key(.manager))
        return pick(
            "\(relaunch) launches it again as it is; \(fix) installs the fixed build, which delivers and finishes the transaction; \(manager) opens the transaction manager.",
            "\(relaunch) 按原样再次启动；\(fix) 安装修复后的版本，它会交付并完成这笔交易；\(manager) 打开交易管理器。")
    }
    var appFixed: String { pick("Fixed build installed: delivering no longer crashes the app.", "已安装修复版本：交付不再使应用崩溃。") }
    var verificationTitle: String { pick("Receipt verification failed", "收据验证失败") }
    var failureTitle: String { pick("Something went wrong", "出错了") }
    var developerLabel: String { pick("For developers: ", "开发者提示：") }
    var verificationAdvice: String {
        pick(
            "The server refused the receipt; the transaction was finished without a second delivery.",
            "服务器拒绝了收据；该交易已完成，不会再次交付。")
    }
    var helpTitle: String { pick("Keys", "按键") }

    /// Where a group of keys works, as the help heads it.
    func helpSection(_ scope: KeyBinding.Scope) -> String {
        switch scope {
        case .main: pick("Main screen", "主屏幕")
        case .everywhere: pick("Everywhere", "任意位置")
        case .confirm: pick("Purchase sheet", "购买面板")
        case .subscriptions:
            pick("Manage subscriptions (\(keys.key(.subscriptions)))", "管理订阅（\(keys.key(.subscriptions))）")
        case .controls: pick("Test controls (\(keys.key(.controls)))", "测试控制（\(keys.key(.controls))）")
        case .manager: pick("Transaction manager (\(keys.key(.manager)))", "交易管理器（\(keys.key(.manager))）")
        case .question: pick("Questions", "问题")
        case .message: pick("Messages", "消息")
        case .crash: pick("The app crashed", "应用崩溃了")
        case .storeMessage: pick("App Store messages", "App Store 消息")
        }
    }
    var restoreTitle: String { pick("Restore purchases", "恢复购买") }
    func restored(_ titles: [String]) -> String { pick("Restored: ", "已恢复：") + titles.joined(separator: ", ") }
    var nothingToRestore: String {
        pick(
            "Nothing to restore. Only non-consumables and auto-renewable subscriptions are restored; this account owns none. Consumables and non-renewing subscriptions are never restored.",
            "没有可恢复的项目。只有非消耗型项目和自动续期订阅可以恢复；此账户没有这些项目。消耗型项目和非续期订阅不会被恢复。")
    }
    func restoreFailed(_ error: StoreError) -> String {
        pick("Restore failed: ", "恢复失败：") + error.text(in: language).message
    }
    var quitTitle: String { pick("Quit while a purchase is in flight?", "购买仍在进行，确定退出？") }
    var quitBody: String {
        pick(
            "The payment is safe: it will be delivered at the next launch. y quits, n stays.",
            "付款是安全的：下次启动时会完成交付。y 退出，n 留下。")
    }
    var storefrontTitle: String { pick("Storefront", "店面") }
    var accountTitle: String { pick("Account", "账户") }
    func orderIdFlag(_ orderId: String) -> String { pick("order \(orderId)", "订单 \(orderId)") }
    func appTransactionTitle(_ account: String) -> String {
        pick("\(account)'s purchase of the app (AppTransaction)", "\(account) 的应用购买记录（AppTransaction）")
    }
    func appFirstGot(_ date: String, original: String, now: String) -> String {
        pick(
            "First got the app \(date), version \(original); running version \(now)",
            "\(date) 首次获得应用，版本 \(original)；当前版本 \(now)")
    }
    var readingAppTransaction: String { pick("Reading…", "正在读取…") }
    func appPreordered(_ date: String) -> String { pick("Pre-ordered \(date)", "\(date) 预订") }
    func appTransactionUnavailable(_ error: StoreError) -> String {
        pick(
            "AppTransaction.shared failed: \(error.domain) \(error.code) \(error.name) (a simulated error)",
            "AppTransaction.shared 失败：\(error.domain) \(error.code) \(error.name)（模拟错误）")
    }
    var controlsTitle: String { pick("Test controls", "测试控制") }
    var managerTitle: String { pick("Transaction manager", "交易管理器") }
    var clearedAll: String { pick("Every transaction deleted.", "已删除所有交易。") }
    var resetDone: String { pick("Store and test controls reset to the catalog's defaults.", "商店和测试控制已重置为目录默认值。") }
    var pressAgainToClear: String {
        pick(
            "Press \(keys.key(.clearAll, .manager)) again to delete every transaction.",
            "再按 \(keys.key(.clearAll, .manager)) 删除所有交易。")
    }
    /// The second press a refund or a delete in the manager needs.
    /// `reversing`: the refund key on a refunded transaction, which reverses the refund.
    func pressAgain(_ command: Command, transactionId: String, reversing: Bool = false) -> String {
        let key = keys.key(command, .manager)
        if reversing {
            return pick(
                "Press \(key) again to reverse the refund of \(transactionId).", "再按 \(key) 撤销 \(transactionId) 的退款。")
        }
        return command == .refund
            ? pick("Press \(key) again to refund \(transactionId).", "再按 \(key) 为 \(transactionId) 退款。")
            : pick(
                "Press \(key) again to delete \(transactionId); it cannot be undone.",
                "再按 \(key) 删除 \(transactionId)；无法撤销。")
    }
    /// The account picker's flags: an account's own Ask to Buy and payments.
    var controlAskToBuy: String { pick("Ask to Buy", "购买请求") }
    var controlPaymentsAllowed: String { pick("Payments allowed", "允许付款") }
    var none: String { pick("none", "无") }
    func productOutcomesSet(_ count: Int) -> String {
        pick(count == 1 ? "1 product always fails" : "\(count) products always fail", "\(count) 个商品总是失败")
    }
    /// The main screen's line while test controls are changed.
    func controlsInForce(_ changed: [String]) -> String {
        pick("controls: \(changed.joined(separator: " · "))", "测试控制：\(changed.joined(separator: " · "))")
    }
    /// The way back to the defaults, at the right of that line.
    var controlsResetKeys: String {
        let (open, reset) = (keys.key(.controls), keys.key(.reset, .controls))
        return pick("[\(open), \(reset)] reset", "[\(open), \(reset)] 重置")
    }
    func onOff(_ on: Bool) -> String { on ? pick("on", "开") : pick("off", "关") }
    /// Words given in both languages, as the test controls' table gives its labels.
    func words(_ words: ControlWords) -> String { pick(words.en, words.zh) }
    func outcome(_ outcome: PaymentOutcome) -> String {
        switch outcome {
        case .success: pick("succeed", "成功")
        case .cancel: pick("cancel", "取消")
        case .deferred: pick("defer (Ask to Buy)", "延迟（购买请求）")
        case .interrupted: pick("interrupt", "中断")
        case .fail(let code): "SKError \(code.rawValue) \(code.name)"
        case .network(let code): "URLError \(code.rawValue) \(code.name)"
        }
    }
    /// A rate by its token (what `manage set time-rate` takes) and what it does, the
    /// deprecated ones, where a fixed time is one day, saying so.
    func timeRate(_ rate: TimeRate) -> String {
        if rate == .realTime { return pick("real time", "实时") }
        let (english, chinese) = Self.timeRateMeaning(rate)
        return pick("\(rate.token): \(english)", "\(rate.token)：\(chinese)")
    }

    static func timeRateMeaning(_ rate: TimeRate) -> (String, String) {
        switch rate {
        case .realTime: ("real time", "实时")
        case .monthlyRenewalEveryHour: ("a month lasts 1 h", "一个月为 1 小时")
        case .monthlyRenewalEvery30Minutes: ("a month lasts 30 min", "一个月为 30 分钟")
        case .monthlyRenewalEvery15Minutes: ("a month lasts 15 min", "一个月为 15 分钟")
        case .monthlyRenewalEvery5Minutes: ("a month lasts 5 min", "一个月为 5 分钟")
        case .monthlyRenewalEvery30Seconds: ("a month lasts 30 s", "一个月为 30 秒")
        case .oneRenewalEvery15Minutes: ("every period lasts 15 min", "每个周期 15 分钟")
        case .oneRenewalEvery5Minutes: ("every period lasts 5 min", "每个周期 5 分钟")
        case .oneRenewalEvery1Minute: ("every period lasts 1 min", "每个周期 1 分钟")
        case .oneRenewalEvery30Seconds: ("every period lasts 30 s", "每个周期 30 秒")
        case .oneRenewalEvery10Seconds: ("every period lasts 10 s", "每个周期 10 秒")
        case .oneRenewalEvery2Seconds: ("every period lasts 2 s", "每个周期 2 秒")
        case .oneHourIsOneDay: ("1 h is a day (deprecated)", "1 小时为一天（已弃用）")
        case .thirtyMinutesIsOneDay: ("30 min is a day (deprecated)", "30 分钟为一天（已弃用）")
        case .fiveMinutesIsOneDay: ("5 min is a day (deprecated)", "5 分钟为一天（已弃用）")
        case .oneMinuteIsOneDay: ("1 min is a day (deprecated)", "1 分钟为一天（已弃用）")
        case .thirtySecondsIsOneDay: ("30 s is a day (deprecated)", "30 秒为一天（已弃用）")
        case .oneSecondIsOneDay: ("1 s is a day (deprecated)", "1 秒为一天（已弃用）")
        }
    }
    func verification(_ failure: VerificationFailure?) -> String {
        switch failure {
        case nil: pick("succeeds", "成功")
        case .unreachable?: pick("server unreachable", "服务器无法访问")
        case .status(let status)?: "\(status.rawValue) \(status.meaning)"
        }
    }
}
