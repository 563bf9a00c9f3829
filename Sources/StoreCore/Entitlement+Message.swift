import Foundation

/// Why StoreKit shows a message over the app (`Message.Reason`), spelled as Apple names each.
public enum StoreMessageReason: String, Sendable, Hashable, CaseIterable {
    /// A price increase waits for the subscriber's consent.
    case priceIncreaseConsent
    /// A renewal could not bill: the subscriber updates the payment method.
    case billingIssue
    /// The customer is eligible for a win-back offer: StoreKit shows the offer's sheet at launch.
    case winBackOffer
    /// A message the App Store sends for a generic reason (a tester sends one with `manage message`).
    case generic

    /// The reasons a tester may send (`storefront manage message REASON`): the others follow from
    /// a subscription's state (a billing issue, a price increase) or from the account's
    /// eligibility for a win-back offer, and come when it does.
    public static let sendable: [StoreMessageReason] = [.generic]

    /// "generic": the reasons `sendable` holds, as a sentence says them.
    public static var sendableInWords: String {
        PaymentOutcome.alternatives(sendable.map(\.rawValue))
    }
}

extension Entitlement {
    /// The message this subscription calls for, if any: a billing issue comes before a price
    /// increase, and a subscription that will not renew asks no consent.
    public var messageReason: StoreMessageReason? {
        guard let renewal else { return nil }
        if renewal.isInBillingRetry { return .billingIssue }
        if renewal.priceIncreaseStatus == .pending, renewal.willAutoRenew { return .priceIncreaseConsent }
        return nil
    }
}

/// A StoreKit message the App Store sent an account, kept by the store until an app of the
/// account takes it (`StoreBackend.takeMessages`), which it does once: a tester's generic
/// message, or a win-back offer's when the account became eligible for one.
public struct AppStoreMessage: Sendable, Hashable {
    /// The store's number for it, unique within the store, in the order the messages were sent.
    public let id: Int64
    public let reason: StoreMessageReason
    /// A win-back message's subscription: the product whose offer it shows; nil for a generic one.
    public let productId: String?
    /// A win-back message's offer (the best the account is eligible for); nil for a generic one.
    public let offerId: String?
    public let sentDate: Date

    public init(id: Int64, reason: StoreMessageReason, productId: String?, offerId: String?, sentDate: Date) {
        self.id = id
        self.reason = reason
        self.productId = productId
        self.offerId = offerId
        self.sentDate = sentDate
    }
}

/// A purchase the customer started outside the app (StoreKit's `PurchaseIntent`): a promoted
/// in-app purchase tapped on the App Store, or a win-back offer redeemed there (`offerId`). The
/// store keeps it until an app of the account takes it (`StoreBackend.takePurchaseIntents`),
/// once; the app then buys the product with the offer.
public struct PurchaseIntentInfo: Sendable, Hashable {
    /// The store's number for it, unique within the store, in the order they were made.
    public let id: Int64
    public let productId: String
    /// The subscription offer to apply to the purchase; nil for none.
    public let offerId: String?
    public let createdDate: Date

    public init(id: Int64, productId: String, offerId: String?, createdDate: Date) {
        self.id = id
        self.productId = productId
        self.offerId = offerId
        self.createdDate = createdDate
    }
}
