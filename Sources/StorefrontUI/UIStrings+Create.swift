/// The words of the manager's form for a transaction made outside the device.
extension UIStrings {
    var createTitle: String { pick("Create a transaction made outside the device", "创建在设备外进行的交易") }
    var productLabel: String { pick("Product", "商品") }
    var boughtOnLabel: String { pick("Bought on", "购买日期") }
    var autoRenewLabel: String { pick("Auto-renew", "自动续订") }
    var createExplanation: String {
        pick(
            "The store adds what followed from that date (renewals under the time rate, or the expiry); the app hears it as a purchase on another device.",
            "商店会补上该日期之后发生的一切（按时间速率续订，或到期）；应用会像收到另一台设备上的购买一样收到它。")
    }

    func notADate(_ text: String) -> String {
        pick(
            "\(text.isEmpty ? "No date" : text) is not a date: type one such as 2026-01-15T10:00:00Z, or move it with ←/→.",
            "\(text.isEmpty ? "没有日期" : text) 不是日期：请输入如 2026-01-15T10:00:00Z 的日期，或用 ←/→ 调整。")
    }

    func dateInTheFuture(_ text: String) -> String {
        pick(
            "\(text) is in the future: a transaction made outside the device was bought before now.",
            "\(text) 在未来：在设备外进行的交易必须早于现在。")
    }
}
