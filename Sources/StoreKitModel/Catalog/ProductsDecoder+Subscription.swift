import Foundation
import JSONReading

extension ProductsDecoder {
    static let paymentModes: [(String, IntroOffer.PaymentMode)] = IntroOffer.PaymentMode.subscriptionModes.map {
        ($0.rawValue, $0)
    }

    /// The `subscription` object: required for both subscription types, refused for the others.
    func subscriptionInfo(
        _ value: JSONValue?, _ productPath: JSONPath, type: ProductType?, unavailable: Set<String>,
        check: inout Validation
    ) -> SubscriptionInfo? {
        let path = productPath.key("subscription")
        guard let type else { return nil }
        switch (type, value) {
        case (.autoRenewable, nil), (.nonRenewing, nil):
            check.report(
                productPath,
                "\(type == .autoRenewable ? "an" : "a") \(type.rawValue) product needs \"subscription\" with its \"period\" (e.g. {\"period\": \"P1M\"})"
            )
            return nil
        case (.consumable, .some), (.nonConsumable, .some):
            check.report(path, "only subscriptions have a subscription period; this product is \(type.rawValue)")
            return nil
        case (_, nil):
            return nil
        case (.nonRenewing, .some(let value)):
            guard let object = check.object(value, path, allowed: ["period"]) else { return nil }
            let period = check.period(
                check.require(object, "period", path, "the fixed term, e.g. \"P3M\""), path.key("period"))
            return period.map { SubscriptionInfo(group: nil, period: $0, rank: nil, introOffer: nil) }
        case (.autoRenewable, .some(let value)):
            return autoRenewable(value, path, unavailable: unavailable, check: &check)
        }
    }

    private func autoRenewable(_ value: JSONValue, _ path: JSONPath, unavailable: Set<String>, check: inout Validation)
        -> SubscriptionInfo?
    {
        guard
            let object = check.object(
                value, path, allowed: ["group", "period", "rank", "introOffer", "offers", "commitmentPlan"])
        else { return nil }
        let period = check.period(
            check.require(object, "period", path, "the renewal period, e.g. \"P1M\""), path.key("period"))
        let group = check.string(
            check.require(object, "group", path, "the subscription group's id"), path.key("group"), maxLength: 100)
        if let group, !groups.contains(group) {
            check.report(
                path.key("group"), "unknown subscription group \(quoted(group)) (declare it in subscriptionGroups)")
        }
        let rank = check.integer(
            check.require(object, "rank", path, "its level in the group, 1 = highest"), path.key("rank"), in: 1...100)
        let offer = object["introOffer"].flatMap {
            introOffer($0, path.key("introOffer"), unavailable: unavailable, check: &check)
        }
        let offers = object["offers"].map { offerList($0, path.key("offers"), unavailable: unavailable, check: &check) }
        let commitment = object["commitmentPlan"].flatMap {
            commitmentPlan($0, path.key("commitmentPlan"), period: period, unavailable: unavailable, check: &check)
        }
        guard let period, let group, groups.contains(group), let rank else { return nil }
        if object["introOffer"] != nil && offer == nil { return nil }
        guard let offers = offers ?? [], object["commitmentPlan"] == nil || commitment != nil else { return nil }
        let planOffers = commitment?.offers ?? []
        if let clash = Set(offers.map(\.id)).intersection(planOffers.map(\.id)).sorted().first {
            check.report(
                path.key("commitmentPlan").key("offers"),
                "offer id \(quoted(clash)) appears twice in this subscription (offer ids are shared by both billing plans)"
            )
            return nil
        }
        return SubscriptionInfo(
            group: group, period: period, rank: rank, introOffer: offer, offers: offers + planOffers,
            commitment: commitment?.plan)
    }

