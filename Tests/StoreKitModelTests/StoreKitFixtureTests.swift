import Foundation
import StoreKitModel
import Testing

private func fixture(_ name: String) throws -> Catalog {
    let url = FixtureFiles.url(name)
    return try CatalogLoader.decode([UInt8](try Data(contentsOf: url)), source: url.path)
}

private func product(_ id: String, in catalog: Catalog, sourceLocation: Testing.SourceLocation = #_sourceLocation)
    throws -> Product
{
    try #require(catalog.product(id: id), "no product \(id)", sourceLocation: sourceLocation)
}

private func decimal(_ text: String) -> Decimal {
    Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))!
}

// MARK: - SKDemo-Products.storekit (format 4.0)

@Test func skDemoImportsFourteenProductsAndSixSubscriptions() throws {
    let catalog = try fixture("SKDemo-Products.storekit")
    #expect(catalog.products.count == 20)
    #expect(catalog.products.filter { $0.type == .consumable }.count == 12)
    #expect(catalog.products.filter { $0.type == .nonConsumable }.count == 2)
    #expect(catalog.products.filter { $0.type == .autoRenewable }.count == 6)
}

@Test func skDemoKeepsExactUSPrices() throws {
    let catalog = try fixture("SKDemo-Products.storekit")
    #expect(catalog.storefronts == [Storefront(id: "USA", currency: "USD", locale: "en_US")])
    #expect(try product("consumable.fuel.87", in: catalog).prices == ["USA": decimal("0.99")])
    #expect(try product("nonconsumable.pickuptruck", in: catalog).prices == ["USA": decimal("4.99")])
    #expect(try product("plus.pro.shared", in: catalog).prices == ["USA": decimal("5.99")])
}

@Test func skDemoSubscriptionsHaveGroupPeriodAndRankFromGroupNumber() throws {
    let catalog = try fixture("SKDemo-Products.storekit")
    #expect(catalog.subscriptionGroups.map(\.id) == ["3F19ED53"])
    #expect(catalog.subscriptionGroups[0].title.text(in: .english) == "SKDemo+")
    let ranks = ["plus.standard": 3, "plus.premium": 2, "plus.pro": 1, "plus.pro.shared": 1]
    for (id, rank) in ranks {
        let subscription = try #require(try product(id, in: catalog).subscription)
        #expect(subscription.group == "3F19ED53")
        #expect(subscription.period == SubscriptionPeriod(value: 1, unit: .month))
        #expect(subscription.rank == rank, "\(id)")
        #expect(subscription.introOffer == nil)
    }
}

@Test func skDemoSettingsBecomeTheTestControls() throws {
    let catalog = try fixture("SKDemo-Products.storekit")
    #expect(catalog.settings.timeRate == .oneRenewalEvery30Seconds)
    #expect(catalog.settings.locale == "en_US")
    #expect(catalog.settings.askToBuy == false)
    #expect(catalog.settings.failTransactions == false)
    #expect(catalog.defaultStorefront == "USA")
}

@Test func skDemoTitlesComeFromTheLocalizations() throws {
    let catalog = try fixture("SKDemo-Products.storekit")
    let title = try product("nonconsumable.pickuptruck", in: catalog).title
    #expect(!title.text(in: .english).isEmpty)
    #expect(title.values.keys.sorted() == ["en"])
}

// MARK: - BackyardBirds-Store.storekit (format 3.0)

@Test func backyardBirdsImportsSixProductsAndThreeSubscriptions() throws {
    let catalog = try fixture("BackyardBirds-Store.storekit")
    #expect(catalog.products.count == 9)
    #expect(
        catalog.products.filter { $0.type == .consumable }.map(\.id)
            == ["pellet.single", "pellet.box", "acorns.individual", "acorns.collection", "nectar.cup", "nectar.bottle"])
    #expect(
        catalog.products.filter { $0.type == .autoRenewable }.map(\.id) == [
            "pass.individual", "pass.family", "pass.premium",
        ])
}

@Test func backyardBirdsPassesHaveAFreeTrialAndRanks() throws {
    let catalog = try fixture("BackyardBirds-Store.storekit")
    let expected = [("pass.individual", "4.99", 3), ("pass.family", "7.99", 2), ("pass.premium", "11.99", 1)]
    for (id, price, rank) in expected {
        let pass = try product(id, in: catalog)
        #expect(pass.prices == ["USA": decimal(price)])
        #expect(pass.subscription?.group == "6F3A93AB")
        #expect(pass.subscription?.period.iso8601 == "P1M")
        #expect(pass.subscription?.rank == rank)
        #expect(
            pass.subscription?.introOffer
                == IntroOffer(
                    paymentMode: .freeTrial, period: SubscriptionPeriod(value: 1, unit: .month),
                    periods: 1, prices: [:]))
    }
}

