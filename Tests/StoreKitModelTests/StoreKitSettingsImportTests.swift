import Foundation
import StoreKitModel
import Testing

/// Apple's sample `.storekit` file with its settings and offers changed as a QA lead would in
/// Xcode: every setting is honoured or named in a notice, and a file Xcode opens is never refused.
@Suite struct StoreKitSettingsImportTests {
    /// SKDemo-Products.storekit with `change` applied to its JSON.
    func catalog(_ change: (inout [String: Any]) -> Void) throws -> Catalog {
        let data = try Data(contentsOf: FixtureFiles.url("SKDemo-Products.storekit"))
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        change(&object)
        return try CatalogLoader.decode(
            [UInt8](try JSONSerialization.data(withJSONObject: object)), source: "changed.storekit")
    }

    func setting(_ object: inout [String: Any], _ key: String, _ value: Any) {
        var settings = object["settings"] as? [String: Any] ?? [:]
        settings[key] = value
        object["settings"] = settings
    }

    func firstSubscription(_ object: inout [String: Any], _ change: (inout [String: Any]) -> Void) {
        var groups = object["subscriptionGroups"] as? [[String: Any]] ?? []
        var subscriptions = groups[0]["subscriptions"] as? [[String: Any]] ?? []
        change(&subscriptions[0])
        groups[0]["subscriptions"] = subscriptions
        object["subscriptionGroups"] = groups
    }

    /// Xcode 26.5's billing plans (`billingPlans`): a one-year subscription's monthly plan with a
    /// 12-month commitment and its own offers, read as products.json's `commitmentPlan`.
    func yearlyWithPlans(_ plans: [[String: Any]], storefront: String = "DEU") throws -> Catalog {
        try catalog { object in
            setting(&object, "_storefront", storefront)
            firstSubscription(&object) { subscription in
                subscription["recurringSubscriptionPeriod"] = "P1Y"
                subscription["billingPlans"] = plans
            }
        }
    }

    static var monthly: [String: Any] {
        [
            "billingPlanType": "monthly", "displayPrice": "4.99",
            "introductoryOffer": ["paymentMode": "free", "subscriptionPeriod": "P1M"],
            "codeOffers": [
                [
                    "referenceName": "MONTHLYHALF", "paymentMode": "payAsYouGo", "subscriptionPeriod": "P1M",
                    "numberOfPeriods": 3, "displayPrice": "2.49",
                ]
            ],
        ]
    }

    @Test func billingPlansGiveAOneYearSubscriptionItsMonthlyPlan() throws {
        let catalog = try yearlyWithPlans([["billingPlanType": "upFront"], Self.monthly])
        let subscription = try #require(catalog.product(id: "plus.standard")?.subscription)
        let plan = try #require(subscription.commitment)
        #expect(plan.prices == ["DEU": Decimal(string: "4.99")!])
        #expect(plan.introOffer?.paymentMode == .freeTrial && plan.introOffer?.period.iso8601 == "P1M")
        #expect(subscription.billingPlans(in: "DEU") == [.upFront, .monthly])
        let code = try #require(subscription.offer(code: "MONTHLYHALF"))
        #expect(code.billingPlan == .monthly && code.terms.periods == 3)
        #expect(plan.commitmentPrice(in: "DEU", offer: plan.introOffer) == Decimal(string: "54.89"))
        #expect(catalog.settings.notices.allSatisfy { !$0.contains("billingPlans") }, "\(catalog.settings.notices)")
    }

