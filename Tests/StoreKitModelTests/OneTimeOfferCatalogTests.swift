import Foundation
import StoreKitModel
import Testing

/// Offer codes of consumables, non-consumables and non-renewing subscriptions (App Store
/// Connect's offer codes for In-App Purchases) as both catalog formats write them.
@Suite struct OneTimeOfferCatalogTests {
    static var gems: [String: Any] {
        [
            "id": "welcome", "type": "code", "prices": ["USA": "0.49", "JPN": "80"], "codes": ["ONCE1"],
            "customCodes": ["GEMS", ["code": "FEW", "limit": 3]], "eligibility": ["nonSpender", "churnedSpender"],
        ]
    }

    static func problems(_ change: @escaping (inout [String: Any]) -> Void, product: Int = 0) -> [String] {
        (catalogError(SampleCatalog.mutatingProduct(product, change))?.problems ?? []).map {
            "\($0.path): \($0.message)"
        }
    }

    @Test func productsJSONGivesAConsumableAndANonConsumableOfferCodes() throws {
        let bytes = SampleCatalog.mutated { root in
            var products = root["products"] as? [[String: Any]] ?? []
            products[0]["offers"] = [Self.gems]
            products[1]["offers"] = [
                ["id": "free", "type": "code", "prices": ["USA": "0", "JPN": "0"], "customCodes": ["ADS"]]
            ]
            root["products"] = products
        }
        let catalog = try CatalogLoader.decode(bytes, source: "sample.json")
        let offer = try #require(catalog.products[0].codeOffers.first)
        #expect(offer.id == "welcome" && offer.prices == ["USA": Decimal(string: "0.49")!, "JPN": 80])
        #expect(offer.oneTimeCodes == ["ONCE1"] && offer.customCodes == ["GEMS", "FEW"])
        #expect(offer.customCodeLimits == ["FEW": 3])
        #expect(offer.spenders == [.nonSpender, .churnedSpender])
        let free = try #require(catalog.products[1].codeOffers.first)
        #expect(free.prices == ["USA": 0, "JPN": 0] && free.spenders == Set(SpenderKind.allCases))
        #expect(catalog.oneTimeCodeOffer("ADS")?.product.id == "com.example.sample.removeads")
        #expect(catalog.productRedeemed(by: "FEW")?.id == "com.example.sample.gems.100")
        #expect(catalog.productRedeemed(by: "NOPE") == nil)
    }

    @Test func aNonRenewingSubscriptionTakesOfferCodes() throws {
        let bytes = SampleCatalog.mutated { root in
            var products = root["products"] as? [[String: Any]] ?? []
            products.append([
                "id": "com.example.sample.pass", "type": "nonRenewing", "title": ["en": "Pass", "zh-Hans": "通行证"],
                "description": ["en": "Three months.", "zh-Hans": "三个月。"], "prices": ["USA": "9.99", "JPN": "1600"],
                "subscription": ["period": "P3M"],
                "offers": [
                    ["id": "back", "type": "code", "prices": ["USA": "4.99", "JPN": "800"], "customCodes": ["BACK"]]
                ],
            ])
            root["products"] = products
        }
        let catalog = try CatalogLoader.decode(bytes, source: "sample.json")
        #expect(catalog.product(id: "com.example.sample.pass")?.codeOffer(code: "BACK")?.id == "back")
    }

