import CellGrid

/// What a key does; the same table drives dispatch and the help overlay, so they cannot drift.
public enum Command: Sendable, Hashable, CaseIterable {
    case up, down, top, bottom, pageUp, pageDown
    case buy, details, filter, restore, pending, storefront, account, language, controls, manager, subscriptions,
        requestRefund, redeemCode, chooseOffer
    /// The purchase sheet: pay up front, or monthly with a 12-month commitment.
    case billingPlan
    case transactionFilter, transactionsUp, transactionsDown
    /// The transaction manager: one transaction's every field; every account's transactions.
    case inspect, allAccounts
    case help, close, quit, retry, screenshot
    case increase, decrease, toggle
    case approve, decline, resolve, refund, expire, renew, delete, clearAll, reset, autoRenew, priceIncrease,
        stopSharing
    /// The transaction manager's account tools: one account's purchase history cleared, the
    /// account moved to another family.
    case clearHistory, moveFamily
    /// The transaction manager: a purchase an organization or group assigns to a member.
    case assign
    /// The transaction manager: a transaction made outside the device, at a past date.
    case createTransaction
    /// The test controls: erase everything the store holds (a second press confirms).
    case resetStore
    /// Answers to a question (quit while a payment is in flight?) and the key that closes a message.
    case yes, no, dismiss
    /// The crash screen: launch the app again, or install the fixed build first.
    case relaunch, fixApp
}

public struct KeyBinding: Sendable {
    public let keys: [Key]
    public let command: Command
    public let help: (en: String, zh: String)
    /// Where the binding applies.
    public let scope: Scope
    /// The word or two a hint shows after the key ("buy"); the help text when nil.
    public let short: (en: String, zh: String)?

    init(
        keys: [Key], command: Command, help: (en: String, zh: String), scope: Scope,
        short: (en: String, zh: String)? = nil
    ) {
        self.keys = keys
        self.command = command
        self.help = help
        self.scope = scope
        self.short = short
    }

    public enum Scope: Sendable, Hashable {
        /// The main screen and lists inside sheets.
        case everywhere
        case main
        case controls
        case manager
        /// The manage-subscriptions sheet.
        case subscriptions
        case confirm
        /// A yes/no question (quit with a payment in flight).
        case question
        /// A message sheet (an error, help, pending payments, a restore's result).
        case message
        /// The screen of an app that crashed delivering a transaction.
        case crash
        /// StoreKit's own messages over the app: a price increase, a billing issue, Ask Permission.
        case storeMessage
    }
}

