import Foundation
import StoreCore
import StoreKitModel

/// StoreKit 2's `Product`: a product the App Store sells in the account's storefront, with its
/// price there and, for an auto-renewable subscription, its subscription info.
public struct Product: Identifiable, Hashable, Sendable {
    public let id: String
    public let type: ProductType
    public let displayName: String
    public let description: String
    public let price: Decimal
    public let displayPrice: String
    public let priceFormatStyle: Decimal.FormatStyle.Currency
    public let isFamilyShareable: Bool
    public let subscription: SubscriptionInfo?
    /// The JSON the store describes the product with.
    public let jsonRepresentation: Data

    /// The products with these identifiers the store sells in the account's storefront, in no
    /// particular order; an identifier it does not know or sell is left out.
    public static func products<Identifiers: Collection>(for identifiers: Identifiers) async throws -> [Product]
    where Identifiers.Element == String {
        let store = try await StoreKitCall.store()
        let response = try await StoreKitCall.run {
            try await store.backend.products(ids: Array(identifiers), storefront: try await store.storefrontNow().id)
        }
        return response.products.compactMap { Product($0, in: response.storefront, store: store) }
    }

    init?(_ product: StoreKitModel.Product, in storefront: StoreKitModel.Storefront, store: OpenedStore) {
        guard let price = product.prices[storefront.id] else { return nil }
        let locale = store.locale(in: storefront)
        let language = Language(tag: locale) ?? .english
        let formatter = PriceFormatter(currency: storefront.currency, locale: locale)
        id = product.id
        type = ProductType(product.type)
        displayName = product.title.text(in: language)
        description = product.description.text(in: language)
        self.price = price
        displayPrice = formatter.string(price)
        priceFormatStyle = Decimal.FormatStyle.Currency(code: storefront.currency, locale: Locale(identifier: locale))
        isFamilyShareable = product.familyShareable
        subscription =
            product.type == .autoRenewable
            ? product.subscription.map { SubscriptionInfo($0, of: product, in: storefront, store: store) } : nil
        jsonRepresentation = ProductJSON(product, price: price, storefront: storefront, language: language).data
    }

    public static func == (lhs: Product, rhs: Product) -> Bool {
        lhs.id == rhs.id && lhs.price == rhs.price && lhs.displayPrice == rhs.displayPrice
            && lhs.displayName == rhs.displayName && lhs.description == rhs.description
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(price)
    }

    /// StoreKit 2's `Product.ProductType`, with Apple's raw values.
    public struct ProductType: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let consumable = ProductType(rawValue: "Consumable")
        public static let nonConsumable = ProductType(rawValue: "Non-Consumable")
        public static let nonRenewable = ProductType(rawValue: "Non-Renewable")
        public static let autoRenewable = ProductType(rawValue: "Auto-Renewable")

        init(_ type: StoreKitModel.ProductType) {
            switch type {
            case .consumable: self = .consumable
            case .nonConsumable: self = .nonConsumable
            case .nonRenewing: self = .nonRenewable
            case .autoRenewable: self = .autoRenewable
            }
        }

        /// As a signed transaction's `type` names it.
        init(signedName: String) {
            switch signedName {
            case "Consumable": self = .consumable
            case "Non-Consumable": self = .nonConsumable
            case "Non-Renewing Subscription": self = .nonRenewable
            default: self = .autoRenewable
            }
        }
    }
}

/// What `jsonRepresentation` holds: the product's fields as the store has them in this storefront.
struct ProductJSON: Encodable {
    let id: String
    let type: String
    let displayName: String
    let description: String
    let price: String
    let currency: String
    let storefront: String

    init(_ product: StoreKitModel.Product, price: Decimal, storefront: StoreKitModel.Storefront, language: Language) {
        id = product.id
        type = product.type.rawValue
        displayName = product.title.text(in: language)
        description = product.description.text(in: language)
        self.price = price.exactString
        currency = storefront.currency
        self.storefront = storefront.id
    }

    var data: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(self)) ?? Data()
    }
}
