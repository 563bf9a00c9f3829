import Foundation

/// Imports an Xcode StoreKit configuration file (`.storekit`, format versions 1.x–4.x).
/// Fields Storefront does not use (offers other than introductory, app policies, internal ids)
/// are ignored, as newer and older files carry different sets; what it uses is validated.
struct StoreKitConfigDecoder {
    static let types: [(String, ProductType)] = [
        ("Consumable", .consumable), ("NonConsumable", .nonConsumable),
        ("NonRenewingSubscription", .nonRenewing), ("RecurringSubscription", .autoRenewable),
    ]
    static let paymentModes: [(String, IntroOffer.PaymentMode)] = [
        ("free", .freeTrial), ("payAsYouGo", .payAsYouGo), ("payUpFront", .payUpFront),
    ]
    /// `.storekit` files have no term for non-renewing subscriptions; App Store Connect's common one is a month.
    static let nonRenewingTerm = SubscriptionPeriod(value: 1, unit: .month)

    var check = Validation()
    var seenProducts: [String: String] = [:]
    private var storefront = Storefront(id: "USA", currency: "USD", locale: "en_US")
    var storefrontId: String { storefront.id }
    var storefrontCurrency: String { storefront.currency }

    mutating func decode(_ root: JSONValue) -> Catalog? {
        guard let top = check.object(root, .root) else { return nil }
        // The format version is not checked: 1.x–4.x differ only in fields read leniently here.
        let settings = readSettings(top["settings"])
        var products: [Product] = []
        var groups: [SubscriptionGroup] = []
        for key in ["products", "nonRenewingSubscriptions"] {
            for (index, item) in (check.array(top[key], JSONPath.root.key(key)) ?? []).enumerated() {
                if let product = product(item, JSONPath.root.key(key).index(index), group: nil, rank: nil) { products.append(product) }
            }
        }
        var seenGroups: [String: JSONPath] = [:]
        for (groupIndex, item) in (check.array(top["subscriptionGroups"], JSONPath.root.key("subscriptionGroups")) ?? []).enumerated() {
            let path = JSONPath.root.key("subscriptionGroups").index(groupIndex)
            guard let (group, subscriptions) = subscriptionGroup(item, path) else { continue }
            if let first = seenGroups[group.id] {
                check.report(path.key("id"), "duplicate subscription group id \(quoted(group.id)) (first defined at \(first))")
                continue
            }
            seenGroups[group.id] = path
            groups.append(group)
            for (index, item) in subscriptions.enumerated() {
                if let product = product(item, path.key("subscriptions").index(index), group: group.id, rank: index + 1) { products.append(product) }
            }
        }
        if products.isEmpty && check.problems.isEmpty {
            check.report(.root, "the file defines no products (its \"products\", \"nonRenewingSubscriptions\" and \"subscriptionGroups\" are empty)")
        }
        guard check.problems.isEmpty else { return nil }
        let accounts = [
            Account(name: "tester", storefront: storefront.id, askToBuy: settings.askToBuy, note: "Account for this .storekit test session"),
        ]
        let identifier = top["identifier"].flatMap { if case .string(let s) = $0 { s } else { nil } } ?? "local"
        return Catalog(bundleId: "com.example.storekit.\(identifier.filter { $0.isLetter || $0.isNumber })", languages: [Language.english.rawValue],
                       defaultStorefront: storefront.id, storefronts: [storefront], accounts: accounts,
                       subscriptionGroups: groups, products: products, settings: settings)
    }

    private mutating func readSettings(_ value: JSONValue?) -> CatalogSettings {
        var settings = CatalogSettings()
        let path = JSONPath.root.key("settings")
        guard let object = check.object(value, path) else { return settings }
        if let id = check.string(object["_storefront"], path.key("_storefront"), maxLength: 3) {
            if let known = StorefrontRegistry.storefront(id: id) {
                storefront = known
            } else {
                check.report(path.key("_storefront"), "\(quoted(id)) is not a storefront this tool knows (e.g. \"USA\", \"JPN\", \"DEU\")")
            }
        }
        if let locale = check.string(object["_locale"], path.key("_locale"), maxLength: 40) {
            if LocaleCatalog.isKnownLocale(locale) { settings.locale = locale } else {
                check.report(path.key("_locale"), "\(quoted(locale)) is not a locale this system knows (e.g. \"en_US\")")
            }
        }
        if let raw = check.integer(object["_timeRate"], path.key("_timeRate"), in: 0...9_999) {
            if let rate = TimeRate(rawValue: raw) { settings.timeRate = rate } else {
                check.report(path.key("_timeRate"), "\(raw) is not one of Xcode's time rates (0, 10–14, 1000–1005)")
            }
        }
        settings.askToBuy = check.bool(object["_askToBuyEnabled"], path.key("_askToBuyEnabled")) ?? false
        settings.failTransactions = check.bool(object["_failTransactionsEnabled"], path.key("_failTransactionsEnabled")) ?? false
        settings.billingIssues = (check.bool(object["_billingIssuesEnabled"], path.key("_billingIssuesEnabled")) ?? false)
            || (check.bool(object["_renewalBillingIssuesEnabled"], path.key("_renewalBillingIssuesEnabled")) ?? false)
        settings.gracePeriod = check.bool(object["_billingGracePeriodEnabled"], path.key("_billingGracePeriodEnabled")) ?? false
        return settings
    }

    private mutating func subscriptionGroup(_ value: JSONValue, _ path: JSONPath) -> (SubscriptionGroup, [JSONValue])? {
        guard let object = check.object(value, path) else { return nil }
        let id = check.string(check.require(object, "id", path, "the group's identifier"), path.key("id"), maxLength: 100)
        let name = check.string(object["name"], path.key("name"), maxLength: 200)
        let subscriptions = check.array(check.require(object, "subscriptions", path, "the group's subscriptions"), path.key("subscriptions"))
        guard let id, let subscriptions else { return nil }
        let localized = localizations(object["localizations"], path.key("localizations"), required: false)
        let title = localized?.title ?? LocalizedText([Language.english.rawValue: name ?? id])
        return (SubscriptionGroup(id: id, title: title), subscriptions)
    }
}
