import Foundation
import StoreKitModel
import Testing

/// Who may take an offer, as both catalog formats write it, and a `.storekit` file's offers key.
@Suite struct OfferEligibilityCatalogTests {
    static func storeKit(codeOffers: String, extra: String = "") -> [UInt8] {
        Array(
            """
            {"identifier": "AB12", "settings": {"_storefront": "USA"}, "products": [], \(extra)
             "subscriptionGroups": [{"id": "G1", "name": "Pro", "localizations": [], "subscriptions": [{
               "productID": "pro.monthly", "referenceName": "Pro", "type": "RecurringSubscription",
               "displayPrice": "4.99", "groupNumber": 1, "recurringSubscriptionPeriod": "P1M",
               "localizations": [{"locale": "en_US", "displayName": "Pro", "description": ""}],
               "codeOffers": \(codeOffers)}]}]}
            """.utf8)
    }

    @Test func aStoreKitCodeOfferSaysWhoMayRedeemIt() throws {
        let catalog = try CatalogLoader.decode(
            Self.storeKit(
                codeOffers: """
                    [{"referenceName": "NEWBIE", "paymentMode": "free", "subscriptionPeriod": "P1M", "eligibility": ["new"]},
                     {"referenceName": "ANYONE", "paymentMode": "free", "subscriptionPeriod": "P1M", "eligibility": []},
                     {"referenceName": "BACK", "paymentMode": "free", "subscriptionPeriod": "P1M",
                      "eligibility": ["expired", "existing"]}]
                    """), source: "Test.storekit")
        let offers = try #require(catalog.product(id: "pro.monthly")?.subscription?.offers)
        #expect(offers.map(\.customers) == [[.new], Set(CustomerKind.allCases), [.expired, .existing]])
    }

    @Test func aWrongEligibilityIsReportedWithItsPath() throws {
        #expect(throws: CatalogError.self) {
            try CatalogLoader.decode(
                Self.storeKit(
                    codeOffers: """
                        [{"referenceName": "X", "paymentMode": "free", "subscriptionPeriod": "P1M", "eligibility": ["lapsed"]}]
                        """), source: "Test.storekit")
        }
    }

    /// A P-256 key made for this test, PKCS#8 DER in base64 as Xcode writes it.
    static let testKey =
        "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgPtdgbMyq2wRp0sIpdlJq7UiryqOqQJC7ekBcqLybqGuhRANCAARkcoGjOlGQq15CPgnX7ilHVTIJXVTuI83DK9p4eq3NPOWHlZd1oy5bjXAte3NK/ZdooxCZc1X9Y+ikGwPyoeWT"

    @Test func aStoreKitFilesOffersKeyPairIsTheOffersKey() throws {
        let catalog = try CatalogLoader.decode(
            Self.storeKit(
                codeOffers: "[]",
                extra: "\"subscriptionOffersKeyPair\": {\"id\": \"851B7BE3\", \"privateKey\": \"\(Self.testKey)\"},"),
            source: "Test.storekit")
        let offersKey = try #require(catalog.settings.offerSigningKey)
        #expect(offersKey.keyId == "851B7BE3")
        let lines = offersKey.privateKeyPEM.split(separator: "\n").map(String.init)
        #expect(lines.first == "-----BEGIN PRIVATE KEY-----")
        #expect(lines.last == "-----END PRIVATE KEY-----")
        #expect(lines.dropFirst().dropLast().joined() == Self.testKey)
        #expect(lines.dropFirst().dropLast().allSatisfy { $0.count <= 64 })
        let without = try CatalogLoader.decode(Self.storeKit(codeOffers: "[]"), source: "Test.storekit")
        #expect(without.settings.offerSigningKey == nil)
    }

    /// products.json: a code offer's `eligibility` and custom codes with limits, a win-back offer's conditions.
    @Test func productsJSONWritesEligibilityAndLimits() throws {
        let bytes = SampleCatalog.mutatingSubscription(2) { subscription in
            subscription["offers"] = [
                [
                    "id": "codes", "type": "code", "paymentMode": "freeTrial", "period": "P1M",
                    "eligibility": ["new", "expired"], "codes": ["ONCE1"],
                    "customCodes": ["OPEN", ["code": "LIMITED", "limit": 50]],
                ],
                [
                    "id": "back", "type": "winBack", "paymentMode": "freeTrial", "period": "P1M", "paidMonths": 6,
                    "monthsSinceLastSubscribed": ["minimum": 2, "maximum": 24], "waitMonths": 2,
                ],
            ]
        }
        let catalog = try CatalogLoader.decode(bytes, source: "sample.json")
        let offers = try #require(catalog.products.compactMap(\.subscription).first { !$0.offers.isEmpty }?.offers)
        #expect(offers[0].customers == [.new, .expired])
        #expect(offers[0].customCodes == ["OPEN", "LIMITED"])
        #expect(offers[0].customCodeLimits == ["LIMITED": 50])
        #expect(offers[1].winBack == WinBackConditions(paidMonths: 6, monthsSinceLapse: 2...24, waitMonths: 2))
    }

    @Test func eligibilityKeysOnTheWrongOfferAreRefused() throws {
        let bytes = SampleCatalog.mutatingSubscription(2) { subscription in
            subscription["offers"] = [
                [
                    "id": "promo", "type": "promotional", "paymentMode": "freeTrial", "period": "P1M",
                    "eligibility": ["new"],
                ],
                [
                    "id": "back", "type": "winBack", "paymentMode": "freeTrial", "period": "P1M",
                    "monthsSinceLastSubscribed": ["minimum": 5, "maximum": 2],
                ],
            ]
        }
        do {
            _ = try CatalogLoader.decode(bytes, source: "sample.json")
            Issue.record("decoded")
        } catch {
            let messages = error.problems.map { "\($0.path): \($0.message)" }.joined(separator: "\n")
            #expect(messages.contains("only an offer of type code names who may redeem it"), "\(messages)")
            #expect(messages.contains("minimum 5 is above maximum 2"), "\(messages)")
        }
    }
}