public enum KeyBindings {
    public static let table: [KeyBinding] = [
        KeyBinding(keys: [.up, .character("k")], command: .up, help: ("move up", "上移"), scope: .everywhere),
        KeyBinding(keys: [.down, .character("j")], command: .down, help: ("move down", "下移"), scope: .everywhere),
        KeyBinding(keys: [.character("g"), .home], command: .top, help: ("first item", "第一项"), scope: .everywhere),
        KeyBinding(keys: [.character("G"), .end], command: .bottom, help: ("last item", "最后一项"), scope: .everywhere),
        KeyBinding(keys: [.pageUp], command: .pageUp, help: ("page up", "上一页"), scope: .everywhere),
        KeyBinding(keys: [.pageDown], command: .pageDown, help: ("page down", "下一页"), scope: .everywhere),
        KeyBinding(
            keys: [.enter, .character("b")], command: .buy, help: ("buy the selected product", "购买所选商品"), scope: .main,
            short: ("buy", "购买")),
        KeyBinding(
            keys: [.character("i")], command: .details, help: ("product details", "商品详情"), scope: .main,
            short: ("details", "详情")),
        KeyBinding(
            keys: [.character("/")], command: .filter, help: ("filter products as you type", "输入以筛选商品"), scope: .main,
            short: ("filter", "筛选")),
        KeyBinding(
            keys: [.character("r")], command: .restore, help: ("restore purchases", "恢复购买"), scope: .main,
            short: ("restore", "恢复")),
        KeyBinding(
            keys: [.character("p")], command: .pending, help: ("pending payments", "待处理的付款"), scope: .main,
            short: ("pending", "待处理")),
        KeyBinding(
            keys: [.character("s")], command: .storefront, help: ("switch storefront", "切换店面"), scope: .main,
            short: ("storefront", "店面")),
        KeyBinding(
            keys: [.character("a")], command: .account, help: ("switch account", "切换账户"), scope: .main,
            short: ("account", "账户")),
        KeyBinding(
            keys: [.character("l")], command: .language, help: ("switch language (en / 中文)", "切换语言 (en / 中文)"),
            scope: .main,
            short: ("中文", "English")),
        KeyBinding(keys: [.character("t")], command: .controls, help: ("test controls", "测试控制"), scope: .main),
        KeyBinding(
            keys: [.character("m")], command: .manager, help: ("transaction manager", "交易管理器"), scope: .main,
            short: ("transactions", "交易管理")),
        KeyBinding(
            keys: [.character("u")], command: .subscriptions, help: ("manage subscriptions", "管理订阅"), scope: .main,
            short: ("subscriptions", "订阅")),
        KeyBinding(
            keys: [.character("f")], command: .requestRefund,
            help: ("request a refund of the selected product's purchase", "为所选商品的购买申请退款"),
            scope: .main),
        KeyBinding(
            keys: [.character("c")], command: .redeemCode, help: ("redeem an offer code", "兑换优惠代码"), scope: .main),
        KeyBinding(
            keys: [.enter, .character(" ")], command: .toggle, help: ("cancel or resume the subscription", "取消或恢复订阅"),
            scope: .subscriptions,
            short: ("cancel / resume", "取消 / 恢复")),
        KeyBinding(
            keys: [.character("f")], command: .requestRefund,
            help: ("request a refund of its latest period", "为其最近一期申请退款"),
            scope: .subscriptions, short: ("refund", "退款")),
        KeyBinding(
            keys: [.character("v")], command: .transactionFilter,
            help: ("transactions shown: all, purchases, failures, pending", "显示的交易：全部、购买、失败、待处理"), scope: .main,
            short: ("show", "显示")),
        KeyBinding(
            keys: [.character("K")], command: .transactionsUp, help: ("scroll the transactions up", "交易列表上滚"),
            scope: .main),
        KeyBinding(
            keys: [.character("J")], command: .transactionsDown, help: ("scroll the transactions down", "交易列表下滚"),
            scope: .main),
        KeyBinding(
            keys: [.character("R")], command: .retry, help: ("reload products / retry verification", "重新加载商品 / 重试验证"),
            scope: .main),
        // The sheet's own Enter: `b`, which buys on the main screen, chooses the billing plan here.
        KeyBinding(
            keys: [.enter], command: .buy, help: ("pay as the sheet says", "按面板所示付款"), scope: .confirm,
            short: ("buy", "购买")),
        KeyBinding(
            keys: [.character("b")], command: .billingPlan,
            help: ("pay up front or monthly with a 12-month commitment, where offered", "一次性付费或按月付费（承诺 12 个月），如有提供"),
            scope: .confirm, short: ("billing plan", "付款方式")),
        KeyBinding(
            keys: [.character("+"), .right], command: .increase, help: ("quantity or value up", "增加数量或数值"),
            scope: .confirm),
        KeyBinding(
            keys: [.character("o")], command: .chooseOffer,
            help: ("choose a promotional or win-back offer", "选择促销或赢回优惠"),
            scope: .confirm, short: ("offer", "优惠")),
        KeyBinding(
            keys: [.character("-"), .left], command: .decrease, help: ("quantity or value down", "减少数量或数值"),
            scope: .confirm),
        KeyBinding(
            keys: [.left, .right, .enter, .character(" ")], command: .toggle, help: ("change the setting", "更改设置"),
            scope: .controls),
        KeyBinding(
            keys: [.enter], command: .inspect, help: ("every field of the transaction", "交易的全部字段"), scope: .manager,
            short: ("inspect", "详情")),
        KeyBinding(
            keys: [.character("A")], command: .allAccounts,
            help: ("every account's transactions, or this account's (a parent approves here)", "所有账户或本账户的交易（家长在此批准）"),
            scope: .manager, short: ("all accounts", "所有账户")),
        KeyBinding(
            keys: [.character("Y")], command: .approve,
            help: ("approve Ask to Buy or a refund request", "批准购买请求或退款申请"), scope: .manager,
            short: ("approve", "批准")),
        KeyBinding(
            keys: [.character("D")], command: .decline,
            help: ("decline Ask to Buy, a refund request or a pending price increase", "拒绝购买请求、退款申请或待同意的涨价"),
            scope: .manager,
            short: ("decline", "拒绝")),
        KeyBinding(
            keys: [.character("I")], command: .resolve,
            help: ("resolve an interrupted purchase or a billing issue", "解决中断的购买或扣费问题"), scope: .manager,
            short: ("resolve", "解决")),
        KeyBinding(
            keys: [.character("F")], command: .refund,
            help: ("refund, or reverse a refund", "退款，或撤销退款"), scope: .manager,
            short: ("refund", "退款")),
        KeyBinding(
            keys: [.character("E")], command: .expire, help: ("expire subscription", "使订阅过期"), scope: .manager,
            short: ("expire", "过期")),
        KeyBinding(
            keys: [.character("N")], command: .renew, help: ("renew subscription now", "立即续订"), scope: .manager,
            short: ("renew", "续订")),
        KeyBinding(
            keys: [.character("O")], command: .autoRenew,
            help: ("turn the subscription's auto-renew off or on", "关闭或开启订阅的自动续订"),
            scope: .manager, short: ("auto-renew", "自动续订")),
        KeyBinding(
            keys: [.character("P")], command: .priceIncrease,
            help: ("price increase: request one, then the user consents (D declines it)", "涨价：发起，再由用户同意（D 拒绝）"),
            scope: .manager, short: ("price rise", "涨价")),
        KeyBinding(
            keys: [.character("S")], command: .stopSharing,
            help: ("stop sharing the purchase with the family (REVOKE)", "停止与家人共享该购买（REVOKE）"),
            scope: .manager, short: ("stop sharing", "停止共享")),
        KeyBinding(
            keys: [.character("B")], command: .createTransaction,
            help: ("create a transaction bought outside the device, at a past date", "创建在设备外、于过去某日购买的交易"),
            scope: .manager, short: ("bought elsewhere", "设备外购买")),
        KeyBinding(
            keys: [.character("X")], command: .delete, help: ("delete transaction", "删除交易"), scope: .manager,
            short: ("delete", "删除")),
        KeyBinding(
            keys: [.character("C")], command: .clearAll, help: ("clear all transactions", "清除所有交易"), scope: .manager,
            short: ("clear", "清除")),
        KeyBinding(
            keys: [.character("H")], command: .clearHistory,
            help: ("clear the selected row's account's purchase history (press twice)", "清除所选行账户的购买记录（按两次）"),
            scope: .manager, short: ("clear history", "清除记录")),
        KeyBinding(
            keys: [.character("M")], command: .moveFamily,
            help: ("move the selected row's account to another family", "将所选行的账户移到另一个家庭"),
            scope: .manager, short: ("family", "家庭")),
        KeyBinding(
            keys: [.character("G")], command: .assign,
            help: (
                "assign the purchase to another account, as an organization does (ASSIGNED)",
                "像组织一样将该购买分配给另一个账户（ASSIGNED）"
            ),
            scope: .manager, short: ("assign", "分配")),
        KeyBinding(
            keys: [.character("Z")], command: .reset, help: ("reset the test controls to defaults", "将测试控制重置为默认"),
            scope: .controls, short: ("reset controls", "重置控制")),
        KeyBinding(
            keys: [.character("E")], command: .resetStore,
            help: ("erase the store: every transaction, and the controls (press twice)", "清空商店：所有交易及控制（按两次）"),
            scope: .controls, short: ("erase store", "清空商店")),
        KeyBinding(keys: [.character("?")], command: .help, help: ("this help", "此帮助"), scope: .everywhere),
        KeyBinding(
            keys: [.control("s")], command: .screenshot,
            help: ("save the screen (text, ANSI, SVG) for a bug report", "保存屏幕（文本、ANSI、SVG）以附于缺陷报告"),
            scope: .everywhere),
        KeyBinding(
            keys: [.escape], command: .close, help: ("close the sheet / clear the filter", "关闭面板 / 清除筛选"),
            scope: .everywhere,
            short: ("close", "关闭")),
        KeyBinding(keys: [.character("q"), .control("c")], command: .quit, help: ("quit", "退出"), scope: .everywhere),
        KeyBinding(
            keys: [.character("y"), .enter], command: .yes, help: ("yes: quit now", "是：立即退出"), scope: .question),
        KeyBinding(keys: [.character("n")], command: .no, help: ("no: stay", "否：留下"), scope: .question),
        KeyBinding(
            keys: [.enter], command: .dismiss, help: ("close the message", "关闭消息"), scope: .message,
            short: ("close", "关闭")),
        KeyBinding(
            keys: [.enter], command: .relaunch,
            help: ("launch the app again (it meets the same transaction)", "再次启动应用（它会再次遇到同一笔交易）"),
            scope: .crash, short: ("launch again", "再次启动")),
        KeyBinding(
            keys: [.character("x")], command: .fixApp, help: ("install the fixed build, then launch", "安装修复后的版本，然后启动"),
            scope: .crash, short: ("fixed build", "修复版本")),
        KeyBinding(
            keys: [.enter], command: .yes,
            help: ("agree, update the payment method, ask, subscribe or buy", "同意、更新付款方式、请求、订阅或购买"),
            scope: .storeMessage, short: ("agree", "同意")),
        KeyBinding(
            keys: [.character("d")], command: .decline, help: ("decline the price increase", "拒绝涨价"),
            scope: .storeMessage, short: ("decline", "拒绝")),
    ]

    /// The command for a key in the given scope: the scope's own bindings first, then the ones
    /// that apply everywhere, then the main screen's (Enter confirms in every sheet as it buys there).
    public static func command(for key: Key, in scope: KeyBinding.Scope) -> Command? {
        binding(in: scope) { $0.keys.contains(key) }?.command
    }

    /// The binding of `command` that dispatch would use in `scope`.
    public static func binding(of command: Command, in scope: KeyBinding.Scope) -> KeyBinding? {
        binding(in: scope) { $0.command == command }
    }

    private static func binding(in scope: KeyBinding.Scope, where matches: (KeyBinding) -> Bool) -> KeyBinding? {
        for candidate in [scope, .everywhere, .main] {
            if let binding = table.first(where: { $0.scope == candidate && matches($0) }) { return binding }
        }
        return nil
    }
}