@Test func backyardBirdsSettingsKeepTheDefaultTimeRate() throws {
    let catalog = try fixture("BackyardBirds-Store.storekit")
    #expect(catalog.settings.timeRate == .realTime)
    #expect(catalog.settings.locale == "en_US")
    #expect(catalog.storefronts.map(\.id) == ["USA"])
}

// MARK: - FoodTruck-Products.storekit (format 2.0, from Apple's Food Truck sample)

@Test func foodTruckImportsAProductAndTwoPlansWithEveryKindOfOffer() throws {
    let catalog = try fixture("FoodTruck-Products.storekit")
    #expect(catalog.products.map(\.id) == ["feature.annualhistory", "socialfeedplus.monthly", "socialfeedplus.yearly"])
    let monthly = try #require(try product("socialfeedplus.monthly", in: catalog).subscription)
    #expect(
        monthly.introOffer
            == IntroOffer(
                paymentMode: .payAsYouGo, period: SubscriptionPeriod(value: 1, unit: .month), periods: 3,
                prices: ["USA": decimal("2.49")]))
    let yearly = try #require(try product("socialfeedplus.yearly", in: catalog).subscription)
    #expect(
        yearly.introOffer
            == IntroOffer(
                paymentMode: .payUpFront, period: SubscriptionPeriod(value: 3, unit: .month), periods: 1,
                prices: ["USA": decimal("8.99")]))
    #expect(monthly.rank == 1 && yearly.rank == 1, "one level: a move between them is a crossgrade")
    #expect(monthly.offers.filter { $0.kind == .code }.count == 1)
    #expect(yearly.offers.filter { $0.kind == .code }.count == 1)
    #expect(catalog.settings.timeRate == .realTime)
}

