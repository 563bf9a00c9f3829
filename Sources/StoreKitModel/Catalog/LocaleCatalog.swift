import Foundation

/// What ICU on this system knows, looked up once.
public enum LocaleCatalog {
    private static let languages = Set(Locale.LanguageCode.isoLanguageCodes.map(\.identifier))
    private static let regions = Set(Locale.Region.isoRegions.map(\.identifier))
    private static let currencies = Set(Locale.commonISOCurrencyCodes)

    /// `language[_Script][_REGION]`, with a language and region ICU knows (`zh_CN`, `zh-Hans_CN`, `fr_CH`).
    public static func isKnownLocale(_ identifier: String) -> Bool {
        let parts = identifier.split(whereSeparator: { $0 == "_" || $0 == "-" }).map(String.init)
        guard let language = parts.first, (1...3).contains(parts.count),
              languages.contains(language), language.allSatisfy(\.isLowercase) else { return false }
        for part in parts.dropFirst() {
            let isScript = part.count == 4 && part.first!.isUppercase && part.dropFirst().allSatisfy(\.isLowercase)
            let isRegion = regions.contains(part) && part.allSatisfy { $0.isUppercase || $0.isNumber }
            guard isScript || isRegion else { return false }
        }
        return true
    }

    public static func isKnownCurrency(_ code: String) -> Bool {
        isUpperAlpha(code, count: 3) && currencies.contains(code)
    }
}
