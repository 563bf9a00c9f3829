import JSONReading
import StoreKitModel

/// Deterministic synthetic catalogs in the native format (docs/catalog-format.md), for benchmarks
/// and stress tests: any number of products of all four types, titles and descriptions in English
/// and Simplified Chinese, prices at realistic App Store price points for every storefront of the
/// repository's products.json, subscription groups, introductory offers, a few products not sold
/// in China and a few removed ones, plus the same storefronts and test accounts as products.json.
///
/// The same `count` and `seed` always give the same bytes, on any machine: the generator uses its
/// own pseudo-random sequence (SplitMix64) and writes the JSON itself in a fixed key order,
/// pretty-printed with two spaces like products.json.
public enum SyntheticCatalog {
    /// Apple allows 10,000 in-app purchases per app; 100,000 is the stress size. Above this the
    /// file would pass `CatalogLoader.maxBytes`.
    public static let maxCount = 250_000

    public static func generate(count: Int, seed: UInt64) -> [UInt8] {
        var generator = Generator(seed: seed)
        var writer = PrettyJSONWriter()
        writer.write(generator.catalog(count: max(1, min(count, maxCount))))
        writer.bytes.append(0x0A)
        return writer.bytes
    }

    /// The storefronts of products.json with its currencies and locales.
    static let storefronts: [(id: String, currency: String, locale: String)] = [
        ("USA", "USD", "en_US"), ("JPN", "JPY", "ja_JP"), ("DEU", "EUR", "de_DE"), ("CHN", "CNY", "zh_CN"),
        ("GBR", "GBP", "en_GB"), ("IND", "INR", "en_IN"), ("BRA", "BRL", "pt_BR"), ("CHE", "CHF", "fr_CH"),
        ("SAU", "SAR", "ar_SA"), ("FRA", "EUR", "fr_FR"),
    ]

    /// App Store price points: each row is one tier in the order of `storefronts`. The six tiers
    /// products.json uses are copied from it; the others follow the same ratios.
    static let tiers: [[String]] = [
        ["0.99", "160", "1.19", "6", "0.99", "89", "5.90", "1.00", "3.99", "1.19"],
        ["1.99", "300", "2.29", "12", "1.99", "179", "10.90", "2.00", "7.99", "2.29"],
        ["2.99", "480", "3.49", "18", "2.99", "249", "16.90", "3.00", "10.99", "3.49"],
        ["3.99", "650", "4.49", "25", "3.99", "349", "21.90", "4.00", "14.99", "4.49"],
        ["4.99", "800", "5.99", "30", "4.99", "449", "27.90", "5.00", "18.99", "5.99"],
        ["6.99", "1100", "7.99", "45", "6.99", "599", "37.90", "7.00", "26.99", "7.99"],
        ["9.99", "1600", "11.99", "68", "9.99", "899", "54.90", "10.00", "37.99", "11.99"],
        ["14.99", "2400", "17.99", "98", "14.99", "1299", "84.90", "15.00", "56.99", "17.99"],
        ["19.99", "3200", "22.99", "128", "19.99", "1799", "109.90", "20.00", "74.99", "22.99"],
        ["29.99", "4800", "34.99", "198", "29.99", "2699", "169.90", "30.00", "112.99", "34.99"],
        ["49.99", "7800", "59.99", "348", "49.99", "4499", "279.90", "50.00", "189.99", "59.99"],
        ["99.99", "15800", "119.99", "698", "99.99", "8999", "549.90", "100.00", "379.99", "119.99"],
    ]

