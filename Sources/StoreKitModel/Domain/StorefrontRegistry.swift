/// App Store storefronts Storefront knows without a catalog's table: used for `.storekit`
/// files, whose `_storefront` setting names a country but not its currency or locale.
public enum StorefrontRegistry {
    public static let all: [Storefront] = table.split(separator: "\n").compactMap { line in
        let fields = line.split(separator: " ")
        guard fields.count == 3 else { return nil }
        return Storefront(id: String(fields[0]), currency: String(fields[1]), locale: String(fields[2]))
    }

    public static func storefront(id: String) -> Storefront? {
        all.first { $0.id == id }
    }

    private static let table = """
    USA USD en_US
    CAN CAD en_CA
    MEX MXN es_MX
    BRA BRL pt_BR
    ARG ARS es_AR
    CHL CLP es_CL
    COL COP es_CO
    PER PEN es_PE
    GBR GBP en_GB
    IRL EUR en_IE
    FRA EUR fr_FR
    DEU EUR de_DE
    AUT EUR de_AT
    CHE CHF fr_CH
    ITA EUR it_IT
    ESP EUR es_ES
    PRT EUR pt_PT
    NLD EUR nl_NL
    BEL EUR fr_BE
    LUX EUR fr_LU
    FIN EUR fi_FI
    GRC EUR el_GR
    SWE SEK sv_SE
    NOR NOK nb_NO
    DNK DKK da_DK
    ISL ISK is_IS
    POL PLN pl_PL
    CZE CZK cs_CZ
    HUN HUF hu_HU
    ROU RON ro_RO
    BGR BGN bg_BG
    TUR TRY tr_TR
    RUS RUB ru_RU
    UKR UAH uk_UA
    ISR ILS he_IL
    SAU SAR ar_SA
    ARE AED ar_AE
    QAT QAR ar_QA
    EGY EGP ar_EG
    NGA NGN en_NG
    KEN KES en_KE
    ZAF ZAR en_ZA
    IND INR en_IN
    PAK PKR en_PK
    CHN CNY zh_CN
    HKG HKD zh_HK
    TWN TWD zh_TW
    JPN JPY ja_JP
    KOR KRW ko_KR
    SGP SGD en_SG
    MYS MYR ms_MY
    THA THB th_TH
    VNM VND vi_VN
    IDN IDR id_ID
    PHL PHP en_PH
    AUS AUD en_AU
    NZL NZD en_NZ
    KAZ KZT kk_KZ
    """
}
