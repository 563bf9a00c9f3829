import Foundation

/// One in-app purchase as the catalog defines it, with prices for every storefront it is sold in.
public struct Product: Sendable, Hashable {
    public let id: String
    public let type: ProductType
    public let title: LocalizedText
    public let description: LocalizedText
    /// Exact prices keyed by storefront id.
    public let prices: [String: Decimal]
    public let unavailableIn: Set<String>
    /// Removed from sale: a products request returns it among the invalid identifiers.
    public let removed: Bool
    public let wallet: WalletGrant?
    public let subscription: SubscriptionInfo?

    public init(id: String, type: ProductType, title: LocalizedText, description: LocalizedText,
                prices: [String: Decimal], unavailableIn: Set<String> = [], removed: Bool = false,
                wallet: WalletGrant? = nil, subscription: SubscriptionInfo? = nil) {
        self.id = id
        self.type = type
        self.title = title
        self.description = description
        self.prices = prices
        self.unavailableIn = unavailableIn
        self.removed = removed
        self.wallet = wallet
        self.subscription = subscription
    }

    public func isSold(in storefront: String) -> Bool {
        !removed && !unavailableIn.contains(storefront) && prices[storefront] != nil
    }
}

/// What one unit of a consumable credits to a wallet balance (`100` × `gems`).
public struct WalletGrant: Sendable, Hashable, Codable {
    public let balance: String
    public let amount: Int

    public init(balance: String, amount: Int) {
        self.balance = balance
        self.amount = amount
    }
}

public struct SubscriptionInfo: Sendable, Hashable {
    /// The group an auto-renewable subscription belongs to; nil for a non-renewing one.
    public let group: String?
    /// The renewal period, or the fixed term of a non-renewing subscription.
    public let period: SubscriptionPeriod
    /// Level of service within the group: 1 is the highest; moving to a lower number is an upgrade.
    public let rank: Int?
    public let introOffer: IntroOffer?

    public init(group: String?, period: SubscriptionPeriod, rank: Int?, introOffer: IntroOffer?) {
        self.group = group
        self.period = period
        self.rank = rank
        self.introOffer = introOffer
    }
}

public struct IntroOffer: Sendable, Hashable {
    /// `SKProductDiscount.PaymentMode`.
    public enum PaymentMode: String, Sendable, Hashable, Codable, CaseIterable {
        case freeTrial, payAsYouGo, payUpFront
    }

    public let paymentMode: PaymentMode
    public let period: SubscriptionPeriod
    public let periods: Int
    /// Offer prices per storefront; empty for a free trial.
    public let prices: [String: Decimal]

    public init(paymentMode: PaymentMode, period: SubscriptionPeriod, periods: Int, prices: [String: Decimal]) {
        self.paymentMode = paymentMode
        self.period = period
        self.periods = periods
        self.prices = prices
    }
}

public struct SubscriptionGroup: Sendable, Hashable {
    public let id: String
    public let title: LocalizedText

    public init(id: String, title: LocalizedText) {
        self.id = id
        self.title = title
    }
}