    /// The test accounts of products.json.
    static let accounts: [(name: String, storefront: String, askToBuy: Bool, paymentsAllowed: Bool, note: String)] = [
        ("alice", "USA", false, true, "Default adult account in the United States storefront."),
        ("kenji", "JPN", false, true, "Adult account in the Japan storefront."),
        ("lena", "DEU", false, true, "Adult account in the Germany storefront."),
        ("wei", "CHN", false, true, "Adult account in the China mainland storefront."),
        ("oliver", "GBR", false, true, "Adult account in the United Kingdom storefront."),
        ("priya", "IND", false, true, "Adult account in the India storefront."),
        ("ana", "BRA", false, true, "Adult account in the Brazil storefront."),
        ("luca", "CHE", false, true, "Adult account in the Switzerland storefront."),
        ("omar", "SAU", false, true, "Adult account in the Saudi Arabia storefront."),
        ("chloe", "FRA", false, true, "Adult account in the France storefront."),
        (
            "kid", "USA", true, true,
            "Child in a Family Sharing group; purchases wait for a parent's approval (Ask to Buy)."
        ),
        ("restricted", "USA", false, false, "In-app purchases blocked by Screen Time restrictions."),
    ]

    typealias Word = (en: String, zh: String)

    static let adjectives: [Word] = [
        ("Golden", "黄金"), ("Silver", "白银"), ("Crystal", "水晶"), ("Shadow", "暗影"), ("Frost", "冰霜"),
        ("Ember", "余烬"), ("Royal", "皇家"), ("Ancient", "远古"), ("Mystic", "神秘"), ("Stellar", "星辰"),
        ("Thunder", "雷霆"), ("Jade", "翡翠"), ("Crimson", "赤红"), ("Azure", "蔚蓝"), ("Lunar", "月光"),
        ("Solar", "烈日"), ("Iron", "钢铁"), ("Velvet", "丝绒"), ("Phantom", "幻影"), ("Emerald", "碧玉"),
        ("Storm", "风暴"), ("Sakura", "樱花"), ("Neon", "霓虹"), ("Arctic", "极地"),
    ]

    static let nouns: [Word] = [
        ("Dragon", "巨龙"), ("Knight", "骑士"), ("Phoenix", "凤凰"), ("Tiger", "猛虎"), ("Castle", "城堡"),
        ("Garden", "花园"), ("Forest", "森林"), ("Ocean", "海洋"), ("Comet", "彗星"), ("Wizard", "巫师"),
        ("Samurai", "武士"), ("Fox", "灵狐"), ("Wolf", "苍狼"), ("Lotus", "莲花"), ("Falcon", "猎鹰"),
        ("Racer", "赛车"), ("Pirate", "海盗"), ("Robot", "机器人"), ("Panda", "熊猫"), ("Unicorn", "独角兽"),
        ("Golem", "石魔"), ("Kraken", "海妖"), ("Ninja", "忍者"), ("Griffin", "狮鹫"),
    ]

    /// What a consumable credits: the wallet balance and the word for it.
    static let balances: [(id: String, word: Word, amounts: [Int])] = [
        ("gems", ("Gems", "宝石"), [100, 550, 1200, 2500, 6500, 14000]),
        ("coins", ("Coins", "金币"), [1000, 5000, 12000, 30000, 80000]),
        ("energy", ("Energy", "体力"), [1, 5, 10, 25]),
        ("keys", ("Keys", "钥匙"), [1, 3, 10, 30]),
        ("tickets", ("Tickets", "抽奖券"), [1, 10, 50]),
    ]

    static let unlocks: [Word] = [
        ("Skin", "皮肤"), ("Theme", "主题"), ("Level Pack", "关卡包"), ("Soundtrack", "原声音乐"), ("Avatar", "头像"),
        ("Emote Set", "表情包"), ("Map Pack", "地图包"), ("Expansion", "资料片"),
    ]

    static let periods: [(iso: String, en: String, zh: String)] = [
        ("P1W", "Weekly", "周度"), ("P1M", "Monthly", "月度"), ("P3M", "Quarterly", "季度"),
        ("P6M", "Half-Yearly", "半年"), ("P1Y", "Yearly", "年度"),
    ]

    static let sentences: [Word] = [
        ("Earn rewards twice as fast in every event.", "在每个活动中获得双倍奖励。"),
        ("Works on every device signed in to your account.", "在登录同一账户的所有设备上可用。"),
        ("Includes exclusive effects and a matching profile frame.", "包含专属特效和配套头像框。"),
        ("Perfect for players who want to skip the wait.", "适合不想等待的玩家。"),
        ("Limited edition: available while the season lasts.", "限定版本：仅在本赛季期间提供。"),
        ("Unlocks bonus quests with unique rewards.", "解锁带有独特奖励的额外任务。"),
        ("Adds new music and ambient sounds to the game.", "为游戏加入新的音乐和环境音效。"),
        ("Share it with up to five family members.", "最多可与五位家庭成员共享。"),
    ]
}

