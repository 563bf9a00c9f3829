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
    /// Set on a subscription a higher level replaced before its period ended (StoreKit 2's
    /// `isUpgraded`).
    public var upgrade: Upgrade?
    /// A subscription's automatic renewal rather than a purchase (StoreKit 2's `reason`).
    public var isRenewal: Bool
    /// Bought by this account, shared with it by a member of its family, or assigned to it by an
    /// organization or group that bought it (StoreKit 2's `ownershipType`).
    public var ownership: OwnershipType
    /// How an auto-renewable subscription's period was paid; nil for every other product.
    public var billingPlan: BillingPlanType?
    /// A monthly payment's place in its 12-month commitment; nil when paid up front.
    public var commitment: TransactionCommitment?
    /// When the App Store last reversed a refund of it: what it says changed then, so its signed
    /// form is dated then and history sorts it there; nil when no refund was reversed.
    public var refundReversalDate: Date?

    public init(
        price: Decimal, currency: String, expirationDate: Date? = nil, offer: TransactionOffer? = nil,
        revocation: Revocation? = nil,
        upgrade: Upgrade? = nil, isRenewal: Bool = false, ownership: OwnershipType = .purchased,
        billingPlan: BillingPlanType? = nil, commitment: TransactionCommitment? = nil,
        refundReversalDate: Date? = nil
    ) {
        self.refundReversalDate = refundReversalDate
        self.billingPlan = billingPlan
        self.commitment = commitment
        self.price = price
        self.currency = currency
        self.expirationDate = expirationDate
        self.offer = offer
        self.revocation = revocation
        self.upgrade = upgrade
        self.isRenewal = isRenewal
        self.ownership = ownership
    }
}

/// Who owns a transaction (`Transaction.OwnershipType`), by the names the App Store Server API
/// and notifications give `inAppOwnershipType`.
public enum OwnershipType: String, Sendable, Hashable, CaseIterable, Codable {
    case purchased = "PURCHASED"
    /// A family member's purchase shared through Family Sharing.
    case familyShared = "FAMILY_SHARED"
    /// A purchase an organization or group made, assigned to this account (App Store Server API
    /// 1.22: "The transaction belongs to a customer who has access through an organization or
    /// group").
    case assigned = "ASSIGNED"

    /// A copy of another account's purchase: a family member's, or one assigned to the account.
    public var isCopy: Bool { self != .purchased }
}

/// The offer a transaction was bought with (StoreKit 2's `Transaction.offer`).
public struct TransactionOffer: Sendable, Hashable {
    public let type: OfferType
    /// The offer's id; nil for an introductory offer, which has none.
    public let id: String?
    public let paymentMode: IntroOffer.PaymentMode
    /// One period of the offer (`P1W` for a week's free trial); nil for a one-time offer, which
    /// has none.
    public let period: SubscriptionPeriod?

    public init(type: OfferType, id: String?, paymentMode: IntroOffer.PaymentMode, period: SubscriptionPeriod?) {
        self.type = type
        self.id = id
        self.paymentMode = paymentMode
        self.period = period
    }

    /// A consumable's, a non-consumable's or a non-renewing subscription's offer code.
    public static func oneTime(_ offer: OneTimeOffer) -> TransactionOffer {
        TransactionOffer(type: .code, id: offer.id, paymentMode: .oneTime, period: nil)
    }

    /// An offer as a database row or a wire message keeps it, by name; nil when there is none
    /// or a part is unreadable. A one-time offer has no period; every other offer has one.
    public init?(type: String?, id: String?, mode: String?, period: String?) {
        guard let type = type.flatMap(OfferType.init(rawValue:)),
            let mode = mode.flatMap(IntroOffer.PaymentMode.init(rawValue:))
        else { return nil }
        let parsed = period.flatMap(SubscriptionPeriod.init(iso8601:))
        guard mode == .oneTime || parsed != nil else { return nil }
        self.init(type: type, id: id, paymentMode: mode, period: mode == .oneTime ? nil : parsed)
    }
}

/// `Transaction.OfferType`, with the names scripts read.
public enum OfferType: String, Sendable, Hashable, Codable, CaseIterable {
    case introductory, promotional, code, winBack
}