    /// `commitmentPlan`: a one-year subscription's monthly plan with a 12-month commitment, its
    /// monthly prices, and the offers App Store Connect sets on that plan. Each offer period is
    /// one monthly payment, so the plan's offers run in months and are paid as the plan is:
    /// free, or pay as you go. Nil (one problem reported or more) when anything is wrong.
    private func commitmentPlan(
        _ value: JSONValue, _ path: JSONPath, period: SubscriptionPeriod?, unavailable: Set<String>,
        check: inout Validation
    ) -> (plan: CommitmentPlan, offers: [SubscriptionOffer])? {
        let before = check.problems.count
        guard let object = check.object(value, path, allowed: ["prices", "introOffer", "offers"]) else { return nil }
        if let period, period != SubscriptionPeriod(value: 1, unit: .year) {
            check.report(
                path,
                "only a one-year subscription can have a monthly plan with a 12-month commitment; this one renews every \(period)"
            )
        }
        let pricesPath = path.key("prices")
        let pricesValue = check.require(object, "prices", path, "the monthly price in each storefront")
        if case .object(let written)? = pricesValue {
            for key in written.keys where CommitmentPlan.unavailableStorefronts.contains(key) {
                check.report(
                    pricesPath.key(key),
                    "Apple does not offer monthly plans with a 12-month commitment in \(key) (the United States and Singapore); remove this price"
                )
            }
        }
        let without = unavailable.union(CommitmentPlan.unavailableStorefronts)
        let prices =
            check.problems.count == before ? priceTable(pricesValue, pricesPath, except: without, check: &check) : nil
        let intro = object["introOffer"].flatMap {
            introOffer($0, path.key("introOffer"), unavailable: without, check: &check)
        }
        let offers =
            object["offers"].map { offerList($0, path.key("offers"), unavailable: without, check: &check) } ?? []
        let terms =
            [(path.key("introOffer"), intro)]
            + (offers ?? []).enumerated().map {
                (path.key("offers").index($0.offset), $0.element.terms)
            }
        for (termsPath, terms) in terms {
            guard let terms else { continue }
            if terms.period != CommitmentPlan.billingPeriod {
                check.report(
                    termsPath.key("period"),
                    "an offer of the monthly plan lasts whole monthly payments: its period is P1M (with \"periods\" for more than one), not \(terms.period)"
                )
            }
            if terms.paymentMode == .payUpFront {
                check.report(
                    termsPath.key("paymentMode"),
                    "an offer of the monthly plan is paid as the plan is, month by month: use freeTrial or payAsYouGo")
            }
        }
        guard check.problems.count == before, let prices, let offers else { return nil }
        return (
            CommitmentPlan(prices: prices, introOffer: intro),
            offers.map { $0.onPlan(.monthly) }
        )
    }

    /// `offers`: promotional, code and win-back offers, each id once; nil when any is wrong.
    private func offerList(_ value: JSONValue, _ path: JSONPath, unavailable: Set<String>, check: inout Validation)
        -> [SubscriptionOffer]?
    {
        guard let items = check.array(value, path) else { return nil }
        var offers: [SubscriptionOffer] = []
        var ids: Set<String> = []
        let before = check.problems.count
        for (index, item) in items.enumerated() {
            let itemPath = path.index(index)
            guard let offer = subscriptionOffer(item, itemPath, unavailable: unavailable, check: &check) else {
                continue
            }
            if !ids.insert(offer.id).inserted {
                check.report(itemPath.key("id"), "offer id \(quoted(offer.id)) appears twice in this subscription")
            }
            offers.append(offer)
        }
        return check.problems.count == before ? offers : nil
    }