extension SyntheticCatalog {
    struct Generator {
        var random: SplitMix64
        var groupCount = 1

        init(seed: UInt64) {
            random = SplitMix64(state: seed)
        }

        mutating func catalog(count: Int) -> JSONValue {
            groupCount = max(1, count / 200)
            var products: [JSONValue] = []
            products.reserveCapacity(count)
            for index in 0..<count { products.append(product(index)) }
            return object([
                ("format", .string("storefront-catalog")),
                ("version", .number("1")),
                ("bundleId", .string("com.example.synthetic")),
                ("languages", .array([.string("en"), .string("zh-Hans")])),
                ("defaultStorefront", .string("USA")),
                (
                    "storefronts",
                    .array(
                        storefronts.map { storefront in
                            object([
                                ("id", .string(storefront.id)), ("currency", .string(storefront.currency)),
                                ("locale", .string(storefront.locale)),
                            ])
                        })
                ),
                (
                    "accounts",
                    .array(
                        accounts.map { account in
                            object([
                                ("name", .string(account.name)), ("storefront", .string(account.storefront)),
                                ("askToBuy", .bool(account.askToBuy)),
                                ("paymentsAllowed", .bool(account.paymentsAllowed)),
                                ("note", .string(account.note)),
                            ])
                        })
                ),
                ("subscriptionGroups", .array((0..<groupCount).map(group))),
                ("products", .array(products)),
            ])
        }

        /// Group titles are derived from the index alone, so they never consume random numbers.
        func group(_ index: Int) -> JSONValue {
            let adjective = adjectives[index % adjectives.count]
            let noun = nouns[(index / adjectives.count) % nouns.count]
            let suffix =
                index < adjectives.count * nouns.count ? "" : " \(index / (adjectives.count * nouns.count) + 1)"
            return object([
                ("id", .string("group.\(index + 1)")),
                (
                    "title",
                    localized("\(adjective.en) \(noun.en) Club\(suffix)", "\(adjective.zh)\(noun.zh)俱乐部\(suffix)")
                ),
            ])
        }

