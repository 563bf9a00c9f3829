import StoreCore
import StoreKitModel

/// The test controls' newer rows and the words of resetting them apart from the store.
extension UIStrings {
    var controlEveryPurchase: String { pick("Outcome applies to", "结果适用于") }
    func outcomeScope(everyPurchase: Bool) -> String {
        everyPurchase ? pick("every purchase", "每次购买") : pick("next purchase only", "仅下一次购买")
    }
    var controlProductOutcome: String { pick("Selected product", "所选商品") }
    var controlAPIErrorCode: String { pick("API error code", "API 错误代码") }
    var controlAutoApproveRefunds: String { pick("Auto-approve refunds", "自动批准退款") }
    var controlsResetDone: String {
        pick("Test controls reset to the catalog's defaults; the store is unchanged.", "测试控制已重置为目录默认值；商店未变。")
    }
    var pressAgainToResetStore: String {
        let key = keys.key(.resetStore, .controls)
        return pick(
            "Press \(key) again to erase the store: every transaction, purchase and control.",
            "再按 \(key) 清空商店：所有交易、购买和控制。")
    }
}
