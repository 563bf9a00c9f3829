import StoreKitModel

/// The scenarios `--scenario NAME` knows, written in the format a team writes its own in (see
/// docs/scenario-format.md), for the default catalog, products.json.
public enum BuiltInScenarios {
    /// Each scenario's JSON text, in the order `storefront scenarios` lists them.
    public static let sources: [(name: String, json: String)] = [
        (
            "lost-order",
            """
            {
              "name": "lost-order",
              "description": {
                "en": "A lost order: paid for 550 gems, the app was killed before it delivered or verified; launching recovers it",
                "zh-Hans": "丢单：已付款购买 550 宝石，应用在交付和验证前被杀掉；启动时找回这笔订单"
              },
              "steps": [
                {"buy": "com.example.storefront.gems.550", "app": "killed-after-payment"}
              ]
            }
            """
        ),
        (
            "verification-down",
            """
            {
              "name": "verification-down",
              "description": {
                "en": "The app's verification server is down: Remove Ads is delivered but stays unfinished, retried with backoff",
                "zh-Hans": "应用的验证服务器宕机：“去除广告”已交付但未完成交易，按退避间隔重试验证"
              },
              "controls": {"verification": "unreachable"},
              "steps": [
                {"buy": "com.example.storefront.removeads"}
              ]
            }
            """
        ),
        (
            "unfinished-at-launch",
            """
            {
              "name": "unfinished-at-launch",
              "description": {
                "en": "An unfinished transaction at launch: 100 gems delivered, never finished; the queue offers it again and nothing is credited twice",
                "zh-Hans": "启动时有未完成的交易：100 宝石已交付但从未完成；队列再次提供它，不会重复入账"
              },
              "steps": [
                {"buy": "com.example.storefront.gems.100", "app": "killed-after-delivery"}
              ]
            }
            """
        ),
        (
            "crash-loop",
            """
            {
              "name": "crash-loop",
              "description": {
                "en": "A crash loop: the app crashes delivering 1,200 gems, the transaction stays unfinished, and every launch crashes again",
                "zh-Hans": "崩溃循环：应用在交付 1,200 宝石时崩溃，交易一直未完成，每次启动都再次崩溃"
              },
              "app": {"crashesDelivering": ["com.example.storefront.gems.1200"]},
              "steps": [
                {"buy": "com.example.storefront.gems.1200", "app": "killed-after-payment"}
              ]
            }
            """
        ),
        (
            "ask-to-buy-pending",
            """
            {
              "name": "ask-to-buy-pending",
              "description": {
                "en": "Ask to Buy pending: the child account asked for the Dark Theme and waits for a parent's approval",
                "zh-Hans": "“询问购买”待批准：儿童账户申请购买深色主题，正在等待家长批准"
              },
              "controls": {"account": "kid"},
              "steps": [
                {"buy": "com.example.storefront.theme.dark"}
              ]
            }
            """
        ),
        (
            "interrupted-purchase",
            """
            {
              "name": "interrupted-purchase",
              "description": {
                "en": "An interrupted purchase: buying Remove Ads needs an action outside the app; it failed for now and waits to be resolved",
                "zh-Hans": "中断的购买：购买“去除广告”需要在应用外完成操作；暂时失败，等待处理"
              },
              "steps": [
                {"buy": "com.example.storefront.removeads", "outcome": "interrupted"}
              ]
            }
            """
        ),
        (
            "order-id-dropped",
            """
            {
              "name": "order-id-dropped",
              "description": {
                "en": "applicationUsername dropped: the paid 100 gems come back without the app's order id; the app matches its order by account and product",
                "zh-Hans": "applicationUsername 丢失：已付款的 100 宝石返回时没有应用的订单号；应用按账户和商品匹配订单"
              },
              "controls": {"drop-order-id": "on"},
              "steps": [
                {"buy": "com.example.storefront.gems.100", "app": "killed-after-payment"}
              ]
            }
            """
        ),
        (
            "replayed-receipt",
            """
            {
              "name": "replayed-receipt",
              "description": {
                "en": "A replayed receipt: another device of the account verified these 100 gems first; this device's delivery is taken back",
                "zh-Hans": "重放的收据：同一账户的另一台设备先验证了这 100 宝石；本设备的交付被收回"
              },
              "steps": [
                {"buy": "com.example.storefront.gems.100", "app": "killed-after-delivery"},
                {"launch": "other-device"}
              ]
            }
            """
        ),
        (
            "billing-retry",
            """
            {
              "name": "billing-retry",
              "description": {
                "en": "A subscription in billing retry: Premium Monthly failed to renew for a billing issue; access has lapsed while the App Store retries",
                "zh-Hans": "订阅处于计费重试：高级会员月度版因计费问题续订失败；App Store 重试期间无法使用"
              },
              "controls": {"billing-issues": "on"},
              "steps": [
                {"buy": "com.example.storefront.premium.monthly"},
                {"manage": "renew last"}
              ]
            }
            """
        ),
        (
            "grace-period",
            """
            {
              "name": "grace-period",
              "description": {
                "en": "A subscription in its billing grace period: the renewal failed to bill, and access continues while the App Store retries",
                "zh-Hans": "订阅处于计费宽限期：续订扣款失败，App Store 重试期间仍可使用"
              },
              "controls": {"billing-issues": "on", "grace-period": "on"},
              "steps": [
                {"buy": "com.example.storefront.premium.monthly"},
                {"manage": "renew last"}
              ]
            }
            """
        ),
        (
            "price-increase",
            """
            {
              "name": "price-increase",
              "description": {
                "en": "A price increase pending: Premium Monthly's price goes up at renewal, waiting for the customer's consent",
                "zh-Hans": "待同意的涨价：高级会员月度版将在续订时涨价，等待顾客同意"
              },
              "steps": [
                {"buy": "com.example.storefront.premium.monthly"},
                {"manage": "price-increase request last"}
              ]
            }
            """
        ),
        (
            "just-refunded",
            """
            {
              "name": "just-refunded",
              "description": {
                "en": "Just refunded: 550 gems were refunded while the app was closed; launching takes them back",
                "zh-Hans": "刚刚退款：应用关闭期间 550 宝石被退款；启动时收回这些宝石"
              },
              "steps": [
                {"buy": "com.example.storefront.gems.550"},
                {"manage": "refund last"}
              ]
            }
            """
        ),
        (
            "server-finished",
            """
            {
              "name": "server-finished",
              "description": {
                "en": "The server finished it: Remove Ads was delivered, the app was killed before it finished; the app's server finished it (Finish Transaction), so the launch's queue no longer offers it",
                "zh-Hans": "由服务器完成：“去除广告”已交付，应用在完成交易前被杀掉；应用的服务器完成了该交易（Finish Transaction），启动时队列不再提供它"
              },
              "steps": [
                {"buy": "com.example.storefront.removeads", "app": "killed-after-delivery"},
                {"manage": "server-finish last"}
              ]
            }
            """
        ),
        (
            "commitment-cancelled",
            """
            {
              "name": "commitment-cancelled",
              "description": {
                "en": "A cancelled commitment: lena pays Premium Yearly monthly with a 12-month commitment, at payment 3 of 12 she turns auto-renew off; the nine payments left are still billed, then it expires",
                "zh-Hans": "已取消的承诺：lena 以 12 个月承诺按月支付“高级会员（年度）”，在第 3 期（共 12 期）时关闭自动续期；其余 9 期仍会扣费，之后到期"
              },
              "controls": {"account": "lena"},
              "steps": [
                {"buy": "com.example.storefront.premium.yearly", "billingPlan": "monthly"},
                {"manage": "renew last"},
                {"manage": "renew last"},
                {"manage": "auto-renew off last"}
              ]
            }
            """
        ),
        (
            "family-sharing-stopped",
            """
            {
              "name": "family-sharing-stopped",
              "description": {
                "en": "Family Sharing stopped: alice shared the Dark Theme with kid, then stopped sharing it; kid's launch takes it back (REVOKE)",
                "zh-Hans": "家人共享已停止：alice 曾与 kid 共享深色主题，随后停止共享；kid 启动时收回该项目（REVOKE）"
              },
              "controls": {"account": "kid"},
              "steps": [
                {"buy": "com.example.storefront.theme.dark", "account": "alice", "device": "other-device"},
                {"launch": "this-device"},
                {"manage": "stop-sharing last"}
              ]
            }
            """
        ),
        (
            "win-back-offer",
            """
            {
              "name": "win-back-offer",
              "description": {
                "en": "A win-back offer: Premium Monthly lapsed with auto-renew off, so StoreKit's win-back offer message opens at launch (Enter subscribes with the offer)",
                "zh-Hans": "赢回优惠：高级会员月度版关闭自动续订后已过期，启动时打开 StoreKit 的赢回优惠消息（Enter 以该优惠订阅）"
              },
              "steps": [
                {"buy": "com.example.storefront.premium.monthly"},
                {"manage": "auto-renew off last"},
                {"manage": "expire last"}
              ]
            }
            """
        ),
        (
            "promoted-purchase",
            """
            {
              "name": "promoted-purchase",
              "description": {
                "en": "The App Store's side of the account: a generic StoreKit message opens at launch, then the promoted purchase of Remove Ads started on the App Store (Enter buys it)",
                "zh-Hans": "App Store 一侧：启动时打开一条 generic StoreKit 消息，随后是在 App Store 开始的推广购买“去除广告”（Enter 购买）"
              },
              "steps": [
                {"manage": "message generic --account alice"},
                {"manage": "purchase-intent com.example.storefront.removeads --account alice"}
              ]
            }
            """
        ),
        (
            "restricted-account",
            """
            {
              "name": "restricted-account",
              "description": {
                "en": "A restricted account: Screen Time blocks in-app purchases, so every payment fails with SKError 4 (payment not allowed)",
                "zh-Hans": "受限账户：屏幕使用时间禁止 App 内购买，每笔付款都以 SKError 4（不允许付款）失败"
              },
              "controls": {"account": "restricted"}
            }
            """
        ),
        (
            "not-sold-here",
            """
            {
              "name": "not-sold-here",
              "description": {
                "en": "A storefront where a product is not sold: in China mainland, Lifetime Pro is not for sale and comes back as an invalid product id",
                "zh-Hans": "商品未在此店面销售：在中国大陆店面，“终身专业版”不出售，作为无效商品 ID 返回"
              },
              "controls": {"account": "wei"}
            }
            """
        ),
    ]

    /// The scenario named `name`, decoded; nil for a name that is not built in.
    public static func scenario(named name: String, catalog: Catalog?) -> Result<Scenario, CatalogError>? {
        guard let source = sources.first(where: { $0.name == name }) else { return nil }
        return ScenarioText.read(source.json, source: "built-in scenario \(name)", yaml: false, catalog: catalog)
    }

    public static var names: [String] { sources.map(\.name) }
}