        mutating func product(_ index: Int) -> JSONValue {
            let roll = random.below(100)
            let type =
                roll < 40
                ? ProductType.consumable : roll < 70 ? .nonConsumable : roll < 90 ? .autoRenewable : .nonRenewing
            let adjective = random.pick(adjectives)
            let noun = random.pick(nouns)
            let slug = "\(adjective.en.lowercased())-\(noun.en.lowercased())"
            let unavailable = random.chance(3) ? ["CHN"] : []
            let removed = random.chance(1)
            let sentence = random.pick(sentences)
            let secondLine = random.chance(10)

            var members: [(String, JSONValue)] = []
            let title: Word
            let what: Word
            let tier: Int
            var extra: [(String, JSONValue)] = []
            switch type {
            case .consumable:
                let balance = random.pick(balances)
                let step = random.below(balance.amounts.count)
                let amount = balance.amounts[step]
                title = (
                    "\(adjective.en) \(noun.en) \(amount) \(balance.word.en)",
                    "\(adjective.zh)\(noun.zh) \(amount) \(balance.word.zh)"
                )
                what = (
                    "Adds \(amount) \(balance.word.en.lowercased()) to your wallet.",
                    "向钱包充入 \(amount) \(balance.word.zh)。"
                )
                tier = min(tiers.count - 1, step * 2 + random.below(2))
                extra.append(
                    ("wallet", object([("balance", .string(balance.id)), ("amount", .number(String(amount)))])))
            case .nonConsumable:
                let unlock = random.pick(unlocks)
                title = ("\(adjective.en) \(noun.en) \(unlock.en)", "\(adjective.zh)\(noun.zh)\(unlock.zh)")
                what = (
                    "Unlocks the \(adjective.en.lowercased()) \(noun.en.lowercased()) \(unlock.en.lowercased()) for good.",
                    "永久解锁\(adjective.zh)\(noun.zh)\(unlock.zh)。"
                )
                tier = random.below(tiers.count)
            case .autoRenewable:
                let period = random.pick(periods)
                title = ("\(adjective.en) \(noun.en) Pass \(period.en)", "\(adjective.zh)\(noun.zh)通行证（\(period.zh)）")
                what = (
                    "Every \(adjective.en.lowercased()) \(noun.en.lowercased()) perk, billed \(period.en.lowercased()).",
                    "享受全部\(adjective.zh)\(noun.zh)特权，按\(period.zh)付费。"
                )
                tier =
                    period.iso == "P1Y"
                    ? 8 + random.below(4) : period.iso == "P1W" ? random.below(3) : 2 + random.below(6)
                var subscription: [(String, JSONValue)] = [
                    ("group", .string("group.\(random.below(groupCount) + 1)")),
                    ("period", .string(period.iso)),
                    ("rank", .number(String(random.below(10) + 1))),
                ]
                switch random.below(10) {
                case 0..<3:
                    subscription.append(
                        (
                            "introOffer",
                            object([
                                ("paymentMode", .string("freeTrial")),
                                ("period", .string(random.pick(["P3D", "P1W", "P1M"]))),
                                ("periods", .number("1")),
                            ])
                        ))
                case 3:
                    subscription.append(
                        (
                            "introOffer",
                            object([
                                ("paymentMode", .string("payAsYouGo")), ("period", .string("P1M")),
                                ("periods", .number(String(random.below(3) + 2))),
                                ("prices", prices(tier: max(0, tier - 3), except: unavailable)),
                            ])
                        ))
                case 4:
                    subscription.append(
                        (
                            "introOffer",
                            object([
                                ("paymentMode", .string("payUpFront")), ("period", .string("P3M")),
                                ("periods", .number("1")),
                                ("prices", prices(tier: max(0, tier - 2), except: unavailable)),
                            ])
                        ))
                default:
                    break
                }
                extra.append(("subscription", object(subscription)))
            case .nonRenewing:
                let period = random.pick(Array(periods.dropFirst()))
                title = ("\(adjective.en) \(noun.en) Season Pass", "\(adjective.zh)\(noun.zh)赛季通行证")
                what = (
                    "Every \(adjective.en.lowercased()) \(noun.en.lowercased()) reward for one term; it does not renew.",
                    "一个周期内享受全部\(adjective.zh)\(noun.zh)奖励，到期不会自动续费。"
                )
                tier = 3 + random.below(6)
                extra.append(("subscription", object([("period", .string(period.iso))])))
            }
            let description: Word =
                secondLine
                ? ("\(what.en) \(sentence.en)\nTerms apply.", "\(what.zh)\(sentence.zh)\n适用条款。")
                : ("\(what.en) \(sentence.en)", "\(what.zh)\(sentence.zh)")
            members.append(("id", .string("com.example.synthetic.\(type.rawValue.lowercased()).\(slug).\(index + 1)")))
            members.append(("type", .string(type.rawValue)))
            members.append(("title", localized(title.en, title.zh)))
            members.append(("description", localized(description.en, description.zh)))
            members.append(("prices", prices(tier: tier, except: unavailable)))
            if !unavailable.isEmpty { members.append(("unavailableIn", .array(unavailable.map(JSONValue.string)))) }
            if removed { members.append(("removed", .bool(true))) }
            return object(members + extra)
        }

        func prices(tier: Int, except unavailable: [String]) -> JSONValue {
            let row = tiers[tier]
            return object(
                storefronts.indices.compactMap { column in
                    let id = storefronts[column].id
                    return unavailable.contains(id) ? nil : (id, .string(row[column]))
                })
        }

        func localized(_ english: String, _ chinese: String) -> JSONValue {
            object([("en", .string(english)), ("zh-Hans", .string(chinese))])
        }

        func object(_ members: [(String, JSONValue)]) -> JSONValue {
            .object(JSONObject(members: members.map { (key: $0.0, value: $0.1) }))
        }
    }
}