    private func subscriptionOffer(
        _ value: JSONValue, _ path: JSONPath, unavailable: Set<String>, check: inout Validation
    ) -> SubscriptionOffer? {
        guard
            let object = check.object(
                value, path,
                allowed: Self.offerTermKeys + ["id", "type", "codes", "customCodes"] + Self.eligibilityKeys)
        else { return nil }
        let id = check.string(
            check.require(object, "id", path, "the offer's identifier"), path.key("id"), maxLength: 100)
        let kind = check.choice(
            check.require(object, "type", path, "promotional, code or winBack"), path.key("type"), "an offer type",
            options: SubscriptionOffer.Kind.allCases.map { ($0.rawValue, $0) })
        let terms = offerTerms(object, path, unavailable: unavailable, check: &check)
        let codes = codeList(object["codes"], path.key("codes"), check: &check)
        let custom = customCodeList(object["customCodes"], path.key("customCodes"), check: &check)
        let hasCodes = object["codes"] != nil || object["customCodes"] != nil
        if kind != .code, kind != nil, hasCodes {
            check.report(path, "only an offer of type code has codes")
        }
        if kind == .code, !hasCodes {
            check.report(path, "an offer of type code needs \"codes\" (one-time) or \"customCodes\" (once per account)")
        }
        if kind != .code, kind != nil, object["eligibility"] != nil {
            check.report(path.key("eligibility"), "only an offer of type code names who may redeem it")
        }
        let winBackKeys = Self.eligibilityKeys.dropFirst().filter { object[$0] != nil }
        if kind != .winBack, kind != nil, let key = winBackKeys.first {
            check.report(path.key(key), "only an offer of type winBack has customer eligibility in months")
        }
        let customers = check.customerKinds(object["eligibility"], path.key("eligibility"))
        let winBack = check.winBackConditions(object, path)
        guard let id, let kind, let terms else { return nil }
        return SubscriptionOffer(
            id: id, kind: kind, terms: terms, oneTimeCodes: codes, customCodes: custom.map { $0.code },
            customCodeLimits: Dictionary(
                custom.compactMap { item in item.limit.map { (item.code, $0) } },
                uniquingKeysWith: { first, _ in first }),
            customers: customers ?? Set(CustomerKind.allCases), winBack: kind == .winBack ? winBack : nil)
    }

    /// `eligibility` (code offers), then the win-back offer's conditions.
    static let eligibilityKeys = ["eligibility", "paidMonths", "monthsSinceLastSubscribed", "waitMonths"]

    /// A consumable's, a non-consumable's or a non-renewing subscription's `offers`: offer codes
    /// (App Store Connect's offer codes for In-App Purchases), each id once; nil when any is wrong.
    func codeOfferList(
        _ value: JSONValue?, _ productPath: JSONPath, type: ProductType?, unavailable: Set<String>,
        check: inout Validation
    ) -> [OneTimeOffer]? {
        guard let value else { return [] }
        let path = productPath.key("offers")
        if type == .autoRenewable {
            check.report(
                path, "an auto-renewable subscription's offers go in \"subscription\": {\"offers\": [...]}")
            return nil
        }
        guard let items = check.array(value, path) else { return nil }
        let before = check.problems.count
        var offers: [OneTimeOffer] = []
        var ids: Set<String> = []
        for (index, item) in items.enumerated() {
            let itemPath = path.index(index)
            guard let offer = codeOffer(item, itemPath, unavailable: unavailable, check: &check) else { continue }
            if !ids.insert(offer.id).inserted {
                check.report(itemPath.key("id"), "offer id \(quoted(offer.id)) appears twice in this product")
            }
            offers.append(offer)
        }
        return check.problems.count == before ? offers : nil
    }

