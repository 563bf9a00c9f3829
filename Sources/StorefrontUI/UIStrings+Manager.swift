import StoreCore
import StoreKitModel

/// The transaction manager's words: each row's status, the all-accounts view, the inspector,
/// and what each action did or why it could not.
extension UIStrings {
    /// A status as the manager's column shows it: at most 11 cells where the screen is narrow,
    /// the longer name where it is `wide`.
    func status(_ status: TransactionStatus, wide: Bool) -> String {
        switch status {
        case .queue(let state): stateName(state)
        case .renewed: renewedState
        case .refunded: pick("refunded", "已退款")
        case .revoked: pick("revoked", "已撤销")
        case .upgraded: pick("upgraded", "已升级")
        case .billingRetry: wide ? pick("in billing retry", "扣费重试中") : pick("in retry", "扣费重试")
        case .gracePeriod: wide ? pick("in grace period", "宽限期内") : pick("in grace", "宽限期")
        case .expired: pick("expired", "已过期")
        case .interrupted: pick("interrupted", "已中断")
        case .offerWaiting: wide ? pick("offer waits", "优惠待生效") : pick("offer next", "优惠待生效")
        case .refundRequested: wide ? pick("refund asked", "退款待决定") : pick("refund ask", "退款待决定")
        }
    }

    /// An account's heading in the all-accounts view: whose, its family, Ask to Buy.
    func managerAccount(_ account: Account?, family: String?, name: String, signedIn: Bool) -> String {
        var words = [signedIn ? pick("\(name) (signed in)", "\(name)（已登录）") : name]
        if let family { words.append(pick("family \(family)", "家庭 \(family)")) }
        if account?.askToBuy == true { words.append(pick("Ask to Buy", "购买请求")) }
        return words.joined(separator: " · ")
    }

    func familyPickerTitle(_ account: String) -> String { pick("Family of \(account)", "\(account) 的家庭") }
    func assignPickerTitle(_ transactionId: String) -> String {
        pick("Assign \(transactionId) to", "将 \(transactionId) 分配给")
    }
    var noFamily: String { pick("no family", "不在家庭中") }
    var currentFamily: String { pick("(now)", "（当前）") }
    func pressAgainToClearHistory(_ account: String) -> String {
        pick(
            "Press \(keys.key(.clearHistory, .manager)) again to clear \(account)'s purchase history.",
            "再按 \(keys.key(.clearHistory, .manager)) 清除 \(account) 的购买记录。")
    }

    var refundRequestWaiting: String { pick("waiting for the App Store", "等待 App Store 决定") }

    var managerTitleAllAccounts: String { pick("Transaction manager · every account", "交易管理器 · 所有账户") }
    var everyAccountShown: String {
        pick("Every account's transactions: a parent approves a child's requests here.", "显示所有账户的交易：家长可在此批准孩子的请求。")
    }
    func onlyAccountShown(_ account: String) -> String {
        pick("\(account)'s transactions only.", "仅显示 \(account) 的交易。")
    }

    /// What a manager action did, said once the store has done it.
    func managed(_ action: ManageAction, title: String, made: Transaction?) -> String {
        switch action {
        case .approveAskToBuy(let id): pick("Approved \(id) (\(title)).", "已批准 \(id)（\(title)）。")
        case .declineAskToBuy(let id):
            pick(
                "Declined \(id) on the store's side: nothing was charged; the app is sent nothing and still sees it deferred.",
                "已在商店端拒绝 \(id)：未扣费；App 收不到任何通知，仍显示为等待中。")
        case .resolveIssue(let id):
            made.map {
                pick("Resolved \(id): \($0.id) \($0.state.name).", "已解决 \(id)：\($0.id) \(stateName($0.state))。")
            }
                ?? pick("Resolved \(id).", "已解决 \(id)。")
        case .refund(let id, _, _): pick("Refunded \(id).", "已为 \(id) 退款。")
        case .expireSubscription(let id): pick("Expired \(title) (\(id)).", "“\(title)”已过期（\(id)）。")
        case .forceRenewal:
            made.map { pick("Renewed \(title): \($0.id).", "“\(title)”已续订：\($0.id)。") }
                ?? pick("\(title) did not renew.", "“\(title)”未续订。")
        case .setAutoRenew(_, let on):
            on
                ? pick("Auto-renew on for \(title).", "已开启“\(title)”的自动续订。")
                : pick("Auto-renew off for \(title).", "已关闭“\(title)”的自动续订。")
        case .priceIncrease(_, let step, _): priceIncreaseDone(step, title)
        case .stopSharing: pick("Stopped sharing \(title) with the family.", "已停止与家人共享“\(title)”。")
        case .delete(let id): pick("Deleted \(id).", "已删除 \(id)。")
        case .clearAll: clearedAll
        case .clearAccount(let account):
            pick("Cleared \(account)'s purchase history.", "已清除 \(account) 的购买记录。")
        case .setFamily(let account, let family?):
            pick("\(account) joined family \(family).", "\(account) 已加入家庭 \(family)。")
        case .setFamily(let account, nil): pick("\(account) left its family.", "\(account) 已离开家庭。")
        case .resetToDefaults: resetDone
        case .createTransaction(let creation):
            created(title, on: TransactionCreation.text(of: creation.purchaseDate), id: made?.id ?? "")
        case .requestRefund(let id, _): pick("Refund of \(id) requested.", "已为 \(id) 申请退款。")
        case .declineRefund(let id): pick("Refund of \(id) declined.", "已拒绝 \(id) 的退款。")
        case .reverseRefund(let id): pick("Refund of \(id) reversed.", "已撤销 \(id) 的退款。")
        case .serverFinish(let id): pick("\(id) finished by the app's server.", "\(id) 已由应用服务器完成。")
        case .sendMessage(let account, let reason):
            pick("Sent \(account) a \(reason.rawValue) message.", "已向 \(account) 发送 \(reason.rawValue) 消息。")
        case .purchaseIntent(let account, let productId, _):
            pick(
                "\(account) started buying \(productId) on the App Store.", "\(account) 已在 App Store 开始购买 \(productId)。"
            )
        case .assign(_, let account):
            made.map {
                pick("Assigned \(title) to \(account): \($0.id).", "已将“\(title)”分配给 \(account)：\($0.id)。")
            } ?? pick("Assigned \(title) to \(account).", "已将“\(title)”分配给 \(account)。")
        }
    }

