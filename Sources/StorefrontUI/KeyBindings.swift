import CellGrid

/// What a key does; the same table drives dispatch and the help overlay, so they cannot drift.
public enum Command: Sendable, Hashable, CaseIterable {
    case up, down, top, bottom, pageUp, pageDown
    case buy, details, filter, restore, pending, storefront, account, language, controls, manager
    case help, close, quit, retry
    case increase, decrease, toggle
    case approve, decline, resolve, refund, expire, renew, delete, clearAll, reset
}

public struct KeyBinding: Sendable {
    public let keys: [Key]
    public let command: Command
    public let help: (en: String, zh: String)
    /// Where the binding applies.
    public let scope: Scope

    public enum Scope: Sendable, Hashable {
        /// The main screen and lists inside sheets.
        case everywhere
        case main
        case controls
        case manager
        case confirm
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
        KeyBinding(keys: [.enter, .character("b")], command: .buy, help: ("buy the selected product", "购买所选商品"), scope: .main),
        KeyBinding(keys: [.character("i")], command: .details, help: ("product details", "商品详情"), scope: .main),
        KeyBinding(keys: [.character("/")], command: .filter, help: ("filter products as you type", "输入以筛选商品"), scope: .main),
        KeyBinding(keys: [.character("r")], command: .restore, help: ("restore purchases", "恢复购买"), scope: .main),
        KeyBinding(keys: [.character("p")], command: .pending, help: ("pending payments", "待处理的付款"), scope: .main),
        KeyBinding(keys: [.character("s")], command: .storefront, help: ("switch storefront", "切换店面"), scope: .main),
        KeyBinding(keys: [.character("a")], command: .account, help: ("switch account", "切换账户"), scope: .main),
        KeyBinding(keys: [.character("l")], command: .language, help: ("switch language (en / 中文)", "切换语言 (en / 中文)"), scope: .main),
        KeyBinding(keys: [.character("t")], command: .controls, help: ("test controls", "测试控制"), scope: .main),
        KeyBinding(keys: [.character("m")], command: .manager, help: ("transaction manager", "交易管理器"), scope: .main),
        KeyBinding(keys: [.character("R")], command: .retry, help: ("reload products / retry verification", "重新加载商品 / 重试验证"), scope: .main),
        KeyBinding(keys: [.character("+"), .right], command: .increase, help: ("quantity or value up", "增加数量或数值"), scope: .confirm),
        KeyBinding(keys: [.character("-"), .left], command: .decrease, help: ("quantity or value down", "减少数量或数值"), scope: .confirm),
        KeyBinding(keys: [.enter, .character(" "), .right, .left], command: .toggle, help: ("change the setting", "更改设置"), scope: .controls),
        KeyBinding(keys: [.character("A")], command: .approve, help: ("approve Ask to Buy", "批准购买请求"), scope: .manager),
        KeyBinding(keys: [.character("D")], command: .decline, help: ("decline Ask to Buy", "拒绝购买请求"), scope: .manager),
        KeyBinding(keys: [.character("I")], command: .resolve, help: ("resolve an interrupted purchase", "解决中断的购买"), scope: .manager),
        KeyBinding(keys: [.character("F")], command: .refund, help: ("refund", "退款"), scope: .manager),
        KeyBinding(keys: [.character("E")], command: .expire, help: ("expire subscription", "使订阅过期"), scope: .manager),
        KeyBinding(keys: [.character("N")], command: .renew, help: ("renew subscription now", "立即续订"), scope: .manager),
        KeyBinding(keys: [.character("X")], command: .delete, help: ("delete transaction", "删除交易"), scope: .manager),
        KeyBinding(keys: [.character("C")], command: .clearAll, help: ("clear all transactions", "清除所有交易"), scope: .manager),
        KeyBinding(keys: [.character("Z")], command: .reset, help: ("reset controls and store to defaults", "将控制与商店重置为默认"), scope: .controls),
        KeyBinding(keys: [.character("?")], command: .help, help: ("this help", "此帮助"), scope: .everywhere),
        KeyBinding(keys: [.escape], command: .close, help: ("close the sheet / clear the filter", "关闭面板 / 清除筛选"), scope: .everywhere),
        KeyBinding(keys: [.character("q"), .control("c")], command: .quit, help: ("quit", "退出"), scope: .everywhere),
    ]

    /// The command for a key in the given scope: the scope's own bindings first, then the ones
    /// that apply everywhere, then the main screen's (Enter confirms in every sheet as it buys there).
    public static func command(for key: Key, in scope: KeyBinding.Scope) -> Command? {
        for candidate in [scope, .everywhere, .main] {
            if let binding = table.first(where: { $0.scope == candidate && $0.keys.contains(key) }) { return binding.command }
        }
        return nil
    }
}
