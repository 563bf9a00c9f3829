import Foundation
import JSONReading

extension StoreKitConfigDecoder {
    mutating func product(_ value: JSONValue, _ path: JSONPath, group: String?, rank: Int?) -> Product? {
        guard let object = check.object(value, path) else { return nil }
        let id = check.string(
            check.require(object, "productID", path, "the product identifier"), path.key("productID"),
            maxLength: Product.maxIdLength)
        let type = check.choice(
            check.require(
                object, "type", path, "Consumable, NonConsumable, NonRenewingSubscription or RecurringSubscription"),
            path.key("type"), "a StoreKit product type", options: Self.types)
        let price = storefrontPrice(
            check.require(object, "displayPrice", path, "the price in the \(storefrontId) storefront's currency"),
            path.key("displayPrice"))
        let text = localizations(
            check.require(object, "localizations", path, "at least one localization"), path.key("localizations"),
            required: true)
        let subscription = subscription(object, path, type: type, group: group, rank: rank)
        let codeOffers = type == .autoRenewable ? [] : oneTimeCodeOffers(object, path)
        guard let id, let type, let price, let text else { return nil }
        if let first = seenProducts[id] {
            check.report(path.key("productID"), "duplicate product id \(quoted(id)) (first defined at \(first))")
            return nil
        }
        seenProducts[id] = path.description
        if type.isSubscription && subscription == nil { return nil }
        // Xcode writes familyShareable on every product, false where the App Store has no sharing.
        let shareable = check.bool(object["familyShareable"], path.key("familyShareable")) ?? false
        return Product(
            id: id, type: type, title: text.title, description: text.description,
            prices: [storefrontId: price], subscription: subscription,
            familyShareable: shareable && (type == .nonConsumable || type == .autoRenewable), codeOffers: codeOffers)
    }

    /// A consumable's, a non-consumable's or a non-renewing subscription's `codeOffers` (offer
    /// codes for In-App Purchases, which Xcode 27 tests). Apple publishes no `.storekit` form for
    /// them, so they are read with the keys of a subscription's code offers: each is redeemed by
    /// its `referenceName` (its id the `offerID`, else the reference name), costs its
    /// `displayPrice` (0 for free) and is for the kinds of customer `eligibility` names
    /// (`nonSpender`, `activeSpender`, `churnedSpender`; an empty list limits no one).
    private mutating func oneTimeCodeOffers(_ object: JSONObject, _ path: JSONPath) -> [OneTimeOffer] {
        guard let value = object["codeOffers"], value != .null,
            let items = check.array(value, path.key("codeOffers"))
        else { return [] }
        var offers: [OneTimeOffer] = []
        for (index, item) in items.enumerated() {
            let itemPath = path.key("codeOffers").index(index)
            guard let offerObject = check.object(item, itemPath) else { continue }
            let reference = offerObject["referenceName"].flatMap {
                check.string($0, itemPath.key("referenceName"), maxLength: 100)
            }
            let id =
                offerObject["offerID"].flatMap { check.string($0, itemPath.key("offerID"), maxLength: 100) }
                ?? reference
            let price = storefrontPrice(
                check.require(
                    offerObject, "displayPrice", itemPath,
                    "the offer's price in the \(storefrontId) storefront's currency (0 for free)"),
                itemPath.key("displayPrice"))
            let eligibility = offerObject["eligibility"]
            let spenders =
                eligibility != .array([]) ? check.spenderKinds(eligibility, itemPath.key("eligibility")) : nil
            guard let id else {
                check.report(itemPath, "an offer needs \"offerID\" (or \"referenceName\")")
                continue
            }
            guard let price else { continue }
            offers.append(
                OneTimeOffer(
                    id: id, prices: [storefrontId: price], customCodes: [reference ?? id],
                    spenders: spenders ?? Set(SpenderKind.allCases)))
        }
        return offers
    }

