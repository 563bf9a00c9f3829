/// Test-session defaults a catalog can carry (Xcode's `.storekit` `settings` block).
public struct CatalogSettings: Sendable, Hashable {
    public var askToBuy: Bool = false
    public var failTransactions: Bool = false
    /// `_billingIssuesEnabled` (or `_renewalBillingIssuesEnabled`): renewals enter billing retry.
    public var billingIssues: Bool = false
    /// `_billingGracePeriodEnabled`.
    public var gracePeriod: Bool = false
    public var timeRate: TimeRate = .realTime
    /// A locale that overrides the storefront's default (`_locale`).
    public var locale: String?
    /// The In-App Purchase key promotional offers are signed with, as the app's server has it.
    public var offerSigningKey: OfferSigningKey?
    /// Per-API simulated errors turned on in the file (`_storeKitErrors`, `_failTransactionsEnabled`),
    /// by `manage set api-error` names, each failing with `SKError.unknown` as Xcode's generic error.
    public var apiErrors: [String] = []
    /// What the import changed or left out, each one line, for the user to read at load.
    public var notices: [String] = []
    /// The app's versions and dates, for AppTransaction (`app` in `products.json`).
    public var app = AppRelease.simulated

    public init() {}
}

/// A P-256 private key (PEM, PKCS#8) and the id App Store Connect gave it.
public struct OfferSigningKey: Sendable, Hashable {
    public let keyId: String
    public let privateKeyPEM: String

    public init(keyId: String, privateKeyPEM: String) {
        self.keyId = keyId
        self.privateKeyPEM = privateKeyPEM
    }
}

/// A validated catalog: every product, storefront and account, indexed by id.
public struct Catalog: Sendable, Equatable {
    public let bundleId: String
    public let languages: [String]
    public let defaultStorefront: String
    public let storefronts: [Storefront]
    public let accounts: [Account]
    public let subscriptionGroups: [SubscriptionGroup]
    public let products: [Product]
    public let settings: CatalogSettings
    private let productIndex: [String: Int]
    private let storefrontIndex: [String: Int]

    public init(
        bundleId: String, languages: [String], defaultStorefront: String, storefronts: [Storefront],
        accounts: [Account], subscriptionGroups: [SubscriptionGroup], products: [Product],
        settings: CatalogSettings = CatalogSettings()
    ) {
        // By position, so each element's id is read in place rather than the element copied.
        let index = Dictionary(
            products.indices.lazy.map { (products[$0].id, $0) }, uniquingKeysWith: { first, _ in first })
        self.init(
            bundleId: bundleId, languages: languages, defaultStorefront: defaultStorefront, storefronts: storefronts,
            accounts: accounts, subscriptionGroups: subscriptionGroups, products: products, productIndex: index,
            settings: settings)
    }

    /// `productIndex`: each product's position by id, already known to the decoder that read them.
    init(
        bundleId: String, languages: [String], defaultStorefront: String, storefronts: [Storefront],
        accounts: [Account], subscriptionGroups: [SubscriptionGroup], products: [Product], productIndex: [String: Int],
        settings: CatalogSettings = CatalogSettings()
    ) {
        self.bundleId = bundleId
        self.languages = languages
        self.defaultStorefront = defaultStorefront
        self.storefronts = storefronts
        self.accounts = accounts
        self.subscriptionGroups = subscriptionGroups
        self.products = products
        self.settings = settings
        self.productIndex = productIndex
        storefrontIndex = Dictionary(
            storefronts.indices.lazy.map { (storefronts[$0].id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// No id is written twice (the index keeps one entry per id).
    var hasUniqueIds: Bool { productIndex.count == products.count }

    /// The product, and its offer, that an offer code redeems; nil when no product has it.
    public func codeOffer(_ code: String) -> (product: Product, offer: SubscriptionOffer)? {
        for product in products {
            if let offer = product.subscription?.offer(code: code) { return (product, offer) }
        }
        return nil
    }

    /// The consumable, non-consumable or non-renewing subscription, and its offer, that an offer
    /// code redeems; nil when no such product has it.
    public func oneTimeCodeOffer(_ code: String) -> (product: Product, offer: OneTimeOffer)? {
        for product in products {
            if let offer = product.codeOffer(code: code) { return (product, offer) }
        }
        return nil
    }

    /// The product an offer code redeems, of whatever type; nil when no product has it.
    public func productRedeemed(by code: String) -> Product? {
        codeOffer(code)?.product ?? oneTimeCodeOffer(code)?.product
    }

    public func product(id: String) -> Product? {
        position(of: id).map { products[$0] }
    }

    /// Where the product with this id is in `products`.
    func position(of id: String) -> Int? {
        productIndex[id]
    }

    public func storefront(id: String) -> Storefront? {
        storefrontIndex[id].map { storefronts[$0] }
    }

    /// The named account, including the generic default of a catalog that lists none.
    public func account(named name: String) -> Account? {
        accounts.first { $0.name == name } ?? (name == defaultAccount.name ? defaultAccount : nil)
    }

    /// The account used when none is named: the first one, else a generic account in the default storefront.
    public var defaultAccount: Account {
        accounts.first ?? Account(name: "tester", storefront: defaultStorefront)
    }

    public func group(id: String) -> SubscriptionGroup? {
        subscriptionGroups.first { $0.id == id }
    }
}
