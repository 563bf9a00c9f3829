import Foundation

extension StoreKitConfigDecoder {
    mutating func product(_ value: JSONValue, _ path: JSONPath, group: String?, rank: Int?) -> Product? {
        guard let object = check.object(value, path) else { return nil }
        let id = check.string(check.require(object, "productID", path, "the product identifier"), path.key("productID"), maxLength: Product.maxIdLength)
        let type = check.choice(check.require(object, "type", path, "Consumable, NonConsumable, NonRenewingSubscription or RecurringSubscription"),
                                path.key("type"), "a StoreKit product type", options: Self.types)
        let price = check.price(check.require(object, "displayPrice", path, "the price in the \(storefrontId) storefront's currency"),
                                path.key("displayPrice"), currency: storefrontCurrency)
        let text = localizations(check.require(object, "localizations", path, "at least one localization"), path.key("localizations"), required: true)
        let subscription = subscription(object, path, type: type, group: group, rank: rank)
        guard let id, let type, let price, let text else { return nil }
        if let first = seenProducts[id] {
            check.report(path.key("productID"), "duplicate product id \(quoted(id)) (first defined at \(first))")
            return nil
        }
        seenProducts[id] = path.description
        if type.isSubscription && subscription == nil { return nil }
        return Product(id: id, type: type, title: text.title, description: text.description,
                       prices: [storefrontId: price], subscription: subscription)
    }

    private mutating func subscription(_ object: JSONObject, _ path: JSONPath, type: ProductType?, group: String?, rank: Int?) -> SubscriptionInfo? {
        switch type {
        case .nonRenewing:
            return SubscriptionInfo(group: nil, period: Self.nonRenewingTerm, rank: nil, introOffer: nil)
        case .autoRenewable:
            guard let group else {
                check.report(path, "a RecurringSubscription belongs inside subscriptionGroups[].subscriptions")
                return nil
            }
            let period = check.period(check.require(object, "recurringSubscriptionPeriod", path, "the renewal period, e.g. \"P1M\""),
                                      path.key("recurringSubscriptionPeriod"))
            let level = object["groupNumber"].flatMap { check.integer($0, path.key("groupNumber"), in: 1...100) } ?? rank
            let offer = introOffer(object["introductoryOffer"], path.key("introductoryOffer"))
            guard let period else { return nil }
            return SubscriptionInfo(group: group, period: period, rank: level, introOffer: offer)
        default:
            return nil
        }
    }

    private mutating func introOffer(_ value: JSONValue?, _ path: JSONPath) -> IntroOffer? {
        guard let value, value != .null, let object = check.object(value, path) else { return nil }
        let mode = check.choice(check.require(object, "paymentMode", path, "free, payAsYouGo or payUpFront"),
                                path.key("paymentMode"), "a payment mode", options: Self.paymentModes)
        let period = check.period(check.require(object, "subscriptionPeriod", path, "the offer period"), path.key("subscriptionPeriod"))
        let periods = object["numberOfPeriods"].flatMap { check.integer($0, path.key("numberOfPeriods"), in: 1...12) } ?? 1
        // A free trial needs no price (one that is there is still checked); a paid offer must have one.
        let priceValue: JSONValue?
        if let mode, mode != .freeTrial, let name = Self.paymentModes.first(where: { $0.1 == mode })?.0 {
            priceValue = check.require(object, "displayPrice", path, "the \(name) offer's price in the \(storefrontId) storefront's currency")
        } else {
            priceValue = object["displayPrice"]
        }
        let price = check.price(priceValue, path.key("displayPrice"), currency: storefrontCurrency)
        guard let mode, let period else { return nil }
        if mode == .freeTrial { return IntroOffer(paymentMode: mode, period: period, periods: periods, prices: [:]) }
        guard let price else { return nil }
        return IntroOffer(paymentMode: mode, period: period, periods: periods, prices: [storefrontId: price])
    }

    /// `localizations[{locale, displayName, description}]` → title and description keyed by language.
    mutating func localizations(_ value: JSONValue?, _ path: JSONPath, required: Bool) -> (title: LocalizedText, description: LocalizedText)? {
        guard let items = check.array(value, path) else { return nil }
        var titles: [String: String] = [:]
        var descriptions: [String: String] = [:]
        for (index, item) in items.enumerated() {
            let itemPath = path.index(index)
            guard let object = check.object(item, itemPath) else { continue }
            let locale = check.string(check.require(object, "locale", itemPath, "e.g. \"en_US\""), itemPath.key("locale"), maxLength: 40)
            let name = check.string(check.require(object, "displayName", itemPath, "the name shown to users"),
                                    itemPath.key("displayName"), maxLength: ProductsDecoder.maxTitle)
            // Xcode leaves a description empty until someone writes one; that is not an error.
            let description = object["description"] == .string("") ? ""
                : check.string(object["description"], itemPath.key("description"), maxLength: ProductsDecoder.maxDescription, multiline: true) ?? ""
            guard let locale, let name else { continue }
            let tag = Language(tag: locale)?.rawValue ?? String(locale.prefix { $0 != "_" && $0 != "-" })
            if titles[tag] == nil {
                titles[tag] = name
                descriptions[tag] = description
            }
        }
        if titles.isEmpty {
            if required && items.isEmpty { check.report(path, "is empty; a product needs at least one localization with a displayName") }
            return nil
        }
        return (LocalizedText(titles), LocalizedText(descriptions))
    }
}
