import Foundation
import StoreEngine
import StoreKitModel

extension Product.SubscriptionInfo {
    /// StoreKit 2's `Product.SubscriptionInfo.RenewalInfo`: what the next renewal of a
    /// subscription chain will be, as the store signed it. Every field is read from the JWS
    /// payload (Apple's `JWSRenewalInfoDecodedPayload`), so an app sees what its server would.
    public struct RenewalInfo: Hashable, Sendable {
        /// StoreKit 2's `RenewalInfo.ExpirationReason`, with Apple's raw values.
        public struct ExpirationReason: RawRepresentable, Hashable, Sendable {
            public let rawValue: Int
            public init(rawValue: Int) { self.rawValue = rawValue }
            public static let autoRenewDisabled = ExpirationReason(rawValue: 1)
            public static let billingError = ExpirationReason(rawValue: 2)
            public static let didNotConsentToPriceIncrease = ExpirationReason(rawValue: 3)
            public static let productUnavailable = ExpirationReason(rawValue: 4)
            public static let unknown = ExpirationReason(rawValue: 5)
        }

        /// StoreKit 2's `RenewalInfo.PriceIncreaseStatus`.
        @frozen public enum PriceIncreaseStatus: Hashable, Sendable {
            case noIncreasePending
            /// The customer has not yet answered a price increase that needs consent.
            case pending
            /// The customer consented, or was told of one that needs no consent.
            case agreed
        }

        /// StoreKit 2's `RenewalInfo.CommitmentInfo` (iOS 26.4): what follows a 12-month
        /// commitment at its end. The subscription's own `willAutoRenew` says whether the next
        /// monthly payment is made; this says whether a new commitment follows.
        public struct CommitmentInfo: Hashable, Sendable {
            public let renewalDate: Date
            /// One payment of the plan it renews on.
            public let renewalPrice: Decimal
            public let willAutoRenew: Bool
            /// The product it renews to.
            public let autoRenewPreference: String
            public let renewalBillingPlanType: BillingPlanType
        }

        public let originalTransactionID: UInt64
        /// The product of the chain's latest transaction.
        public let currentProductID: String
        public let willAutoRenew: Bool
        /// The product the next renewal is for: the current one, or one a downgrade or crossgrade
        /// chose.
        public let autoRenewPreference: String?
        /// Nil while the subscription is active.
        public let expirationReason: ExpirationReason?
        public let isInBillingRetry: Bool
        public let gracePeriodExpirationDate: Date?
        public let priceIncreaseStatus: PriceIncreaseStatus
        /// The offer the next renewal takes, if any.
        public let offer: Transaction.Offer?
        public let offerType: Transaction.OfferType?
        public let offerID: String?
        /// When the latest period ends: the next renewal, or when it would have been (it may be
        /// past; Apple sends it for every auto-renewable subscription).
        public let renewalDate: Date?
        /// What the next renewal charges, in `currency`.
        public let renewalPrice: Decimal?
        public let currency: Locale.Currency?
        /// When the current run of periods without a gap began.
        public let recentSubscriptionStartDate: Date
        public let appAccountToken: UUID?
        /// The win-back offers the customer may redeem now; empty while there is none.
        public let eligibleWinBackOfferIDs: [String]
        public let appTransactionID: String
        public let environment: AppStore.Environment
        public let signedDate: Date
        /// How the next payment is billed (iOS 26.4).
        public let renewalBillingPlanType: BillingPlanType?
        /// While a 12-month commitment runs (iOS 26.4).
        public let commitmentInfo: CommitmentInfo?
        /// The JWS payload: the renewal info's JSON as the store signed it.
        public let jsonRepresentation: Data
        let jws: String

        init?(jws: String, payload: Data) {
            guard let signed = try? JSONDecoder().decode(SignedRenewalInfoPayload.self, from: payload),
                let originalID = UInt64(signed.originalTransactionId)
            else { return nil }
            originalTransactionID = originalID
            currentProductID = signed.productId
            willAutoRenew = signed.autoRenewStatus == 1
            autoRenewPreference = signed.autoRenewProductId
            expirationReason = signed.expirationIntent.map(ExpirationReason.init(rawValue:))
            isInBillingRetry = signed.isInBillingRetryPeriod
            gracePeriodExpirationDate = signed.gracePeriodExpiresDate.map(Date.init(epochMilliseconds:))
            priceIncreaseStatus =
                switch signed.priceIncreaseStatus {
                case nil: .noIncreasePending
                case 0: .pending
                default: .agreed
                }
            offer = signed.offerType.map {
                Transaction.Offer(
                    id: signed.offerIdentifier, type: $0, discountType: signed.offerDiscountType,
                    period: signed.offerPeriod)
            }
            offerType = signed.offerType.map { Transaction.OfferType(rawValue: $0.rawValue) }
            offerID = signed.offerIdentifier
            renewalDate = signed.renewalDate.map(Date.init(epochMilliseconds:))
            renewalPrice = signed.renewalPrice.map { Decimal($0) / 1000 }
            currency = Locale.Currency(signed.currency)
            recentSubscriptionStartDate = Date(epochMilliseconds: signed.recentSubscriptionStartDate)
            appAccountToken = signed.appAccountToken.flatMap(UUID.init(uuidString:))
            eligibleWinBackOfferIDs = signed.eligibleWinBackOfferIds ?? []
            appTransactionID = signed.appTransactionId
            environment = AppStore.Environment(rawValue: signed.environment.rawValue)
            signedDate = Date(epochMilliseconds: signed.signedDate)
            renewalBillingPlanType = Self.plan(signed.renewalBillingPlanType)
            commitmentInfo = signed.commitmentInfo.map {
                CommitmentInfo(
                    renewalDate: Date(epochMilliseconds: $0.commitmentRenewalDate),
                    // A plan with no price in the storefront has nothing to charge.
                    renewalPrice: Decimal($0.commitmentRenewalPrice ?? 0) / 1000,
                    willAutoRenew: $0.commitmentAutoRenewStatus == 1,
                    autoRenewPreference: $0.commitmentAutoRenewProductId,
                    renewalBillingPlanType: Self.plan($0.commitmentRenewalBillingPlanType))
            }
            jsonRepresentation = payload
            self.jws = jws
        }

        /// A plan as the App Store Server API names it (`MONTHLY`, `BILLED_UPFRONT`).
        static func plan(_ serverName: String) -> BillingPlanType {
            serverName == StoreKitModel.BillingPlanType.monthly.serverName ? .monthly : .upFront
        }

        public static func == (lhs: RenewalInfo, rhs: RenewalInfo) -> Bool { lhs.jws == rhs.jws }
        public func hash(into hasher: inout Hasher) { hasher.combine(jws) }
    }
}
