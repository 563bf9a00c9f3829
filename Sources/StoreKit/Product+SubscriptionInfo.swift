import Foundation
import StoreCore
import StoreKitModel

extension Product {
    /// StoreKit 2's `Product.SubscriptionInfo`: an auto-renewable subscription's group, period,
    /// offers and pricing terms in the account's storefront.
    public struct SubscriptionInfo: Hashable, Sendable {
        public typealias BillingPeriod = SubscriptionPeriod

        public let subscriptionGroupID: String
        public let groupDisplayName: String
        /// The level within its group: 1 is the highest.
        public let groupLevel: Int
        public let subscriptionPeriod: SubscriptionPeriod
        public let introductoryOffer: SubscriptionOffer?
        public let promotionalOffers: [SubscriptionOffer]
        public let winBackOffers: [SubscriptionOffer]
        /// One entry per billing plan: paid up front always, monthly with a 12-month commitment
        /// where the product has one and the storefront offers it.
        public let pricingTerms: [PricingTerms]
        let productID: String

        init(
            _ info: StoreKitModel.SubscriptionInfo, of product: StoreKitModel.Product,
            in storefront: StoreKitModel.Storefront, store: OpenedStore
        ) {
            let locale = store.locale(in: storefront)
            let language = Language(tag: locale) ?? .english
            let formatter = PriceFormatter(currency: storefront.currency, locale: locale)
            let group = info.group ?? product.id
            productID = product.id
            subscriptionGroupID = group
            groupDisplayName = store.catalog.group(id: group)?.title.text(in: language) ?? group
            groupLevel = info.rank ?? 1
            subscriptionPeriod = SubscriptionPeriod(info.period)
            introductoryOffer = info.introOffer.flatMap {
                SubscriptionOffer(id: nil, type: .introductory, terms: $0, in: storefront, formatter: formatter)
            }
            let upFront = info.offers.filter { $0.billingPlan == .upFront }
            promotionalOffers = upFront.filter { $0.kind == .promotional }.compactMap {
                SubscriptionOffer(id: $0.id, type: .promotional, terms: $0.terms, in: storefront, formatter: formatter)
            }
            winBackOffers = upFront.filter { $0.kind == .winBack }.compactMap {
                SubscriptionOffer(id: $0.id, type: .winBack, terms: $0.terms, in: storefront, formatter: formatter)
            }
            pricingTerms = PricingTerms.all(of: product, info: info, in: storefront, formatter: formatter)
        }

        /// Whether the account signed in may still take an introductory offer in this group.
        public var isEligibleForIntroOffer: Bool {
            get async { await Self.isEligibleForIntroOffer(for: subscriptionGroupID) }
        }

        /// Whether the account has never had an introductory offer, nor a subscription, in the group.
        public static func isEligibleForIntroOffer(for groupID: String) async -> Bool {
            guard let store = try? await StoreKitCall.store(),
                let history = try? await StoreKitCall.offerHistory(store)
            else { return false }
            return history.groups[groupID]?.status ?? .never == .never
        }
    }

    /// StoreKit 2's `Product.SubscriptionPeriod`.
    public struct SubscriptionPeriod: Hashable, Sendable {
        public enum Unit: Int, Hashable, Sendable, CaseIterable {
            case day, week, month, year
        }

        public let unit: Unit
        public let value: Int

        init(_ period: StoreKitModel.SubscriptionPeriod) {
            value = period.value
            switch period.unit {
            case .day: unit = .day
            case .week: unit = .week
            case .month: unit = .month
            case .year: unit = .year
            }
        }
    }

    /// StoreKit 2's `Product.SubscriptionOffer`: an introductory, promotional or win-back offer
    /// in the account's storefront.
    public struct SubscriptionOffer: Hashable, Sendable {
        public struct OfferType: RawRepresentable, Hashable, Sendable {
            public let rawValue: String
            public init(rawValue: String) { self.rawValue = rawValue }
            public static let introductory = OfferType(rawValue: "introductory")
            public static let promotional = OfferType(rawValue: "promotional")
            public static let winBack = OfferType(rawValue: "winBack")
        }

        public struct PaymentMode: RawRepresentable, Hashable, Sendable {
            public let rawValue: String
            public init(rawValue: String) { self.rawValue = rawValue }
            public static let freeTrial = PaymentMode(rawValue: "freeTrial")
            public static let payAsYouGo = PaymentMode(rawValue: "payAsYouGo")
            public static let payUpFront = PaymentMode(rawValue: "payUpFront")
        }

        /// Nil for an introductory offer.
        public let id: String?
        public let type: OfferType
        public let price: Decimal
        public let displayPrice: String
        public let period: SubscriptionPeriod
        public let periodCount: Int
        public let paymentMode: PaymentMode

        init?(
            id: String?, type: OfferType, terms: IntroOffer, in storefront: StoreKitModel.Storefront,
            formatter: PriceFormatter
        ) {
            let price = terms.paymentMode == .freeTrial ? Decimal(0) : terms.prices[storefront.id]
            guard let price else { return nil }
            self.id = id
            self.type = type
            self.price = price
            displayPrice = formatter.string(price)
            period = SubscriptionPeriod(terms.period)
            periodCount = terms.periods
            paymentMode = PaymentMode(rawValue: terms.paymentMode.rawValue)
        }
    }
}