    private mutating func subscription(
        _ object: JSONObject, _ path: JSONPath, type: ProductType?, group: String?, rank: Int?
    ) -> SubscriptionInfo? {
        switch type {
        case .nonRenewing:
            return SubscriptionInfo(group: nil, period: Self.nonRenewingTerm, rank: nil, introOffer: nil)
        case .autoRenewable:
            guard let group else {
                check.report(path, "a RecurringSubscription belongs inside subscriptionGroups[].subscriptions")
                return nil
            }
            let period = check.period(
                check.require(object, "recurringSubscriptionPeriod", path, "the renewal period, e.g. \"P1M\""),
                path.key("recurringSubscriptionPeriod"))
            let level =
                object["groupNumber"].flatMap { check.integer($0, path.key("groupNumber"), in: 1...100) } ?? rank
            let offer = introOffer(object["introductoryOffer"], path.key("introductoryOffer"))
            let offers = subscriptionOffers(object, path)
            let plans = billingPlans(object["billingPlans"], path.key("billingPlans"), period: period)
            guard let period, let plans else { return nil }
            let planOffers = plans.offers
            if let clash = Set(offers.map(\.id)).intersection(planOffers.map(\.id)).sorted().first {
                check.report(
                    path.key("billingPlans"),
                    "offer id \(quoted(clash)) appears twice in this subscription (offer ids are shared by both billing plans)"
                )
                return nil
            }
            return SubscriptionInfo(
                group: group, period: period, rank: level, introOffer: offer, offers: offers + planOffers,
                commitment: plans.plan)
        default:
            return nil
        }
    }

    /// `billingPlans`: the pricing terms of Xcode 26.5's billing-plan picker, read as products.json's
    /// `commitmentPlan` is. Apple publishes no `.storekit` form for them, so an entry is read with
    /// the keys a subscription has: `billingPlanType` (`upFront`, the subscription's own keys, or
    /// `monthly`), and for `monthly` its `displayPrice` (each month's payment), its own
    /// `introductoryOffer` and its `adHocOffers`, `codeOffers` and `winbackOffers` (App Store
    /// Connect sets offers per plan). Nil (one problem reported or more) when anything is wrong;
    /// no plan when none is written.
    private mutating func billingPlans(_ value: JSONValue?, _ path: JSONPath, period: SubscriptionPeriod?) -> (
        plan: CommitmentPlan?, offers: [SubscriptionOffer]
    )? {
        guard let value, value != .null else { return (nil, []) }
        guard let items = check.array(value, path) else { return nil }
        let before = check.problems.count
        var result: (plan: CommitmentPlan?, offers: [SubscriptionOffer]) = (nil, [])
        for (index, item) in items.enumerated() {
            let itemPath = path.index(index)
            guard let object = check.object(item, itemPath) else { continue }
            let type = check.choice(
                check.require(object, "billingPlanType", itemPath, "upFront or monthly"),
                itemPath.key("billingPlanType"), "a billing plan type", options: Self.billingPlanTypes)
            guard type == .monthly else { continue }  // up front: the subscription's own price and offers
            if result.plan != nil {
                check.report(itemPath, "a second monthly plan; a subscription has one")
                continue
            }
            if let period, period != SubscriptionPeriod(value: 1, unit: .year) {
                check.report(
                    itemPath,
                    "only a one-year subscription can have a monthly plan with a 12-month commitment; this one renews every \(period)"
                )
            }
            let price = storefrontPrice(
                check.require(
                    object, "displayPrice", itemPath,
                    "the monthly payment in the \(storefrontId) storefront's currency"),
                itemPath.key("displayPrice"))
            let intro = introOffer(object["introductoryOffer"], itemPath.key("introductoryOffer"))
            let offers = subscriptionOffers(object, itemPath)
            monthlyOfferTerms(object, itemPath)
            guard let price else { continue }
            result = (
                CommitmentPlan(prices: [storefrontId: price], introOffer: intro),
                offers.map { $0.onPlan(.monthly) }
            )
            if CommitmentPlan.unavailableStorefronts.contains(storefrontId) {
                notices.append(
                    "\(itemPath) is read but not offered in \(storefrontId): Apple offers monthly plans with a 12-month commitment everywhere but the United States and Singapore; set _storefront (e.g. \"DEU\") to buy it"
                )
            }
        }
        return check.problems.count == before ? result : nil
    }