/// The file carries Arabic next to English: `_locale` set to Arabic shows the Arabic names.
@Test func foodTruckInArabicShowsTheFilesArabicNames() throws {
    let url = FixtureFiles.url("FoodTruck-Products.storekit")
    let text = try String(contentsOf: url, encoding: .utf8)
        .replacingOccurrences(of: #""_storefront" : "USA","#, with: #""_locale" : "ar", "_storefront" : "USA","#)
    let catalog = try CatalogLoader.decode(Array(text.utf8), source: "FoodTruck-ar.storekit")
    let title = try product("feature.annualhistory", in: catalog).title
    #expect(title.text(in: .english) == "سجل تاريخ لمدة عام", "\(title)")
}

/// In a storefront whose currency is not the file's, the file still opens, with one notice.
@Test func foodTruckInJapanOpensAndSaysWhy() throws {
    let url = FixtureFiles.url("FoodTruck-Products.storekit")
    let text = try String(contentsOf: url, encoding: .utf8).replacingOccurrences(
        of: #""_storefront" : "USA""#, with: #""_storefront" : "JPN""#)
    let catalog = try CatalogLoader.decode(Array(text.utf8), source: "FoodTruck-jp.storekit")
    #expect(catalog.defaultStorefront == "JPN")
    #expect(catalog.products.count == 3)
    #expect(!catalog.settings.notices.isEmpty)
}

// MARK: - Hand-written files of other format versions

/// A `.storekit` file with the given `products` and `subscriptionGroups` arrays and optional `settings`.
private func storeKitFile(
    products: String = "[]", groups: String = "[]", settings: String? = nil,
    version: String = #"{"major": 2, "minor": 0}"#
) -> [UInt8] {
    var members = [
        #""identifier": "4A1B2C3D""#, #""products": \#(products)"#,
        #""subscriptionGroups": \#(groups)"#, #""version": \#(version)"#,
    ]
    if let settings { members.append(#""settings": \#(settings)"#) }
    return Array(("{\n" + members.joined(separator: ",\n") + "\n}").utf8)
}

private func storeKitProduct(id: String = "com.example.coin", type: String = "Consumable", price: String = "\"0.99\"")
    -> String
{
    #"""
    {"displayPrice": \#(price), "familyShareable": false, "internalID": "11", "productID": "\#(id)",
     "referenceName": "Coin", "type": "\#(type)",
     "localizations": [{"description": "One coin.", "displayName": "Coin", "locale": "en_US"}]}
    """#
}

private let version1Group = #"""
    [{"id": "G1", "name": "Gold", "localizations": [], "subscriptions": [
      {"adHocOffers": [], "codeOffers": [], "displayPrice": "9.99", "familyShareable": false, "groupNumber": 1,
       "internalID": "21", "productID": "com.example.gold.monthly", "recurringSubscriptionPeriod": "P1M",
       "referenceName": "Gold Monthly", "subscriptionGroupID": "G1", "type": "RecurringSubscription",
       "introductoryOffer": {"displayPrice": "1.99", "internalID": "22", "numberOfPeriods": 3,
                             "paymentMode": "payAsYouGo", "subscriptionPeriod": "P1M"},
       "localizations": [{"description": "Gold, monthly.", "displayName": "Gold", "locale": "en_US"}]}
    ]}]
    """#

@Test func version1FileWithoutSettingsImports() throws {
    let bytes = storeKitFile(
        products: "[\(storeKitProduct())]", groups: version1Group, version: #"{"major": 1, "minor": 1}"#)
    let catalog = try CatalogLoader.decode(bytes, source: "Legacy.storekit")
    #expect(catalog.products.map(\.id) == ["com.example.coin", "com.example.gold.monthly"])
    #expect(catalog.storefronts.map(\.id) == ["USA"])
    #expect(catalog.settings == CatalogSettings())
    #expect(catalog.subscriptionGroups.first?.title.text(in: .english) == "Gold")
}

@Test func version1IntroOfferPayAsYouGoKeepsPriceAndPeriods() throws {
    let bytes = storeKitFile(groups: version1Group, version: #"{"major": 1, "minor": 1}"#)
    let catalog = try CatalogLoader.decode(bytes, source: "Legacy.storekit")
    let gold = try product("com.example.gold.monthly", in: catalog)
    #expect(gold.type == .autoRenewable)
    #expect(gold.prices == ["USA": decimal("9.99")])
    #expect(gold.subscription?.rank == 1)
    #expect(
        gold.subscription?.introOffer
            == IntroOffer(
                paymentMode: .payAsYouGo, period: SubscriptionPeriod(value: 1, unit: .month),
                periods: 3, prices: ["USA": decimal("1.99")]))
}

@Test func storeKitFileIsRecognisedByItsShapeWithoutTheExtension() throws {
    let bytes = storeKitFile(groups: version1Group, version: #"{"major": 1, "minor": 1}"#)
    let catalog = try CatalogLoader.decode(bytes, source: "downloaded.json")
    #expect(catalog.products.map(\.id) == ["com.example.gold.monthly"])
}

@Test func storefrontSettingPutsPricesInThatStorefront() throws {
    let bytes = storeKitFile(
        products: "[\(storeKitProduct(price: "\"160\""))]", settings: #"{"_storefront": "JPN", "_locale": "ja_JP"}"#)
    let catalog = try CatalogLoader.decode(bytes, source: "Japan.storekit")
    #expect(catalog.storefronts == [Storefront(id: "JPN", currency: "JPY", locale: "ja_JP")])
    #expect(catalog.defaultStorefront == "JPN")
    #expect(catalog.products[0].prices == ["JPN": 160])
    #expect(catalog.settings.locale == "ja_JP")
}

/// Xcode opens a file whose prices have cents in a storefront whose currency has none, and shows
/// them rounded; the import does too, and says so.
@Test func storefrontSettingKeepsPricesXcodeWouldShowAndSaysSo() throws {
    let bytes = storeKitFile(products: "[\(storeKitProduct(price: "\"0.99\""))]", settings: #"{"_storefront": "JPN"}"#)
    let catalog = try CatalogLoader.decode(bytes, source: "Japan.storekit")
    #expect(catalog.products[0].prices == ["JPN": Decimal(string: "0.99")!])
    #expect(catalog.settings.notices.first?.contains("more decimal places than JPY has") == true)
}

// MARK: - Bad .storekit files

@Test func recurringSubscriptionWithoutPeriodIsRefused() throws {
    let group = version1Group.replacingOccurrences(of: #""recurringSubscriptionPeriod": "P1M","#, with: "")
    let error = try #require(catalogError(storeKitFile(groups: group), source: "Bad.storekit"))
    let problem = try #require(error.problems.first)
    #expect(problem.path.hasSuffix(".subscriptions[0]"))
    #expect(problem.path == "subscriptionGroups[0].subscriptions[0]")
    #expect(problem.message.contains("recurringSubscriptionPeriod"))
}

@Test func nonDecimalDisplayPriceIsRefused() throws {
    let bytes = storeKitFile(products: "[\(storeKitProduct(price: "\"abc\""))]")
    let error = try #require(catalogError(bytes, source: "Bad.storekit"))
    #expect(error.problem(at: "products[0].displayPrice")?.message.contains(#""abc" is not a decimal number"#) == true)
}

@Test(arguments: ["\"-0\"", "\"-0.00\"", "-0"])
func negativeZeroDisplayPriceIsRefused(price: String) throws {
    let bytes = storeKitFile(products: "[\(storeKitProduct(price: price))]")
    let error = try #require(catalogError(bytes, source: "Bad.storekit"))
    #expect(error.problem(at: "products[0].displayPrice")?.message.contains("has a minus sign") == true)
}

@Test func unknownStoreKitTypeIsRefused() throws {
    let bytes = storeKitFile(products: "[\(storeKitProduct(type: "Subscription"))]")
    let error = try #require(catalogError(bytes, source: "Bad.storekit"))
    let message = try #require(error.problem(at: "products[0].type")?.message)
    #expect(message.contains(#""Subscription" is not a StoreKit product type"#))
    #expect(message.contains("RecurringSubscription"))
}

@Test func unknownStorefrontSettingIsRefused() throws {
    let bytes = storeKitFile(products: "[\(storeKitProduct())]", settings: #"{"_storefront": "XYZ"}"#)
    let error = try #require(catalogError(bytes, source: "Bad.storekit"))
    #expect(error.problem(at: "settings._storefront")?.message.contains(#""XYZ" is not a storefront"#) == true)
}

/// A consumable whose one localization has `displayName` and `description` as written (JSON, escapes included).
private func storeKitProduct(displayName: String, description: String) -> String {
    #"""
    {"displayPrice": "0.99", "productID": "com.example.coin", "referenceName": "Coin", "type": "Consumable",
     "localizations": [{"description": "\#(description)", "displayName": "\#(displayName)", "locale": "en_US"}]}
    """#
}

@Test func storeKitDisplayNameWithALineBreakIsRefused() throws {
    let bytes = storeKitFile(products: "[\(storeKitProduct(displayName: #"Gold\nCoin"#, description: "One coin."))]")
    let error = try #require(catalogError(bytes, source: "Bad.storekit"))
    let message = try #require(error.problem(at: "products[0].localizations[0].displayName")?.message)
    #expect(message.contains("a line break (U+000A, \\n) at character 5"))
}

@Test func storeKitDescriptionMayContainLineBreaksAndTabs() throws {
    let bytes = storeKitFile(
        products: "[\(storeKitProduct(displayName: "Coin", description: #"One coin.\n\tSpend it anywhere."#))]")
    let catalog = try CatalogLoader.decode(bytes, source: "Coin.storekit")
    #expect(catalog.products[0].description.text(in: .english) == "One coin.\n\tSpend it anywhere.")
}

/// `version1Group` with its intro offer's payment mode set to `mode` and its `displayPrice` removed.
private func groupWithUnpricedIntroOffer(_ mode: String) -> String {
    version1Group.replacingOccurrences(of: #""displayPrice": "1.99", "#, with: "")
        .replacingOccurrences(of: #""paymentMode": "payAsYouGo""#, with: #""paymentMode": "\#(mode)""#)
}

@Test(arguments: ["payAsYouGo", "payUpFront"])
func paidIntroOfferWithoutDisplayPriceIsRefused(mode: String) throws {
    let error = try #require(
        catalogError(storeKitFile(groups: groupWithUnpricedIntroOffer(mode)), source: "Bad.storekit"))
    #expect(error.problems.count == 1)
    let message = try #require(error.problem(at: "subscriptionGroups[0].subscriptions[0].introductoryOffer")?.message)
    #expect(message == #"missing "displayPrice" (the \#(mode) offer's price in the USA storefront's currency)"#)
}

@Test func freeTrialIntroOfferNeedsNoDisplayPrice() throws {
    let catalog = try CatalogLoader.decode(
        storeKitFile(groups: groupWithUnpricedIntroOffer("free")), source: "Trial.storekit")
    let offer = try #require(try product("com.example.gold.monthly", in: catalog).subscription?.introOffer)
    #expect(
        offer
            == IntroOffer(
                paymentMode: .freeTrial, period: SubscriptionPeriod(value: 1, unit: .month), periods: 3, prices: [:]))
}

@Test func payUpFrontIntroOfferKeepsItsPrice() throws {
    let group = version1Group.replacingOccurrences(
        of: #""paymentMode": "payAsYouGo""#, with: #""paymentMode": "payUpFront""#)
    let catalog = try CatalogLoader.decode(storeKitFile(groups: group), source: "UpFront.storekit")
    let offer = try #require(try product("com.example.gold.monthly", in: catalog).subscription?.introOffer)
    #expect(offer.paymentMode == .payUpFront)
    #expect(offer.prices == ["USA": decimal("1.99")])
}

@Test func storeKitFileWithoutProductsIsRefused() throws {
    let error = try #require(catalogError(storeKitFile(), source: "Empty.storekit"))
    #expect(error.problems.count == 1)
    #expect(error.problems[0].message.contains("defines no products"))
}
