import StoreCore
import StoreKitModel

/// The words of resetting the test controls apart from the store.
extension UIStrings {
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
