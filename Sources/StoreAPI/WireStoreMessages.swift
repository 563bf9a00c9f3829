import Foundation
import StoreCore

/// `POST /admin/accounts/{account}/messages`: the StoreKit message the App Store sends the
/// account, by `Message.Reason`'s name (`generic`, the one a tester sends).
public struct MessageRequest: Codable, Sendable, Hashable {
    public let reason: String

    /// The body's fields, which the server checks a body against.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case reason
    }

    public init(reason: StoreMessageReason) {
        self.reason = reason.rawValue
    }
}

/// `POST /admin/accounts/{account}/purchase-intents`: the product the customer started buying
/// on the App Store, and the win-back offer redeemed there (none: a promoted in-app purchase).
public struct PurchaseIntentRequest: Codable, Sendable, Hashable {
    public let productId: String
    public let offerId: String?

    /// The body's fields, which the server checks a body against.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case productId, offerId
    }

    public init(productId: String, offerId: String?) {
        self.productId = productId
        self.offerId = offerId
    }
}

/// One StoreKit message as `POST /v1/accounts/{account}/messages/take` gives it (dates in epoch
/// milliseconds).
public struct WireStoreMessage: Codable, Sendable, Hashable {
    public let id: Int64
    /// `Message.Reason`'s name: `priceIncreaseConsent`, `billingIssue`, `winBackOffer` or `generic`.
    public let reason: String
    public let productId: String?
    public let offerId: String?
    public let sentDate: Int64

    public init(_ message: AppStoreMessage) {
        id = message.id
        reason = message.reason.rawValue
        productId = message.productId
        offerId = message.offerId
        sentDate = message.sentDate.epochMilliseconds
    }

    /// nil for a reason this build does not know (a newer server's).
    public var message: AppStoreMessage? {
        StoreMessageReason(rawValue: reason).map {
            AppStoreMessage(
                id: id, reason: $0, productId: productId, offerId: offerId,
                sentDate: Date(epochMilliseconds: sentDate))
        }
    }
}

/// `POST /v1/accounts/{account}/messages/take`: the messages that waited for the account, each
/// given once.
public struct MessagesResponse: Codable, Sendable, Hashable {
    public let messages: [WireStoreMessage]

    public init(_ messages: [AppStoreMessage]) {
        self.messages = messages.map(WireStoreMessage.init)
    }
}

/// One purchase intent as `POST /v1/accounts/{account}/purchase-intents/take` gives it.
public struct WirePurchaseIntent: Codable, Sendable, Hashable {
    public let id: Int64
    public let productId: String
    public let offerId: String?
    public let createdDate: Int64

    public init(_ intent: PurchaseIntentInfo) {
        id = intent.id
        productId = intent.productId
        offerId = intent.offerId
        createdDate = intent.createdDate.epochMilliseconds
    }

    public var intent: PurchaseIntentInfo {
        PurchaseIntentInfo(
            id: id, productId: productId, offerId: offerId, createdDate: Date(epochMilliseconds: createdDate))
    }
}

/// `POST /v1/accounts/{account}/purchase-intents/take`: the purchase intents that waited for the
/// account, each given once.
public struct PurchaseIntentsResponse: Codable, Sendable, Hashable {
    public let intents: [WirePurchaseIntent]

    public init(_ intents: [PurchaseIntentInfo]) {
        self.intents = intents.map(WirePurchaseIntent.init)
    }
}