    private func codeOffer(_ value: JSONValue, _ path: JSONPath, unavailable: Set<String>, check: inout Validation)
        -> OneTimeOffer?
    {
        guard
            let object = check.object(
                value, path, allowed: ["id", "type", "prices", "codes", "customCodes", "eligibility"])
        else { return nil }
        let id = check.string(
            check.require(object, "id", path, "the offer's identifier"), path.key("id"), maxLength: 100)
        if let type = check.string(
            check.require(object, "type", path, "code"), path.key("type"), maxLength: 20), type != "code"
        {
            check.report(
                path.key("type"),
                "\(quoted(type)) is not an offer of this product; consumables, non-consumables and non-renewing subscriptions have offer codes only (\"code\"): promotional, introductory and win-back offers are for auto-renewable subscriptions"
            )
        }
        let prices = priceTable(
            check.require(object, "prices", path, "the offer's price in each storefront (\"0\" for free)"),
            path.key("prices"), except: unavailable, check: &check)
        let codes = codeList(object["codes"], path.key("codes"), check: &check)
        let custom = customCodeList(object["customCodes"], path.key("customCodes"), check: &check)
        if object["codes"] == nil, object["customCodes"] == nil {
            check.report(path, "an offer code needs \"codes\" (one-time) or \"customCodes\" (once per account)")
        }
        let spenders = check.spenderKinds(object["eligibility"], path.key("eligibility"))
        guard let id, let prices else { return nil }
        return OneTimeOffer(
            id: id, prices: prices, oneTimeCodes: codes, customCodes: custom.map { $0.code },
            customCodeLimits: Dictionary(
                custom.compactMap { item in item.limit.map { (item.code, $0) } },
                uniquingKeysWith: { first, _ in first }),
            spenders: spenders ?? Set(SpenderKind.allCases))
    }

    /// Offer codes: letters and digits, 1 to 64 each, as App Store Connect allows.
    private func codeList(_ value: JSONValue?, _ path: JSONPath, check: inout Validation) -> [String] {
        guard let value, let items = check.array(value, path) else { return [] }
        return items.enumerated().compactMap { index, item in code(item, path.index(index), check: &check) }
    }

    private func code(_ value: JSONValue?, _ path: JSONPath, check: inout Validation) -> String? {
        guard let code = check.string(value, path, maxLength: 64) else { return nil }
        guard !code.isEmpty, code.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            check.report(path, "\(quoted(code)) is not an offer code (letters and digits only)")
            return nil
        }
        return code
    }

    /// Custom codes: a code, or `{"code": "SPRING", "limit": 500}` for one App Store Connect lets
    /// redeem at most `limit` times in all.
    private func customCodeList(_ value: JSONValue?, _ path: JSONPath, check: inout Validation) -> [(
        code: String, limit: Int?
    )] {
        guard let value, let items = check.array(value, path) else { return [] }
        return items.enumerated().compactMap { index, item in
            let itemPath = path.index(index)
            guard case .object = item else {
                return code(item, itemPath, check: &check).map { (code: $0, limit: nil as Int?) }
            }
            guard let object = check.object(item, itemPath, allowed: ["code", "limit"]) else { return nil }
            let limit = object["limit"].flatMap { check.integer($0, itemPath.key("limit"), in: 1...1_000_000) }
            let found = code(
                check.require(object, "code", itemPath, "the custom code, e.g. \"SPRING\""), itemPath.key("code"),
                check: &check)
            return found.map { (code: $0, limit: limit) }
        }
    }

    static let offerTermKeys = ["paymentMode", "period", "periods", "prices"]

    private func introOffer(_ value: JSONValue, _ path: JSONPath, unavailable: Set<String>, check: inout Validation)
        -> IntroOffer?
    {
        guard let object = check.object(value, path, allowed: Self.offerTermKeys) else { return nil }
        return offerTerms(object, path, unavailable: unavailable, check: &check)
    }

    /// What an offer costs: its payment mode, period, number of periods and prices.
    private func offerTerms(_ object: JSONObject, _ path: JSONPath, unavailable: Set<String>, check: inout Validation)
        -> IntroOffer?
    {
        let mode = check.choice(
            check.require(object, "paymentMode", path, "freeTrial, payAsYouGo or payUpFront"),
            path.key("paymentMode"), "a payment mode", options: Self.paymentModes)
        let period = check.period(
            check.require(object, "period", path, "the offer's period, e.g. \"P1W\""), path.key("period"))
        let periods = object["periods"].map { check.integer($0, path.key("periods"), in: 1...12) } ?? 1
        var prices: [String: Decimal]? = [:]
        switch (mode, object["prices"]) {
        case (.freeTrial, .some):
            check.report(
                path.key("prices"), "a free trial has no price; remove \"prices\" or use payAsYouGo / payUpFront")
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
