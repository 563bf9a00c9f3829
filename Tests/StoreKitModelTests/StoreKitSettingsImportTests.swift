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

    /// Xcode 26.5 writes a monthly plan with a 12-month commitment as `billingPlans`, in a form
    /// Apple does not document: the file opens, and the plan is named as not read.
    @Test func billingPlansAreNamedAsIgnored() throws {
        let catalog = try catalog { object in
            firstSubscription(&object) { subscription in
                subscription["billingPlans"] = [
                    ["billingPlanType": "MONTHLY", "displayPrice": "4.99", "commitmentDisplayPrice": "59.88"]
                ]
            }
        }
        #expect(
            catalog.settings.notices.contains {
                $0.contains("billingPlans is ignored") && $0.contains("products.json (commitmentPlan)")
            }, "\(catalog.settings.notices)")
        #expect(catalog.products.allSatisfy { $0.subscription?.commitment == nil })
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
