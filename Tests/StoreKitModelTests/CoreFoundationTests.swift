import CellGrid
import Foundation
import StoreKitModel
import Testing

@Suite struct CorePriceTests {
    @Test(arguments: [
        ("en_US", "USD", "1234.99", "$1,234.99"),
        ("ja_JP", "JPY", "160", "¥160"),
        ("ja_JP", "JPY", "160.5", "¥160"),
        ("de_DE", "EUR", "1.19", "1,19\u{A0}€"),
        ("fr_CH", "CHF", "1234.99", "CHF\u{A0}1\u{202F}234,99"),
        ("ar_SA", "SAR", "3.99", "\u{200F}٣٫٩٩\u{A0}ر.س.\u{200F}"),
        ("zh_CN", "CNY", "6", "¥6.00"),
        ("pt_BR", "BRL", "1234.99", "R$\u{A0}1.234,99"),
        ("en_IN", "INR", "89", "₹89.00"),
        ("en_GB", "GBP", "0.99", "£0.99"),
    ])
    func formatsInTheStorefrontCurrencyAndLocale(locale: String, currency: String, amount: String, expected: String)
        throws
    {
        let value = try #require(Decimal(string: amount, locale: Locale(identifier: "en_US_POSIX")))
        #expect(PriceFormatter(currency: currency, locale: locale).string(value) == expected)
    }

    @Test func subscriptionsShowTheirPeriod() {
        let month = SubscriptionPeriod(value: 1, unit: .month)
        #expect(
            PriceFormatter(currency: "USD", locale: "en_US").string(
                Decimal(string: "4.99")!, period: month, language: .english) == "$4.99/month")
        #expect(
            PriceFormatter(currency: "CNY", locale: "zh_CN").string(30, period: month, language: .simplifiedChinese)
                == "¥30.00/月")
        #expect(SubscriptionPeriod(iso8601: "P3M")?.unitLabel(in: .english) == "3 months")
        #expect(SubscriptionPeriod(iso8601: "P1Q") == nil)
    }

    @Test func cellWidthCountsTerminalCells() {
        #expect(CellWidth.of("Gems") == 4)
        #expect(CellWidth.of("宝石") == 4)
        #expect(CellWidth.of("1,19\u{A0}€") == 6)
        #expect(CellWidth.of("\u{200F}٣٫٩٩\u{A0}ر.س.\u{200F}") == 9)
        #expect(CellWidth.of("e\u{301}") == 1)
        #expect(CellWidth.of("💎") == 2)
        #expect(CellWidth.of(CellWidth.truncate("高级会员（月度）", to: 7)) <= 7)
        #expect(CellWidth.truncate("高级会员（月度）", to: 7).hasSuffix("…"))
        #expect(CellWidth.of(CellWidth.pad("宝石", to: 9)) == 9)
    }
}

@Suite struct CoreFixtureTests {
    @Test func readsTheVersion4SampleWithItsSettings() throws {
        let catalog = try CatalogLoader.decode(
            Array(try Data(contentsOf: FixtureFiles.url("SKDemo-Products.storekit"))),
            source: "SKDemo-Products.storekit")
        #expect(catalog.products.count == 20)
        #expect(catalog.settings.timeRate == .oneRenewalEvery30Seconds)
        #expect(catalog.settings.locale == "en_US")
        #expect(catalog.storefronts.map(\.id) == ["USA"])
        let fuel = try #require(catalog.product(id: "consumable.fuel.87"))
        #expect(fuel.prices["USA"] == Decimal(string: "0.99"))
        #expect(catalog.products.filter { $0.type == .autoRenewable }.count == 6)
    }

    @Test func readsTheVersion3SampleWithIntroOffers() throws {
        let catalog = try CatalogLoader.decode(
            Array(try Data(contentsOf: FixtureFiles.url("BackyardBirds-Store.storekit"))),
            source: "BackyardBirds-Store.storekit")
        #expect(catalog.products.count == 9)
        let premium = try #require(catalog.product(id: "pass.premium"))
        #expect(premium.subscription?.period.iso8601 == "P1M")
        #expect(premium.subscription?.rank == 1)
        #expect(premium.subscription?.introOffer?.paymentMode == .freeTrial)
        #expect(premium.title.text(in: .english) == "Premium")
    }
}

@Suite struct CoreErrorTests {
    @Test func twentyTwoCodesInHeaderOrderWithDistinctMessagesInBothLanguages() {
        #expect(SKErrorCode.allCases.map(\.rawValue) == Array(0...21))
        #expect(SKErrorCode(rawValue: 2) == .paymentCancelled)
        #expect(SKErrorCode(rawValue: 21) == .paymentMethodBindingConfigurationRequired)
        for language in Language.allCases {
            let texts = SKErrorCode.allCases.map { $0.text(in: language) }
            #expect(Set(texts.map(\.message)).count == 22)
            #expect(Set(texts.map(\.detail)).count == 22)
        }
        for code in SKErrorCode.allCases {
            #expect(code.text(in: .english).message != code.text(in: .simplifiedChinese).message)
        }
        #expect(SKErrorCode.unknown.text(in: .simplifiedChinese).message.contains("未知错误"))
        #expect(SKErrorCode.storeProductNotAvailable.text(in: .simplifiedChinese).message.contains("不可用"))
    }

    @Test func languageComesFromTheFlagThenTheEnvironment() {
        #expect(Language.resolve(flag: "zh-Hans", environment: ["LANG": "en_US.UTF-8"]) == .simplifiedChinese)
        #expect(Language.resolve(flag: nil, environment: ["LANG": "zh_CN.UTF-8"]) == .simplifiedChinese)
        #expect(Language.resolve(flag: nil, environment: ["LC_ALL": "C", "LANG": "zh_CN.UTF-8"]) == .english)
        #expect(Language.resolve(flag: nil, environment: [:]) == .english)
        #expect(Language.resolve(flag: "klingon", environment: [:]) == nil)
    }
}

@Suite struct CoreProductsRequestTests {
    @Test func answersLikeSKProductsRequest() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let catalog = try CatalogLoader.decode(
            Array(try Data(contentsOf: root.appendingPathComponent("products.json"))), source: "products.json")
        let china = try #require(catalog.storefront(id: "CHN"))
        let ids = [
            "com.example.storefront.gems.100", "nope", "com.example.storefront.levels.classic",
            "com.example.storefront.pro.lifetime", "com.example.storefront.gems.100",
        ]
        let response = catalog.request(ids: ids, storefront: china)
        #expect(response.products.map(\.id) == ["com.example.storefront.gems.100"])
        #expect(
            response.invalidProductIdentifiers == [
                "nope", "com.example.storefront.levels.classic", "com.example.storefront.pro.lifetime",
            ])
        #expect(response.unavailableInStorefront == ["com.example.storefront.pro.lifetime"])
        #expect(catalog.request(ids: [], storefront: china).products.isEmpty)
    }
}
