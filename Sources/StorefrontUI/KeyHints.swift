import CellGrid
import StoreKitModel

/// The key hints on screen (the footer, each sheet's last line, keys named in sentences), built
/// from `KeyBindings.table`: a hint names the key that dispatch gives the command, so the two
/// cannot drift apart.
struct KeyHints {
    let language: Language
    let ascii: Bool

    /// One hint: the keys of `commands` joined by "/" (each command's first `count` keys, as
    /// dispatch looks them up in `scope`), then `label`, or the first command's short label.
    struct Item {
        var commands: [Command]
        var scope: KeyBinding.Scope
        var label: (en: String, zh: String)?
        var count = 1
    }

    /// The first key of `command` in `scope`, named for the screen ("Enter", "q", "↑").
    func key(_ command: Command, _ scope: KeyBinding.Scope = .main) -> String {
        keys(command, scope, count: 1)
    }

    func keys(_ command: Command, _ scope: KeyBinding.Scope, count: Int) -> String {
        guard let binding = KeyBindings.binding(of: command, in: scope) else { return "?" }
        return binding.keys.prefix(count).map { ascii ? $0.asciiDescription : $0.description }.joined(separator: "/")
    }

    func line(_ items: [Item], separator: String = "  ") -> String {
        items.map { item in
            let keys = item.commands.map { self.keys($0, item.scope, count: item.count) }.joined(separator: "/")
            let label =
                item.label
                ?? item.commands.first.flatMap { KeyBindings.binding(of: $0, in: item.scope) }.map {
                    $0.short ?? $0.help
                }
            // An ASCII-only terminal cannot show "中文": the switch is named in English there.
            return label.map {
                keys + " "
                    + (language == .english
                        ? (ascii ? $0.en.replacingOccurrences(of: "中文", with: "Chinese") : $0.en) : $0.zh)
            } ?? keys
        }.joined(separator: separator)
    }

    private func item(
        _ commands: [Command], _ scope: KeyBinding.Scope = .main, _ label: (String, String)? = nil, count: Int = 1
    ) -> Item {
        Item(commands: commands, scope: scope, label: label.map { (en: $0.0, zh: $0.1) }, count: count)
    }

    /// The main screen's keys, most important first.
    static let footerPriority: [Command] = [
        .quit, .buy, .filter, .details, .controls, .manager, .subscriptions, .restore, .storefront,
        .account, .language, .pending, .redeemCode, .requestRefund,
    ]

    /// As many of the main screen's keys as fit in `width`, whole and by priority, then the key
    /// to all the others: a narrow footer drops the least important hints, never cuts one.
    func footer(width: Int) -> String {
        let more = line([item([.help], .main, ("all keys", "全部按键"))])
        var text = ""
        var used = CellWidth.of(more)
        for command in Self.footerPriority {
            let hint = line([item([command])]) + "  "
            let hintWidth = CellWidth.of(hint)
            guard used + hintWidth <= width else { break }
            text += hint
            used += hintWidth
        }
        return text + more
    }

    var confirm: String { confirm(quantity: true) }

    /// The sheet's keys; `quantity` only where the product comes more than one at a time, `offer`
    /// only where it has promotional or win-back offers, `plans` only where the monthly plan is
    /// offered.
    func confirm(quantity: Bool, offers: Bool = false, plans: Bool = false) -> String {
        let change = quantity ? [item([.increase, .decrease], .confirm, ("quantity", "数量"))] : []
        let offer = offers ? [item([.chooseOffer], .confirm)] : []
        let plan = plans ? [item([.billingPlan], .confirm)] : []
        return line(
            [item([.buy], .confirm)] + change + plan + offer + [item([.close], .confirm, ("cancel", "取消"))],
            separator: "   ")
    }

    var details: String {
        line(
            [
                item([.buy]), item([.up, .down], .everywhere, ("other products", "其他商品")),
                item([.close], .everywhere, ("closes", "关闭")),
            ],
            separator: "   ")
    }

    var message: String {
        line([item([.dismiss, .close], .message)])
    }

