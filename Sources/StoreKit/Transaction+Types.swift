import Foundation
import StoreEngine

extension Transaction {
    /// StoreKit 2's `Transaction.OwnershipType`.
    public struct OwnershipType: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let purchased = OwnershipType(rawValue: "PURCHASED")
        public static let familyShared = OwnershipType(rawValue: "FAMILY_SHARED")
        /// The user has access to this transaction through an organization (Apple back-deploys it
        /// to iOS 15).
        public static let assigned = OwnershipType(rawValue: "ASSIGNED")
    }

    /// StoreKit 2's `Transaction.RevocationReason`.
    public struct RevocationReason: RawRepresentable, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let other = RevocationReason(rawValue: 0)
        public static let developerIssue = RevocationReason(rawValue: 1)
    }

    /// StoreKit 2's `Transaction.RevocationType` (iOS 26.4), with the App Store's names as raw values.
    public struct RevocationType: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let fullRefund = RevocationType(rawValue: "REFUND_FULL")
        public static let proratedRefund = RevocationType(rawValue: "REFUND_PRORATED")
        public static let familyRevocation = RevocationType(rawValue: "FAMILY_REVOKE")
    }

    /// StoreKit 2's `Transaction.Reason`: a purchase, or a subscription's automatic renewal.
    public struct Reason: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let purchase = Reason(rawValue: "PURCHASE")
        public static let renewal = Reason(rawValue: "RENEWAL")
    }

    /// StoreKit 2's `Transaction.OfferType`.
    public struct OfferType: RawRepresentable, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let introductory = OfferType(rawValue: 1)
        public static let promotional = OfferType(rawValue: 2)
        public static let code = OfferType(rawValue: 3)
        public static let winBack = OfferType(rawValue: 4)
    }

    /// StoreKit 2's `Transaction.Offer`: the offer a transaction was bought with.
    public struct Offer: Hashable, Sendable {
        public struct PaymentMode: RawRepresentable, Hashable, Sendable {
            public let rawValue: String
            public init(rawValue: String) { self.rawValue = rawValue }
            public static let freeTrial = PaymentMode(rawValue: "FREE_TRIAL")
            public static let payAsYouGo = PaymentMode(rawValue: "PAY_AS_YOU_GO")
            public static let payUpFront = PaymentMode(rawValue: "PAY_UP_FRONT")
            /// A consumable's, a non-consumable's or a non-renewing subscription's offer: one
            /// purchase (App Store Server API `offerDiscountType` `ONE_TIME`).
            public static let oneTime = PaymentMode(rawValue: "ONE_TIME")
        }

        /// Nil for an introductory offer.
        public let id: String?
        public let type: OfferType
        public let paymentMode: PaymentMode?
        /// One period of the offer, ISO 8601 (`P1M`); nil for a one-time offer.
        public let period: String?

        init(_ signed: SignedTransactionPayload, type: ServerOfferType) {
            self.init(
                id: signed.offerIdentifier, type: type, discountType: signed.offerDiscountType,
                period: signed.offerPeriod)
        }

        /// From the signed fields a transaction and renewal info share.
        init(id: String?, type: ServerOfferType, discountType: String?, period: String?) {
            self.id = id
            self.type = OfferType(rawValue: type.rawValue)
            paymentMode = discountType.map(PaymentMode.init(rawValue:))
            self.period = period
        }
    }

    /// A monthly payment's place in its 12-month commitment.
    public struct CommitmentInfo: Hashable, Sendable {
        public let billingPeriodNumber: Int
        public let totalBillingPeriods: Int
        /// What the whole commitment costs.
        public let price: Decimal
        public let expirationDate: Date

        init(_ signed: SignedCommitmentInfo) {
            billingPeriodNumber = signed.billingPeriodNumber
            totalBillingPeriods = signed.totalBillingPeriods
            price = Decimal(signed.commitmentPrice) / 1000
            expirationDate = Date(epochMilliseconds: signed.commitmentExpiresDate)
        }
    }
}
