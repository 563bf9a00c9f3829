/// App Store storefronts Storefront knows without a catalog's table: used for `.storekit`
/// files, whose `_storefront` setting names a country but not its currency or locale, and for
/// the number Apple gives each storefront (the App Store Server API's `storefrontId`).
public enum StorefrontRegistry {
    /// Each row: alpha-3 id, currency, locale, Apple's storefront number.
    private static let rows: [[Substring]] = table.split(separator: "\n").map { $0.split(separator: " ") }.filter {
        $0.count == 4
    }

    public static let all: [Storefront] = rows.map { fields in
        Storefront(id: String(fields[0]), currency: String(fields[1]), locale: String(fields[2]))
    }

    private static let appleNumbers: [String: String] = Dictionary(rows.map { (String($0[0]), String($0[3])) }) {
        first, _ in first
    }

    public static func storefront(id: String) -> Storefront? {
        all.first { $0.id == id }
    }

    /// Apple's number for a storefront (143441 for USA), as `storefrontId` carries it; nil for a
    /// storefront a catalog made up.
    public static func appleNumber(of id: String) -> String? {
        appleNumbers[id.uppercased()]
    }

    private static let table = """
        USA USD en_US 143441
        CAN CAD en_CA 143455
        MEX MXN es_MX 143468
        BRA BRL pt_BR 143503
        ARG ARS es_AR 143505
        CHL CLP es_CL 143483
        COL COP es_CO 143501
        PER PEN es_PE 143507
        GBR GBP en_GB 143444
        IRL EUR en_IE 143449
        FRA EUR fr_FR 143442
        DEU EUR de_DE 143443
        AUT EUR de_AT 143445
        CHE CHF fr_CH 143459
        ITA EUR it_IT 143450
        ESP EUR es_ES 143454
        PRT EUR pt_PT 143453
        NLD EUR nl_NL 143452
        BEL EUR fr_BE 143446
        LUX EUR fr_LU 143451
        FIN EUR fi_FI 143447
        GRC EUR el_GR 143448
        SWE SEK sv_SE 143456
        NOR NOK nb_NO 143457
        DNK DKK da_DK 143458
        ISL ISK is_IS 143558
        POL PLN pl_PL 143478
        CZE CZK cs_CZ 143489
        HUN HUF hu_HU 143482
        ROU RON ro_RO 143487
        BGR BGN bg_BG 143526
        TUR TRY tr_TR 143480
        RUS RUB ru_RU 143469
        UKR UAH uk_UA 143492
        ISR ILS he_IL 143491
        SAU SAR ar_SA 143479
        ARE AED ar_AE 143481
        QAT QAR ar_QA 143498
        EGY EGP ar_EG 143516
        NGA NGN en_NG 143561
        KEN KES en_KE 143529
        ZAF ZAR en_ZA 143472
        IND INR en_IN 143467
        PAK PKR en_PK 143477
        CHN CNY zh_CN 143465
        HKG HKD zh_HK 143463
        TWN TWD zh_TW 143470
        JPN JPY ja_JP 143462
        KOR KRW ko_KR 143466
        SGP SGD en_SG 143464
        MYS MYR ms_MY 143473
        THA THB th_TH 143475
        VNM VND vi_VN 143471
        IDN IDR id_ID 143476
        PHL PHP en_PH 143474
        AUS AUD en_AU 143460
        NZL NZD en_NZ 143461
        KAZ KZT kk_KZ 143517
        """
}