    /// A list longer than its box: where it is, and how to move and close.
    func scrolling(from first: Int, to last: Int, of count: Int) -> String {
        let position = "\(first)–\(last)/\(count)"
        return line([item([.up, .down], .everywhere, ("scroll", "滚动")), item([.dismiss, .close], .message)]) + "  "
            + position
    }

    var picker: String {
        line([
            item([.up, .down], .everywhere, ("choose", "选择")), item([.buy], .main, ("select", "确定")),
            item([.close], .everywhere),
        ])
    }

    var controls: String {
        line([
            item([.up, .down], .everywhere, ("choose", "选择")), item([.toggle], .controls, ("change", "更改"), count: 3),
            item([.reset], .controls), item([.resetStore], .controls), item([.close], .everywhere),
        ])
    }

    var manager: String {
        line(
            [
                .inspect, .allAccounts, .approve, .decline, .resolve, .refund, .expire, .renew, .autoRenew,
                .priceIncrease, .delete, .clearAll,
            ].map { item([$0], .manager) }
                + [item([.close], .everywhere)], separator: " ")
    }

    var subscriptions: String {
        line([
            item([.up, .down], .everywhere, ("choose", "选择")), item([.toggle], .subscriptions),
            item([.requestRefund], .subscriptions),
            item([.close], .everywhere),
        ])
    }

    var refundRequest: String {
        line([
            item([.up, .down], .everywhere, ("reason", "原因")), item([.toggle], .subscriptions, ("submit", "提交")),
            item([.close], .everywhere, ("cancel", "取消")),
        ])
    }

    var cancelSubscription: String {
        line([
            item([.toggle], .subscriptions, ("confirm", "确认取消")),
            item([.close], .everywhere, ("keep", "保留订阅")),
        ])
    }

    var redeem: String {
        line([item([.buy], .main, ("redeem", "兑换")), item([.close], .everywhere, ("cancel", "取消"))])
    }

    /// The form's own keys (it handles the arrows itself), then create and back.
    var createTransaction: String {
        let arrows = [Key.up, .down, .left, .right].map { ascii ? $0.asciiDescription : $0.description }
        let own =
            language == .english
            ? "\(arrows[0])/\(arrows[1]) field  \(arrows[2])/\(arrows[3]) change"
            : "\(arrows[0])/\(arrows[1]) 字段  \(arrows[2])/\(arrows[3]) 更改"
        return own + "  "
            + line([item([.buy], .main, ("create", "创建")), item([.close], .everywhere, ("back", "返回"))])
    }

    var redeemOffer: String {
        line([item([.buy], .main, ("redeem", "兑换")), item([.close], .everywhere, ("back", "返回"))])
    }

    var crash: String {
        line([item([.relaunch], .crash), item([.fixApp], .crash), item([.manager], .main), item([.quit], .everywhere)])
    }

    var priceIncreaseConsent: String {
        line([
            item([.yes], .storeMessage), item([.decline], .storeMessage),
            item([.close], .everywhere, ("not now", "以后再说")),
        ])
    }

    var billingIssue: String {
        line([
            item([.yes], .storeMessage, ("update payment", "更新付款方式")),
            item([.close], .everywhere, ("not now", "以后再说")),
        ])
    }

    var winBackOffer: String {
        line([
            item([.yes], .storeMessage, ("subscribe", "订阅")),
            item([.close], .everywhere, ("not now", "以后再说")),
        ])
    }

    var genericMessage: String {
        line([item([.yes], .storeMessage, ("OK", "好"))])
    }

    var promotedPurchase: String {
        line([item([.yes], .storeMessage, ("buy", "购买")), item([.close], .everywhere, ("not now", "以后再说"))])
    }

    var askPermission: String {
        line([item([.yes], .storeMessage, ("ask", "请求")), item([.close], .everywhere, ("not now", "以后再说"))])
    }

    var question: String {
        line([item([.yes], .question, ("quit", "退出")), item([.no], .question, ("stay", "留下"))])
    }
}
