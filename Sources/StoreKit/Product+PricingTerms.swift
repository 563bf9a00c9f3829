import Foundation
import StoreKitModel

extension Product.SubscriptionInfo {
    /// StoreKit 2's `Product.SubscriptionInfo.BillingPlanType` (iOS 26.4).
    public struct BillingPlanType: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let upFront = BillingPlanType(rawValue: "upFront")
        public static let monthly = BillingPlanType(rawValue: "monthly")

        init(_ plan: StoreKitModel.BillingPlanType) {
            self = plan == .monthly ? .monthly : .upFront
        }

        var plan: StoreKitModel.BillingPlanType { self == .monthly ? .monthly : .upFront }
    }

    /// What a 12-month commitment costs in all.
    public struct CommitmentInfo: Hashable, Sendable {
        public let price: Decimal
        public let displayPrice: String
        public let period: BillingPeriod
    }

    /// StoreKit 2's `Product.SubscriptionInfo.PricingTerms` (iOS 26.4): one billing plan's price,
    /// period, offers and commitment.
    public struct PricingTerms: Hashable, Sendable {
        public let billingPlanType: BillingPlanType
        public let billingPeriod: BillingPeriod
        public let billingPrice: Decimal
        public let billingDisplayPrice: String
        public let subscriptionOffers: [Product.SubscriptionOffer]
        public let commitmentInfo: CommitmentInfo

        public subscript(offers type: Product.SubscriptionOffer.OfferType) -> [Product.SubscriptionOffer] {
            subscriptionOffers.filter { $0.type == type }
        }

        static func all(
            of product: StoreKitModel.Product, info: StoreKitModel.SubscriptionInfo,
            in storefront: StoreKitModel.Storefront, formatter: PriceFormatter
        ) -> [PricingTerms] {
            guard let price = product.prices[storefront.id] else { return [] }
            let period = Product.SubscriptionPeriod(info.period)
            var terms = [
                PricingTerms(
                    billingPlanType: .upFront, billingPeriod: period, billingPrice: price,
                    billingDisplayPrice: formatter.string(price),
                    subscriptionOffers: offers(info, plan: .upFront, intro: info.introOffer, storefront, formatter),
                    commitmentInfo: CommitmentInfo(price: price, displayPrice: formatter.string(price), period: period))
            ]
            if let plan = info.commitment, plan.isOffered(in: storefront.id), let monthly = plan.prices[storefront.id] {
                let total = monthly * Decimal(CommitmentPlan.totalBillingPeriods)
                terms.append(
                    PricingTerms(
                        billingPlanType: .monthly,
                        billingPeriod: Product.SubscriptionPeriod(CommitmentPlan.billingPeriod),
                        billingPrice: monthly, billingDisplayPrice: formatter.string(monthly),
                        subscriptionOffers: offers(info, plan: .monthly, intro: plan.introOffer, storefront, formatter),
                        commitmentInfo: CommitmentInfo(
                            price: total, displayPrice: formatter.string(total),
                            period: Product.SubscriptionPeriod(.init(value: 1, unit: .year)))))
            }
            return terms
        }

        private static func offers(
            _ info: StoreKitModel.SubscriptionInfo, plan: StoreKitModel.BillingPlanType, intro: IntroOffer?,
            _ storefront: StoreKitModel.Storefront, _ formatter: PriceFormatter
        ) -> [Product.SubscriptionOffer] {
            let introductory = intro.flatMap {
                Product.SubscriptionOffer(id: nil, type: .introductory, terms: $0, in: storefront, formatter: formatter)
            }
            let others = info.offers.filter { $0.billingPlan == plan && $0.kind != .code }.compactMap {
                Product.SubscriptionOffer(
                    id: $0.id, type: $0.kind == .winBack ? .winBack : .promotional, terms: $0.terms, in: storefront,
                    formatter: formatter)
            }
            return (introductory.map { [$0] } ?? []) + others
        }
    }
}