    /// A transaction made outside the device: the app hears of it as of a purchase elsewhere.
    func created(_ title: String, on date: String, id: String) -> String {
        pick(
            "Created \(title), bought outside the device on \(date): \(id).",
            "已创建“\(title)”，于 \(date) 在设备外购买：\(id)。")
    }

    private func priceIncreaseDone(_ step: PriceIncreaseStep, _ title: String) -> String {
        switch step {
        case .request:
            pick("Price increase of \(title) asked for: the user consents or declines.", "已为“\(title)”发起涨价：待用户同意或拒绝。")
        case .consent: pick("The user consented to \(title)'s price increase.", "用户已同意“\(title)”涨价。")
        case .decline: pick("The user declined \(title)'s price increase.", "用户已拒绝“\(title)”涨价。")
        }
    }

    /// Why the store refused a manager action, in its own words.
    func manageRefused(_ action: ManageAction, reason: String) -> String {
        pick("Could not \(verb(action)): \(reason)", "无法\(verb(action))：\(reason)")
    }

    private func verb(_ action: ManageAction) -> String {
        switch action {
        case .approveAskToBuy: pick("approve", "批准")
        case .declineAskToBuy: pick("decline", "拒绝")
        case .resolveIssue: pick("resolve", "解决")
        case .refund: pick("refund", "退款")
        case .expireSubscription: pick("expire", "使其过期")
        case .forceRenewal: pick("renew", "续订")
        case .setAutoRenew: pick("change auto-renew", "更改自动续订")
        case .priceIncrease: pick("change the price increase", "更改涨价")
        case .stopSharing: pick("stop sharing", "停止共享")
        case .delete: pick("delete", "删除")
        case .clearAll: pick("clear", "清除")
        case .clearAccount: pick("clear the account's history", "清除该账户的记录")
        case .setFamily: pick("change the family", "更改家庭")
        case .resetToDefaults: pick("reset", "重置")
        case .createTransaction: pick("create the transaction", "创建交易")
        case .requestRefund: pick("request a refund", "申请退款")
        case .declineRefund: pick("decline the refund", "拒绝退款")
        case .reverseRefund: pick("reverse the refund", "撤销退款")
        case .serverFinish: pick("finish", "完成")
        case .sendMessage: pick("send the message", "发送消息")
        case .purchaseIntent: pick("start the purchase", "开始购买")
        case .assign: pick("assign", "分配")
        }
    }

    var nothingToManage: String { pick("No transaction to act on.", "没有可操作的交易。") }
    /// Auto-renew and price increases belong to a subscription the signed-in account has now.
    func notASubscription(_ id: String) -> String {
        pick(
            "\(id) is not a current subscription of this account: nothing to renew or reprice.",
            "\(id) 不是此账户当前的订阅：无可续订或涨价的内容。")
    }
    func askAParent(_ child: String, parents: [String]) -> String {
        guard let parent = parents.first else {
            return pick(
                "\(child) has no parent in a family to answer its requests: sign in as \(child).",
                "\(child) 没有可以处理请求的家长：请以 \(child) 登录。")
        }
        return pick(
            "Only a parent in \(child)'s family answers its requests: sign in as \(parent).",
            "只有 \(child) 家庭中的家长可以处理其请求：请以 \(parent) 登录。")
    }

    // The inspector
    func inspectorTitle(_ id: String) -> String { pick("Transaction \(id)", "交易 \(id)") }
    var inspectorTransaction: String { pick("Transaction (transactions --json)", "交易（transactions --json）") }
    var inspectorSubscription: String { pick("Subscription it belongs to", "所属订阅") }
    var inspectorRenewal: String { pick("Renewal info", "续订信息") }
    func inspectorNoSubscription(_ account: String, signedIn: Bool) -> String {
        signedIn
            ? pick("No current subscription: it has ended.", "没有当前订阅：已结束。")
            : pick(
                "Renewal info is read for the signed-in account: sign in as \(account).",
                "续订信息仅读取已登录账户的：请以 \(account) 登录。")
    }
    var inspectorGone: String { pick("This transaction is no longer in the store.", "商店中已没有这笔交易。") }
}