    /// StoreKit's names for the plans, and the App Store Server API's (`billingPlanType`).
    static let billingPlanTypes: [(String, BillingPlanType)] =
        BillingPlanType.allCases.map { ($0.rawValue, $0) } + BillingPlanType.allCases.map { ($0.serverName, $0) }

    /// An offer of the monthly plan lasts whole monthly payments (`subscriptionPeriod` P1M) and is
    /// paid as the plan is: free, or pay as you go; each offer that is not is reported where written.
    private mutating func monthlyOfferTerms(_ object: JSONObject, _ path: JSONPath) {
        var written: [(JSONPath, JSONObject)] = []
        if case .object(let intro)? = object["introductoryOffer"] {
            written.append((path.key("introductoryOffer"), intro))
        }
        for key in ["adHocOffers", "codeOffers", "winbackOffers"] {
            guard case .array(let items)? = object[key] else { continue }
            for (index, item) in items.enumerated() {
                if case .object(let offer) = item { written.append((path.key(key).index(index), offer)) }
            }
        }
        for (offerPath, offer) in written {
            if case .string(let period)? = offer["subscriptionPeriod"], period != "P1M" {
                check.report(
                    offerPath.key("subscriptionPeriod"),
                    "an offer of the monthly plan lasts whole monthly payments: its period is P1M (with numberOfPeriods for more than one), not \(period)"
                )
            }
            if offer["paymentMode"] == .string("payUpFront") {
                check.report(
                    offerPath.key("paymentMode"),
                    "an offer of the monthly plan is paid as the plan is, month by month: use free or payAsYouGo")
            }
        }
    }

    private mutating func introOffer(_ value: JSONValue?, _ path: JSONPath) -> IntroOffer? {
        guard let value, value != .null, let object = check.object(value, path) else { return nil }
        let mode = check.choice(
            check.require(object, "paymentMode", path, "free, payAsYouGo or payUpFront"),
            path.key("paymentMode"), "a payment mode", options: Self.paymentModes)
        let period = check.period(
            check.require(object, "subscriptionPeriod", path, "the offer period"), path.key("subscriptionPeriod"))
        let periods =
            object["numberOfPeriods"].flatMap { check.integer($0, path.key("numberOfPeriods"), in: 1...12) } ?? 1
        // A free trial needs no price (one that is there is still checked); a paid offer must have one.
        let priceValue: JSONValue?
        if let mode, mode != .freeTrial, let name = Self.paymentModes.first(where: { $0.1 == mode })?.0 {
            priceValue = check.require(
                object, "displayPrice", path, "the \(name) offer's price in the \(storefrontId) storefront's currency")
        } else {
            priceValue = object["displayPrice"]
        }
        let price = storefrontPrice(priceValue, path.key("displayPrice"))
        guard let mode, let period else { return nil }
        if mode == .freeTrial { return IntroOffer(paymentMode: mode, period: period, periods: periods, prices: [:]) }
        guard let price else { return nil }
        return IntroOffer(paymentMode: mode, period: period, periods: periods, prices: [storefrontId: price])
    }

    /// A price as written, in the storefront's currency: one with more decimal places than the
    /// currency has (a USD file opened in the JPN storefront) is kept, counted for the notice,
    /// and shown rounded as Xcode shows it. Up to 2 decimals are read whatever the currency, and
    /// 3 in a storefront whose currency has thousandths (KWD).
    mutating func storefrontPrice(_ value: JSONValue?, _ path: JSONPath) -> Decimal? {
        let allowed = MinorUnits.of(storefrontCurrency)
        guard let price = check.price(value, path, currency: allowed > 2 ? storefrontCurrency : nil) else {
            return nil
        }
        if MinorUnits.round(price, in: storefrontCurrency, .plain) != price { roundedPrices += 1 }
        return price
    }

