import Foundation

extension ProductsDecoder {
    static let paymentModes: [(String, IntroOffer.PaymentMode)] = IntroOffer.PaymentMode.allCases.map { ($0.rawValue, $0) }

    /// The `subscription` object: required for both subscription types, refused for the others.
    func subscriptionInfo(_ value: JSONValue?, _ productPath: JSONPath, type: ProductType?, unavailable: Set<String>, check: inout Validation) -> SubscriptionInfo? {
        let path = productPath.key("subscription")
        guard let type else { return nil }
        switch (type, value) {
        case (.autoRenewable, nil), (.nonRenewing, nil):
            check.report(productPath, "\(type == .autoRenewable ? "an" : "a") \(type.rawValue) product needs \"subscription\" with its \"period\" (e.g. {\"period\": \"P1M\"})")
            return nil
        case (.consumable, .some), (.nonConsumable, .some):
            check.report(path, "only subscriptions have a subscription period; this product is \(type.rawValue)")
            return nil
        case (_, nil):
            return nil
        case (.nonRenewing, .some(let value)):
            guard let object = check.object(value, path, allowed: ["period"]) else { return nil }
            let period = check.period(check.require(object, "period", path, "the fixed term, e.g. \"P3M\""), path.key("period"))
            return period.map { SubscriptionInfo(group: nil, period: $0, rank: nil, introOffer: nil) }
        case (.autoRenewable, .some(let value)):
            return autoRenewable(value, path, unavailable: unavailable, check: &check)
        }
    }

    private func autoRenewable(_ value: JSONValue, _ path: JSONPath, unavailable: Set<String>, check: inout Validation) -> SubscriptionInfo? {
        guard let object = check.object(value, path, allowed: ["group", "period", "rank", "introOffer"]) else { return nil }
        let period = check.period(check.require(object, "period", path, "the renewal period, e.g. \"P1M\""), path.key("period"))
        let group = check.string(check.require(object, "group", path, "the subscription group's id"), path.key("group"), maxLength: 100)
        if let group, !groups.contains(group) {
            check.report(path.key("group"), "unknown subscription group \(quoted(group)) (declare it in subscriptionGroups)")
        }
        let rank = check.integer(check.require(object, "rank", path, "its level in the group, 1 = highest"), path.key("rank"), in: 1...100)
        let offer = object["introOffer"].flatMap { introOffer($0, path.key("introOffer"), unavailable: unavailable, check: &check) }
        guard let period, let group, groups.contains(group), let rank else { return nil }
        if object["introOffer"] != nil && offer == nil { return nil }
        return SubscriptionInfo(group: group, period: period, rank: rank, introOffer: offer)
    }

    private func introOffer(_ value: JSONValue, _ path: JSONPath, unavailable: Set<String>, check: inout Validation) -> IntroOffer? {
        guard let object = check.object(value, path, allowed: ["paymentMode", "period", "periods", "prices"]) else { return nil }
        let mode = check.choice(check.require(object, "paymentMode", path, "freeTrial, payAsYouGo or payUpFront"),
                                path.key("paymentMode"), "a payment mode", options: Self.paymentModes)
        let period = check.period(check.require(object, "period", path, "the offer's period, e.g. \"P1W\""), path.key("period"))
        let periods = object["periods"].map { check.integer($0, path.key("periods"), in: 1...12) } ?? 1
        var prices: [String: Decimal]? = [:]
        switch (mode, object["prices"]) {
        case (.freeTrial, .some):
            check.report(path.key("prices"), "a free trial has no price; remove \"prices\" or use payAsYouGo / payUpFront")
            prices = nil
        case (.payAsYouGo, nil), (.payUpFront, nil):
            check.report(path, "a \(mode!.rawValue) offer needs \"prices\" for each storefront")
            prices = nil
        case (_, .some(let value)):
            prices = priceTable(value, path.key("prices"), except: unavailable, check: &check)
        default:
            break
        }
        guard let mode, let period, let periods, let prices else { return nil }
        return IntroOffer(paymentMode: mode, period: period, periods: periods, prices: prices)
    }
}