    /// Apple's server names (`MONTHLY`, `BILLED_UPFRONT`) are read too; in the United States the
    /// plan is kept but not sold, as Apple does not offer it there, and the notice says so.
    @Test func theServerSpellingIsReadAndTheUnitedStatesCannotSellIt() throws {
        let catalog = try yearlyWithPlans(
            [["billingPlanType": "BILLED_UPFRONT"], ["billingPlanType": "MONTHLY", "displayPrice": "4.99"]],
            storefront: "USA")
        let subscription = try #require(catalog.product(id: "plus.standard")?.subscription)
        #expect(subscription.commitment?.prices == ["USA": Decimal(string: "4.99")!])
        #expect(subscription.billingPlans(in: "USA") == [.upFront])
        #expect(
            catalog.settings.notices.contains {
                $0.contains("billingPlans[1] is read but not offered in USA")
            }, "\(catalog.settings.notices)")
    }

    @Test func aWrongBillingPlanIsReportedWithItsPath() throws {
        let plans: [[String: Any]] = [
            ["billingPlanType": "quarterly"],
            ["billingPlanType": "monthly"],
            [
                "billingPlanType": "monthly", "displayPrice": "4.99",
                "introductoryOffer": ["paymentMode": "payUpFront", "subscriptionPeriod": "P1W", "displayPrice": "1"],
            ],
        ]
        let error = try #require(
            throws: CatalogError.self, performing: { try yearlyWithPlans(plans) })
        let problems = error.problems.map { "\($0.path): \($0.message)" }
        let plan = "subscriptionGroups[0].subscriptions[0].billingPlans"
        #expect(problems.contains { $0.hasPrefix("\(plan)[0].billingPlanType: ") }, "\(problems)")
        #expect(problems.contains { $0.hasPrefix("\(plan)[1]: missing \"displayPrice\"") }, "\(problems)")
        #expect(
            problems.contains {
                $0.hasPrefix("\(plan)[2].introductoryOffer.subscriptionPeriod: an offer of the monthly plan")
            },
            "\(problems)")
        #expect(
            problems.contains {
                $0.hasPrefix("\(plan)[2].introductoryOffer.paymentMode: an offer of the monthly plan")
            },
            "\(problems)")
        // A monthly plan on a monthly subscription.
        let monthlyError = try #require(
            throws: CatalogError.self,
            performing: {
                try catalog { object in
                    firstSubscription(&object) { $0["billingPlans"] = [Self.monthly] }
                }
            })
        #expect(
            monthlyError.problems.contains {
                $0.path == "\(plan)[0]" && $0.message.hasPrefix("only a one-year subscription")
            }, "\(monthlyError.problems)")
    }

    @Test func aNonUSDStorefrontOpensWithEveryPriceAsWrittenAndSaysSo() throws {
        let catalog = try catalog { setting(&$0, "_storefront", "JPN") }
        #expect(catalog.storefronts.map(\.id) == ["JPN"])
        #expect(catalog.products.count == 20)
        #expect(catalog.product(id: "nonconsumable.utilityvehicle")?.prices["JPN"] == Decimal(string: "2.99"))
        #expect(
            catalog.settings.notices == [
                "20 prices are written with more decimal places than JPY has; shown rounded in the JPN storefront, as Xcode shows them"
            ])
        #expect(
            PriceFormatter(currency: "JPY", locale: "ja_JP").string(Decimal(string: "2.99")!) == "￥3"
                || PriceFormatter(currency: "JPY", locale: "ja_JP").string(Decimal(string: "2.99")!) == "¥3")
    }

    @Test func billingSettingsAndSimulatedErrorsAreRead() throws {
        let catalog = try catalog { object in
            setting(&object, "_billingIssuesEnabled", true)
            setting(&object, "_billingGracePeriodEnabled", true)
            setting(&object, "_failTransactionsEnabled", true)
            var errors = (object["settings"] as? [String: Any])?["_storeKitErrors"] as? [[String: Any]] ?? []
            for index in errors.indices
            where ["Load Products", "App Transaction"].contains(errors[index]["name"] as? String) {
                errors[index]["enabled"] = true
            }
            setting(&object, "_storeKitErrors", errors)
        }
        #expect(catalog.settings.billingIssues && catalog.settings.gracePeriod)
        #expect(catalog.settings.apiErrors == ["purchase", "load-products", "app-transaction"])
        #expect(catalog.settings.notices.isEmpty, "\(catalog.settings.notices)")
    }

    @Test func timeRatesAreSKTestSessionHsRawValues() throws {
        #expect(try catalog { setting(&$0, "_timeRate", 15) }.settings.timeRate == .monthlyRenewalEvery30Seconds)
        for raw in 1...6 {
            #expect(try catalog { setting(&$0, "_timeRate", raw) }.settings.timeRate.rawValue == raw)
        }
        #expect {
            try catalog { setting(&$0, "_timeRate", 14) }
        } throws: { error in
            (error as? CatalogError)?.problems == [
                CatalogProblem(
                    path: "settings._timeRate",
                    message:
                        "14 is not one of Xcode's time rates (0–6, 10–13, 15, 1000–1005, as SKTestSession.h defines them)"
                )
            ]
        }
    }

    @Test func theLocaleChoosesTheProductsLocalization() throws {
        let catalog = try catalog { object in
            setting(&object, "_locale", "ja_JP")
            firstSubscription(&object) { subscription in
                var localizations = subscription["localizations"] as? [[String: Any]] ?? []
                localizations.append(["locale": "ja", "displayName": "スタンダード", "description": "標準プラン"])
                subscription["localizations"] = localizations
            }
        }
        #expect(catalog.product(id: "plus.standard")?.title.text(in: .english) == "スタンダード")
        #expect(catalog.product(id: "plus.standard")?.title.text(in: .simplifiedChinese) == "スタンダード")
        #expect(catalog.product(id: "plus.premium")?.title.text(in: .english) == "SKDemo+ Premium Plan")
        #expect(
            catalog.settings.notices == [
                "19 products have no ja_JP localization; shown in the first one the file gives"
            ])
    }

    @Test func offersOfEveryKindAreImported() throws {
        let catalog = try catalog { object in
            firstSubscription(&object) { subscription in
                subscription["adHocOffers"] = [
                    [
                        "offerID": "plus.halfoff", "paymentMode": "payAsYouGo", "referenceName": "Half off",
                        "subscriptionPeriod": "P1M", "numberOfPeriods": 3, "displayPrice": "1.49",
                    ]
                ]
                subscription["codeOffers"] = [
                    [
                        "offerID": "plus.code", "paymentMode": "free", "referenceName": "SPRINGCODE",
                        "subscriptionPeriod": "P1M",
                    ]
                ]
                subscription["winbackOffers"] = [
                    [
                        "offerID": "plus.back", "paymentMode": "free", "referenceName": "Come back",
                        "subscriptionPeriod": "P1M",
                    ]
                ]
            }
        }
        let offers = try #require(catalog.product(id: "plus.standard")?.subscription?.offers)
        #expect(offers.map(\.kind) == [.promotional, .code, .winBack])
        #expect(
            offers[0].terms
                == IntroOffer(
                    paymentMode: .payAsYouGo, period: SubscriptionPeriod(value: 1, unit: .month), periods: 3,
                    prices: ["USA": Decimal(string: "1.49")!]))
        #expect(offers[1].customCodes == ["SPRINGCODE"])
        #expect(catalog.settings.notices.isEmpty)
    }
}
