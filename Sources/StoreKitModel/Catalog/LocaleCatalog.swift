import Foundation

/// What ICU on this system knows, looked up once.
public enum LocaleCatalog {
    private static let languages = Set(Locale.LanguageCode.isoLanguageCodes.map(\.identifier))
    private static let currencies = Set(Locale.commonISOCurrencyCodes)
    /// ICU's own table, built only for a code missing from `listedRegions`: building it loads all of
    /// ICU's region data, 1–2 ms, a tenth of the time to the first frame.
    private static let icuRegions = Set(Locale.Region.isoRegions.map(\.identifier))

    /// The regions ICU knew when this was written (`Locale.Region.isoRegions`: ISO 3166-1 and the
    /// UN M.49 areas such as 419). A test checks that this system's ICU still knows every one, so a
    /// code accepted here is one the formatter knows. Split as bytes: `Character.isWhitespace`
    /// would look up Unicode properties for each of the 1,200 characters, at every start.
    static let listedRegions = Set(
        """
        001 002 003 005 009 011 013 014 015 017 018 019 021 029 030 034 035 039 053 054 057 061 142 143 145 150 151 154 155 202 419
        AC AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ
        CA CC CD CF CG CH CI CK CL CM CN CO CP CQ CR CU CV CW CX CY CZ DE DG DJ DK DM DO DZ EA EC EE EG EH ER ES ET EU EZ
        FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU IC ID IE IL IM IN IO
        IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK
        ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR
        PS PT PW PY QA QO RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TA TC TD TF TG TH
        TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM UN US UY UZ VA VC VE VG VI VN VU WF WS XK YE YT ZA ZM ZW
        """.utf8.split(whereSeparator: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\n") }).map {
            String(decoding: $0, as: UTF8.self)
        })

    /// `language[_Script][_REGION]`, with a language and region ICU knows (`zh_CN`, `zh-Hans_CN`, `fr_CH`).
    public static func isKnownLocale(_ identifier: String) -> Bool {
        let parts = identifier.split(whereSeparator: { $0 == "_" || $0 == "-" }).map(String.init)
        guard let language = parts.first, (1...3).contains(parts.count),
            languages.contains(language), language.allSatisfy(\.isLowercase)
        else { return false }
        for part in parts.dropFirst() {
            let isScript = part.count == 4 && part.first!.isUppercase && part.dropFirst().allSatisfy(\.isLowercase)
            guard isScript || isKnownRegion(part) else { return false }
        }
        return true
    }

    static func isKnownRegion(_ code: String) -> Bool {
        guard code.allSatisfy({ $0.isUppercase || $0.isNumber }) else { return false }
        return listedRegions.contains(code) || icuRegions.contains(code)
    }

    public static func isKnownCurrency(_ code: String) -> Bool {
        isUpperAlpha(code, count: 3) && currencies.contains(code)
    }
}