    /// `adHocOffers` (promotional), `codeOffers` (redeemed by their reference name, as StoreKitTest's
    /// `.codeOffer(referenceName:)`) and `winbackOffers`.
    private mutating func subscriptionOffers(_ object: JSONObject, _ path: JSONPath) -> [SubscriptionOffer] {
        var offers: [SubscriptionOffer] = []
        for (key, kind) in [
            ("adHocOffers", SubscriptionOffer.Kind.promotional), ("codeOffers", .code), ("winbackOffers", .winBack),
        ] {
            guard let value = object[key], value != .null, let items = check.array(value, path.key(key)) else {
                continue
            }
            for (index, item) in items.enumerated() {
                let itemPath = path.key(key).index(index)
                guard let offerObject = check.object(item, itemPath) else { continue }
                let reference = offerObject["referenceName"].flatMap {
                    check.string($0, itemPath.key("referenceName"), maxLength: 100)
                }
                let id =
                    offerObject["offerID"].flatMap { check.string($0, itemPath.key("offerID"), maxLength: 100) }
                    ?? reference
                guard let id else {
                    check.report(itemPath, "an offer needs \"offerID\" (or \"referenceName\")")
                    continue
                }
                guard let terms = introOffer(item, itemPath) else { continue }
                // Xcode writes who may redeem a code offer; a list left empty limits no one.
                let eligibility = offerObject["eligibility"]
                let customers =
                    kind == .code && eligibility != .array([])
                    ? check.customerKinds(eligibility, itemPath.key("eligibility")) : nil
                offers.append(
                    SubscriptionOffer(
                        id: id, kind: kind, terms: terms, customCodes: kind == .code ? [reference ?? id] : [],
                        customers: customers ?? Set(CustomerKind.allCases)))
            }
        }
        return offers
    }

    /// `localizations[{locale, displayName, description}]` → the title and description of the
    /// localization `_locale` chooses (that locale, else its language, else the first), keyed by
    /// the catalog's language: the products read as the file's chosen locale, the UI stays en/zh-Hans.
    mutating func localizations(_ value: JSONValue?, _ path: JSONPath, required: Bool) -> (
        title: LocalizedText, description: LocalizedText
    )? {
        guard let items = check.array(value, path) else { return nil }
        var found: [(locale: String, name: String, description: String)] = []
        for (index, item) in items.enumerated() {
            let itemPath = path.index(index)
            guard let object = check.object(item, itemPath) else { continue }
            let locale = check.string(
                check.require(object, "locale", itemPath, "e.g. \"en_US\""), itemPath.key("locale"), maxLength: 40)
            let name = check.string(
                check.require(object, "displayName", itemPath, "the name shown to users"),
                itemPath.key("displayName"), maxLength: ProductsDecoder.maxTitle)
            // Xcode leaves a description empty until someone writes one; that is not an error.
            let description =
                object["description"] == .string("")
                ? ""
                : check.string(
                    object["description"], itemPath.key("description"), maxLength: ProductsDecoder.maxDescription,
                    multiline: true) ?? ""
            guard let locale, let name else { continue }
            found.append((locale, name, description))
        }
        guard !found.isEmpty else {
            if required && items.isEmpty {
                check.report(path, "is empty; a product needs at least one localization with a displayName")
            }
            return nil
        }
        let normalized = { (locale: String) in locale.replacingOccurrences(of: "-", with: "_").lowercased() }
        let language = { (locale: String) in String(normalized(locale).prefix { $0 != "_" }) }
        let chosen =
            found.first { normalized($0.locale) == normalized(contentLocale) }
            ?? found.first { language($0.locale) == language(contentLocale) }
        if chosen == nil && required { otherLocalization += 1 }
        let shown = chosen ?? found[0]
        let tag = Language.english.rawValue
        return (LocalizedText([tag: shown.name]), LocalizedText([tag: shown.description]))
    }
}
