import StoreKitModel
import Testing

// MARK: - SKErrorCode

@Test func twentyTwoCodesNumberedZeroToTwentyOne() {
    #expect(SKErrorCode.allCases.count == 22)
    #expect(SKErrorCode.allCases.map(\.rawValue) == Array(0...21))
}

@Test func codesFollowTheHeaderOrder() {
    #expect(SKErrorCode(rawValue: 0) == .unknown)
    #expect(SKErrorCode(rawValue: 2) == .paymentCancelled)
    #expect(SKErrorCode(rawValue: 5) == .storeProductNotAvailable)
    #expect(SKErrorCode(rawValue: 21) == .paymentMethodBindingConfigurationRequired)
    #expect(SKErrorCode(rawValue: 22) == nil)
    #expect(SKErrorCode.paymentCancelled.name == "paymentCancelled")
}

@Test func codeLooksUpByNumberOrName() {
    #expect(SKErrorCode(token: "4") == .paymentNotAllowed)
    #expect(SKErrorCode(token: "paymentNotAllowed") == .paymentNotAllowed)
    #expect(SKErrorCode(token: "21") == .paymentMethodBindingConfigurationRequired)
    #expect(SKErrorCode(token: "0") == .unknown)
    #expect(SKErrorCode(token: "22") == nil)
    #expect(SKErrorCode(token: "-1") == nil)
    #expect(SKErrorCode(token: "PaymentNotAllowed") == nil)
    #expect(SKErrorCode(token: "") == nil)
}

@Test(arguments: Language.allCases)
func everyCodeHasAMessageAndADetail(language: Language) {
    for code in SKErrorCode.allCases {
        let text = code.text(in: language)
        #expect(!text.message.isEmpty, "\(code) in \(language)")
        #expect(!text.detail.isEmpty, "\(code) in \(language)")
    }
}

@Test(arguments: Language.allCases)
func messagesAndDetailsAreDistinctWithinALanguage(language: Language) {
    let texts = SKErrorCode.allCases.map { $0.text(in: language) }
    #expect(Set(texts.map(\.message)).count == texts.count)
    #expect(Set(texts.map(\.detail)).count == texts.count)
}

@Test(arguments: SKErrorCode.allCases)
func englishAndChineseDiffer(code: SKErrorCode) {
    let english = code.text(in: .english)
    let chinese = code.text(in: .simplifiedChinese)
    #expect(english.message != chinese.message)
    #expect(english.detail != chinese.detail)
}

@Test(arguments: SKErrorCode.allCases)
func detailNamesTheCode(code: SKErrorCode) {
    let name = "SKError" + code.name.prefix(1).uppercased() + code.name.dropFirst()
    for language in Language.allCases {
        #expect(code.text(in: language).detail.hasPrefix(name), "\(code) in \(language)")
    }
}

@Test(arguments: [
    (SKErrorCode.unknown, "未知错误"),
    (.clientInvalid, "无法购买"),
    (.paymentCancelled, "取消"),
    (.paymentInvalid, "无效"),
    (.paymentNotAllowed, "设备"),
    (.storeProductNotAvailable, "不可用"),
])
func chineseMessagesUseTheSeedWording(code: SKErrorCode, wording: String) {
    #expect(code.text(in: .simplifiedChinese).message.contains(wording))
}

// MARK: - URLErrorCode

@Test func sevenNetworkCodesWithNegativeRawValues() {
    #expect(URLErrorCode.allCases.count == 7)
    #expect(URLErrorCode.allCases.map(\.rawValue) == [-1001, -1003, -1004, -1005, -1009, -1012, -1200])
    #expect(URLErrorCode.notConnectedToInternet.name == "notConnectedToInternet")
}

@Test(arguments: Language.allCases)
func networkMessagesAreDistinct(language: Language) {
    let texts = URLErrorCode.allCases.map { $0.text(in: language) }
    #expect(Set(texts.map(\.message)).count == 7)
    #expect(Set(texts.map(\.detail)).count == 7)
    #expect(texts.allSatisfy { !$0.message.isEmpty && !$0.detail.isEmpty })
}

@Test func storeErrorReportsDomainCodeAndName() {
    let cancelled = StoreError.storeKit(.paymentCancelled)
    #expect(cancelled.domain == "SKErrorDomain")
    #expect(cancelled.code == 2)
    #expect(cancelled.name == "paymentCancelled")
    let offline = StoreError.network(.notConnectedToInternet)
    #expect(offline.domain == "NSURLErrorDomain")
    #expect(offline.code == -1009)
    #expect(offline.text(in: .english) == URLErrorCode.notConnectedToInternet.text(in: .english))
}

// MARK: - Language

@Test func languageFlagWinsOverTheEnvironment() {
    #expect(Language.resolve(flag: "zh-Hans", environment: ["LC_ALL": "en_US.UTF-8"]) == .simplifiedChinese)
    #expect(Language.resolve(flag: "en", environment: ["LC_ALL": "zh_CN.UTF-8", "LANG": "zh_CN.UTF-8"]) == .english)
}

@Test func lcAllWinsOverLang() {
    #expect(
        Language.resolve(flag: nil, environment: ["LC_ALL": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"]) == .simplifiedChinese
    )
    #expect(Language.resolve(flag: nil, environment: ["LC_ALL": "en_US.UTF-8", "LANG": "zh_CN.UTF-8"]) == .english)
    #expect(Language.resolve(flag: nil, environment: ["LC_ALL": "", "LANG": "zh_CN.UTF-8"]) == .simplifiedChinese)
}

@Test func chineseLocaleMeansSimplifiedChinese() {
    #expect(Language.resolve(flag: nil, environment: ["LANG": "zh_CN.UTF-8"]) == .simplifiedChinese)
    #expect(
        Language.resolve(flag: nil, environment: ["LC_MESSAGES": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"])
            == .simplifiedChinese)
}

@Test func cLocaleAndEmptyEnvironmentMeanEnglish() {
    #expect(Language.resolve(flag: nil, environment: ["LANG": "C"]) == .english)
    #expect(Language.resolve(flag: nil, environment: ["LC_ALL": "C", "LANG": "zh_CN.UTF-8"]) == .english)
    #expect(Language.resolve(flag: nil, environment: ["LANG": "POSIX"]) == .english)
    #expect(Language.resolve(flag: nil, environment: [:]) == .english)
}

@Test(arguments: ["klingon", "", "fr", "english"])
func unknownLanguageFlagIsNil(flag: String) {
    #expect(Language.resolve(flag: flag, environment: ["LANG": "en_US.UTF-8"]) == nil)
}

@Test(arguments: [
    ("en", Language.english), ("en_US", .english), ("EN-gb", .english),
    ("zh-Hans", .simplifiedChinese), ("zh_CN", .simplifiedChinese), ("zh", .simplifiedChinese),
])
func languageTagsAreRecognised(tag: String, language: Language) {
    #expect(Language(tag: tag) == language)
}
