import Foundation

/// What StoreKit 2's `Transaction` tells beyond the payment queue's: what was charged, until
/// when a subscription runs, which offer applied, and whether the App Store took it back.
public struct TransactionTerms: Sendable, Hashable {
    /// What was charged for this transaction (quantity included): 0 for a free trial, a
    /// re-download of something owned, or a restore.
    public var price: Decimal
    /// ISO 4217.
    public var currency: String
    /// Subscriptions only.
    public var expirationDate: Date?
    public var offer: TransactionOffer?
    public var revocation: Revocation?

    public init(price: Decimal, currency: String, expirationDate: Date? = nil, offer: TransactionOffer? = nil, revocation: Revocation? = nil) {
        self.price = price
        self.currency = currency
        self.expirationDate = expirationDate
        self.offer = offer
        self.revocation = revocation
    }
}

/// The offer a transaction was bought with (StoreKit 2's `Transaction.offer`).
public struct TransactionOffer: Sendable, Hashable {
    public let type: OfferType
    /// The offer's id; nil for an introductory offer, which has none.
    public let id: String?
    public let paymentMode: IntroOffer.PaymentMode
    /// One period of the offer (`P1W` for a week's free trial).
    public let period: SubscriptionPeriod

    public init(type: OfferType, id: String?, paymentMode: IntroOffer.PaymentMode, period: SubscriptionPeriod) {
        self.type = type
        self.id = id
        self.paymentMode = paymentMode
        self.period = period
    }

    /// An offer as a database row or a wire message keeps it, by name; nil when there is none
    /// or a part is unreadable.
    public init?(type: String?, id: String?, mode: String?, period: String?) {
        guard let type = type.flatMap(OfferType.init(rawValue:)), let mode = mode.flatMap(IntroOffer.PaymentMode.init(rawValue:)),
              let period = period.flatMap(SubscriptionPeriod.init(iso8601:)) else { return nil }
        self.init(type: type, id: id, paymentMode: mode, period: period)
    }
}

/// `Transaction.OfferType`, with the names scripts read.
public enum OfferType: String, Sendable, Hashable, Codable, CaseIterable {
    case introductory, promotional, code, winBack

    /// The number the App Store Server API's `offerType` uses.
    public var serverValue: Int {
        switch self {
        case .introductory: 1
        case .promotional: 2
        case .code: 3
        case .winBack: 4
        }
    }
}

/// A refund or revocation: when, and why (`Transaction.RevocationReason`).
public struct Revocation: Sendable, Hashable {
    public let date: Date
    public let reason: RevocationReason

    public init(date: Date, reason: RevocationReason) {
        self.date = date
        self.reason = reason
    }
}

/// `Transaction.RevocationReason`, with Apple's raw values.
public enum RevocationReason: Int, Sendable, Hashable, Codable, CaseIterable {
    /// Refunded for another reason (the customer asked, an accidental purchase).
    case other = 0
    /// Refunded because of an actual or perceived issue with the app.
    case developerIssue = 1

    public var name: String { String(describing: self) }

    public init?(name: String) {
        guard let reason = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = reason
    }
}

/// Why a subscription stopped renewing (`RenewalInfo.ExpirationReason`), with Apple's raw values.
public enum ExpirationReason: Int, Sendable, Hashable, Codable, CaseIterable {
    /// The customer turned auto-renew off.
    case autoRenewDisabled = 1
    /// Billing retry ended without the billing issue being resolved.
    case billingError = 2
    /// The customer did not consent to a price increase.
    case didNotConsentToPriceIncrease = 3
    /// The product was not for sale at renewal.
    case productUnavailable = 4
    case unknown = 5

    public var name: String { String(describing: self) }
}

/// Where a subscription's price increase stands (`RenewalInfo.priceIncreaseStatus`), with Apple's raw values.
public enum PriceIncreaseStatus: Int, Sendable, Hashable, Codable, CaseIterable {
    /// Asked for, not answered: without consent the subscription expires at the period's end.
    case pending = 0
    case agreed = 1

    public var name: String { String(describing: self) }
}