    @Test func mistakesAreReportedWithTheirPath() {
        #expect(
            Self.problems {
                $0["offers"] = [
                    ["id": "x", "type": "promotional", "prices": ["USA": "1", "JPN": "1"], "customCodes": ["A"]]
                ]
            }
            .contains { $0.hasPrefix("products[0].offers[0].type: \"promotional\" is not an offer of this product") })
        #expect(
            Self.problems { $0["offers"] = [["id": "x", "type": "code", "customCodes": ["A"]]] }
                .contains { $0.hasPrefix("products[0].offers[0]: missing \"prices\"") })
        #expect(
            Self.problems { $0["offers"] = [["id": "x", "type": "code", "prices": ["USA": "1", "JPN": "1"]]] }
                .contains { $0.hasPrefix("products[0].offers[0]: an offer code needs \"codes\"") })
        #expect(
            Self.problems {
                $0["offers"] = [
                    [
                        "id": "x", "type": "code", "prices": ["USA": "1", "JPN": "1"], "customCodes": ["A"],
                        "eligibility": ["new"],
                    ]
                ]
            }
            .contains { $0.hasPrefix("products[0].offers[0].eligibility[0]: ") })
        #expect(
            Self.problems {
                $0["offers"] = [
                    ["id": "x", "type": "code", "prices": ["USA": "1", "JPN": "1"], "customCodes": ["A"]],
                    ["id": "x", "type": "code", "prices": ["USA": "1", "JPN": "1"], "customCodes": ["B"]],
                ]
            }
            .contains { $0 == "products[0].offers[1].id: offer id \"x\" appears twice in this product" })
        #expect(
            Self.problems(
                {
                    $0["offers"] = [
                        ["id": "x", "type": "code", "prices": ["USA": "1", "JPN": "1"], "customCodes": ["A"]]
                    ]
                },
                product: 2
            )
            .contains { $0.hasPrefix("products[2].offers: an auto-renewable subscription's offers go in") })
        #expect(
            Self.problems {
                $0["offers"] = [["id": "x", "type": "code", "prices": ["USA": "1"], "customCodes": ["A"]]]
            }
            .contains { $0.hasPrefix("products[0].offers[0].prices: no price for JPN") })
    }

    static func storeKit(_ codeOffers: String) -> [UInt8] {
        Array(
            """
            {"identifier": "AB12", "settings": {"_storefront": "USA"}, "products": [{
               "productID": "gems", "referenceName": "Gems", "type": "Consumable", "displayPrice": "4.99",
               "localizations": [{"locale": "en_US", "displayName": "Gems", "description": ""}],
               "codeOffers": \(codeOffers)}],
             "nonRenewingSubscriptions": [{
               "productID": "pass", "referenceName": "Pass", "type": "NonRenewingSubscription", "displayPrice": "9.99",
               "localizations": [{"locale": "en_US", "displayName": "Pass", "description": ""}],
               "codeOffers": [{"referenceName": "PASSBACK", "displayPrice": "0", "eligibility": []}]}]}
            """.utf8)
    }

    @Test func aStoreKitFileGivesEveryProductTypeCodeOffers() throws {
        let catalog = try CatalogLoader.decode(
            Self.storeKit(
                """
                [{"internalID": "1A2B", "referenceName": "HALFGEMS", "displayPrice": "2.49", "eligibility": ["nonSpender"]},
                 {"offerID": "gems.any", "referenceName": "ANYGEMS", "displayPrice": "3.99"}]
                """), source: "Test.storekit")
        let gems = try #require(catalog.product(id: "gems")?.codeOffers)
        #expect(gems.map(\.id) == ["HALFGEMS", "gems.any"])
        #expect(gems.map(\.customCodes) == [["HALFGEMS"], ["ANYGEMS"]])
        #expect(gems[0].prices == ["USA": Decimal(string: "2.49")!] && gems[0].spenders == [.nonSpender])
        #expect(gems[1].spenders == Set(SpenderKind.allCases))
        let pass = try #require(catalog.product(id: "pass")?.codeOffer(code: "PASSBACK"))
        #expect(pass.prices == ["USA": 0])
    }

    @Test func aStoreKitCodeOfferWithoutAPriceOrWithAWrongKindIsReported() throws {
        let error = try #require(
            catalogError(
                Self.storeKit(
                    #"[{"referenceName": "A"}, {"referenceName": "B", "displayPrice": "1", "eligibility": ["new"]}]"#),
                source: "Test.storekit"))
        let problems = error.problems.map { "\($0.path): \($0.message)" }
        #expect(
            problems.contains { $0.hasPrefix("products[0].codeOffers[0]: missing \"displayPrice\"") }, "\(problems)")
        #expect(problems.contains { $0.hasPrefix("products[0].codeOffers[1].eligibility[0]: ") }, "\(problems)")
    }
}
