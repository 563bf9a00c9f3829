import Foundation
import JSONReading

/// Imports an Xcode StoreKit configuration file (`.storekit`, format versions 1.x–4.x).
/// Fields Storefront does not use (app policies, internal ids, family sharing) are ignored, as
/// newer and older files carry different sets; what it uses is validated, and a setting it cannot
/// honour is named in the catalog's notices rather than dropped in silence. A file Xcode opens is
/// not refused for its prices: Xcode shows each price as written in the storefront's currency.
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
    /// One line each, at load (`CatalogSettings.notices`).
    var notices: [String] = []
    /// Prices written with more decimal places than the storefront's currency has.
    var roundedPrices = 0
    /// `_locale`: the products' localization shown, whatever the UI's language.
    var contentLocale = "en_US"
    /// Products with no localization for `contentLocale`'s language.
    var otherLocalization = 0

    mutating func decode(_ root: JSONValue) -> Catalog? {
        guard let top = check.object(root, .root) else { return nil }
        // The format version is not checked: 1.x–4.x differ only in fields read leniently here.
        var settings = readSettings(top["settings"])
        settings.offerSigningKey = offersKeyPair(top["subscriptionOffersKeyPair"])
        var products: [Product] = []
        var groups: [SubscriptionGroup] = []
        for key in ["products", "nonRenewingSubscriptions"] {
            for (index, item) in (check.array(top[key], JSONPath.root.key(key)) ?? []).enumerated() {
                if let product = product(item, JSONPath.root.key(key).index(index), group: nil, rank: nil) {
                    products.append(product)
                }
            }
        }
        var seenGroups: [String: JSONPath] = [:]
        for (groupIndex, item)
            in (check.array(top["subscriptionGroups"], JSONPath.root.key("subscriptionGroups")) ?? []).enumerated()
        {
            let path = JSONPath.root.key("subscriptionGroups").index(groupIndex)
            guard let (group, subscriptions) = subscriptionGroup(item, path) else { continue }
            if let first = seenGroups[group.id] {
                check.report(
                    path.key("id"), "duplicate subscription group id \(quoted(group.id)) (first defined at \(first))")
                continue
            }
            seenGroups[group.id] = path
            groups.append(group)
            for (index, item) in subscriptions.enumerated() {
                if let product = product(item, path.key("subscriptions").index(index), group: group.id, rank: index + 1)
                {
                    products.append(product)
                }
            }
        }
        if products.isEmpty && check.problems.isEmpty {
            check.report(
                .root,
                "the file defines no products (its \"products\", \"nonRenewingSubscriptions\" and \"subscriptionGroups\" are empty)"
            )
        }
        guard check.problems.isEmpty else { return nil }
        if otherLocalization > 0 {
            notices.append(
                "\(otherLocalization) product\(otherLocalization == 1 ? " has" : "s have") no \(contentLocale) localization; shown in the first one the file gives"
            )
        }
        if roundedPrices > 0 {
            notices.append(
                "\(roundedPrices) price\(roundedPrices == 1 ? " is" : "s are") written with more decimal places than \(storefront.currency) has; "
                    + "shown rounded in the \(storefront.id) storefront, as Xcode shows them")
        }
        settings.notices = notices
        let accounts = [
            Account(
                name: "tester", storefront: storefront.id, askToBuy: settings.askToBuy,
                note: "Account for this .storekit test session")
        ]
        let identifier = top["identifier"].flatMap { if case .string(let s) = $0 { s } else { nil } } ?? "local"
        return Catalog(
            bundleId: "com.example.storekit.\(identifier.filter { $0.isLetter || $0.isNumber })",
            languages: [Language.english.rawValue],
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
                check.report(
                    path.key("_storefront"),
                    "\(quoted(id)) is not a storefront this tool knows (e.g. \"USA\", \"JPN\", \"DEU\")")
            }
        }
        if let locale = check.string(object["_locale"], path.key("_locale"), maxLength: 40) {
            if LocaleCatalog.isKnownLocale(locale) {
                settings.locale = locale
                contentLocale = locale
            } else {
                check.report(
                    path.key("_locale"), "\(quoted(locale)) is not a locale this system knows (e.g. \"en_US\")")
            }
        }
        if let raw = check.integer(object["_timeRate"], path.key("_timeRate"), in: 0...9_999) {
            if let rate = TimeRate(rawValue: raw) {
                settings.timeRate = rate
            } else {
                check.report(
                    path.key("_timeRate"),
                    "\(raw) is not one of Xcode's time rates (\(TimeRate.rawValuesInWords), as SKTestSession.h defines them)"
                )
            }
        }
        settings.askToBuy = check.bool(object["_askToBuyEnabled"], path.key("_askToBuyEnabled")) ?? false
        settings.failTransactions =
            check.bool(object["_failTransactionsEnabled"], path.key("_failTransactionsEnabled")) ?? false
        settings.billingIssues =
            (check.bool(object["_billingIssuesEnabled"], path.key("_billingIssuesEnabled")) ?? false)
            || (check.bool(object["_renewalBillingIssuesEnabled"], path.key("_renewalBillingIssuesEnabled")) ?? false)
        settings.gracePeriod =
            check.bool(object["_billingGracePeriodEnabled"], path.key("_billingGracePeriodEnabled")) ?? false
        // Xcode fails every purchase while this is on, not one.
        if check.bool(object["_failTransactionsEnabled"], path.key("_failTransactionsEnabled")) == true {
            settings.apiErrors.append("purchase")
        }
        settings.apiErrors += storeKitErrors(object["_storeKitErrors"], path.key("_storeKitErrors"))
        if check.bool(object["_disableDialogs"], path.key("_disableDialogs")) == true {
            notices.append("_disableDialogs is ignored: the storefront always shows its sheets")
        }
        return settings
    }

    /// Xcode's names of the APIs whose errors a `.storekit` file turns on, by `manage set api-error`
    /// name (`SimulatedAPI` in the store core, which a test keeps equal); nil where Storefront has
    /// no such call.
    static let errorAPIs: [(String, String?)] = [
        ("Load Products", "load-products"), ("Purchase", "purchase"), ("Verification", "verification"),
        ("App Store Sync", "app-store-sync"), ("Subscription Status", "subscription-status"),
        ("App Transaction", "app-transaction"),
        ("Manage Subscriptions Sheet", "manage-subscriptions"), ("Refund Request Sheet", "refund-request"),
        ("Offer Code Redeem Sheet", "offer-code-redeem"),
    ]

    /// `_storeKitErrors[{name, enabled}]`: the APIs turned on, by `manage set api-error` name; an
    /// API Storefront cannot fail is named in a notice.
    private mutating func storeKitErrors(_ value: JSONValue?, _ path: JSONPath) -> [String] {
        guard let value, let items = check.array(value, path) else { return [] }
        var apis: [String] = []
        for (index, item) in items.enumerated() {
            guard let object = check.object(item, path.index(index)),
                check.bool(object["enabled"], path.index(index).key("enabled")) == true,
                let name = check.string(object["name"], path.index(index).key("name"), maxLength: 100)
            else { continue }
            guard let known = Self.errorAPIs.first(where: { $0.0 == name }) else {
                notices.append("_storeKitErrors \(quoted(name)) is ignored: not an API this tool knows")
                continue
            }
            guard let api = known.1 else {
                notices.append("_storeKitErrors \(quoted(name)) is ignored: Storefront has no such call to fail yet")
                continue
            }
            apis.append(api)
        }
        return apis
    }

    private mutating func subscriptionGroup(_ value: JSONValue, _ path: JSONPath) -> (SubscriptionGroup, [JSONValue])? {
        guard let object = check.object(value, path) else { return nil }
        let id = check.string(
            check.require(object, "id", path, "the group's identifier"), path.key("id"), maxLength: 100)
        let name = check.string(object["name"], path.key("name"), maxLength: 200)
        let subscriptions = check.array(
            check.require(object, "subscriptions", path, "the group's subscriptions"), path.key("subscriptions"))
        guard let id, let subscriptions else { return nil }
        let localized = localizations(object["localizations"], path.key("localizations"), required: false)
        let title = localized?.title ?? LocalizedText([Language.english.rawValue: name ?? id])
        return (SubscriptionGroup(id: id, title: title), subscriptions)
    }
}
