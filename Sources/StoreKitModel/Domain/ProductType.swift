/// The four kinds of in-app purchase.
public enum ProductType: String, CaseIterable, Sendable, Codable, Hashable {
    case consumable
    case nonConsumable
    case autoRenewable
    case nonRenewing

    /// Restore covers only what the App Store keeps a record of forever.
    public var isRestorable: Bool { self == .nonConsumable || self == .autoRenewable }

    public var isSubscription: Bool { self == .autoRenewable || self == .nonRenewing }

    public func label(in language: Language) -> String {
        switch (self, language) {
        case (.consumable, .english): "Consumable"
        case (.nonConsumable, .english): "Non-consumable"
        case (.autoRenewable, .english): "Subscription"
        case (.nonRenewing, .english): "Non-renewing"
        case (.consumable, .simplifiedChinese): "消耗型"
        case (.nonConsumable, .simplifiedChinese): "非消耗型"
        case (.autoRenewable, .simplifiedChinese): "自动续期订阅"
        case (.nonRenewing, .simplifiedChinese): "非续期订阅"
        }
    }
}