/// An upgrade that ended a subscription early: when, and the unused part of what was paid for
/// the period, which the App Store refunds.
public struct Upgrade: Sendable, Hashable {
    public let date: Date
    public let refund: Decimal

    public init(date: Date, refund: Decimal) {
        self.date = date
        self.refund = refund
    }

    /// As a database row or a wire message keeps it (the refund an exact decimal string); nil
    /// without one, or when a part is unreadable.
    public init?(date: Date?, refund: String?) {
        guard let date, let refund = refund.flatMap({ Decimal(string: $0) }) else { return nil }
        self.init(date: date, refund: refund)
    }

    /// The unused part of `paid` for a period from `start` to `end`, at `now`: pro rata by time,
    /// rounded down to the currency's minor unit so a refund never exceeds what was paid.
    public static func proratedRefund(of paid: Decimal, currency: String, start: Date, end: Date, at now: Date)
        -> Decimal
    {
        let length = end.timeIntervalSince(start)
        guard length > 0, now < end, paid > 0 else { return 0 }
        let unused = min(1, end.timeIntervalSince(max(now, start)) / length)
        // Whole millionths of the period keep the product exact enough and never above `paid`.
        let share = paid * Decimal(Int((unused * 1_000_000).rounded(.down))) / 1_000_000
        return MinorUnits.round(share, in: currency, .down)
    }
}

/// A refund or revocation: when, why (`Transaction.RevocationReason`), and the share a prorated
/// refund gave back (nil: all of it).
public struct Revocation: Sendable, Hashable {
    public let date: Date
    public let reason: RevocationReason
    public let percentage: RefundPercentage?

    public init(date: Date, reason: RevocationReason, percentage: RefundPercentage? = nil) {
        self.date = date
        self.reason = reason
        self.percentage = percentage
    }

    /// As a row or a message keeps it: none without a date; a reason it cannot read is `other`,
    /// and a share it cannot read a full refund.
    public init?(date: Date?, reason: RevocationReason?, percentage: Int? = nil) {
        guard let date else { return nil }
        self.init(
            date: date, reason: reason ?? .other, percentage: percentage.flatMap(RefundPercentage.init(milliunits:)))
    }
}

/// `Transaction.RevocationReason`, with Apple's raw values.
public enum RevocationReason: Int, Sendable, Hashable, Codable, NamedCase {
    /// Refunded for another reason (the customer asked, an accidental purchase).
    case other = 0
    /// Refunded because of an actual or perceived issue with the app.
    case developerIssue = 1

    /// The name JSON, the wire and the screen use (see `NamedCase`).
    public var name: String {
        switch self {
        case .other: "other"
        case .developerIssue: "developerIssue"
        }
    }
}

/// Why a subscription stopped renewing (`RenewalInfo.ExpirationReason`), with Apple's raw values.
public enum ExpirationReason: Int, Sendable, Hashable, Codable, NamedCase {
    /// The customer turned auto-renew off.
    case autoRenewDisabled = 1
    /// Billing retry ended without the billing issue being resolved.
    case billingError = 2
    /// The customer did not consent to a price increase.
    case didNotConsentToPriceIncrease = 3
    /// The product was not for sale at renewal.
    case productUnavailable = 4
    case unknown = 5

    /// The name JSON, the wire and the screen use (see `NamedCase`).
    public var name: String {
        switch self {
        case .autoRenewDisabled: "autoRenewDisabled"
        case .billingError: "billingError"
        case .didNotConsentToPriceIncrease: "didNotConsentToPriceIncrease"
        case .productUnavailable: "productUnavailable"
        case .unknown: "unknown"
        }
    }
}

/// Where a subscription's price increase stands (`RenewalInfo.priceIncreaseStatus`), with Apple's raw values.
public enum PriceIncreaseStatus: Int, Sendable, Hashable, Codable, NamedCase {
    /// Asked for, not answered: without consent the subscription expires at the period's end.
    case pending = 0
    case agreed = 1

    /// The name JSON, the wire and the screen use (see `NamedCase`).
    public var name: String {
        switch self {
        case .pending: "pending"
        case .agreed: "agreed"
        }
    }
}
