import Foundation
import StoreCore

/// StoreKit 2's `Message`: something the App Store has to tell the customer over the app (a
/// price increase to consent to, a billing issue). An app that listens to `messages` decides
/// when to show each; on Linux there is no scene to show one in, so a test reads them.
public struct Message: Hashable, Sendable {
    /// StoreKit 2's `Message.Reason`.
    public struct Reason: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let generic = Reason(rawValue: "generic")
        public static let priceIncreaseConsent = Reason(rawValue: "priceIncreaseConsent")
        public static let billingIssue = Reason(rawValue: "billingIssue")
        public static let winBackOffer = Reason(rawValue: "winBackOffer")

        init(_ reason: StoreMessageReason) {
            switch reason {
            case .priceIncreaseConsent: self = .priceIncreaseConsent
            case .billingIssue: self = .billingIssue
            }
        }
    }

    public let reason: Reason
    /// The subscription's latest transaction, which the message is about.
    let transactionID: String

    /// StoreKit 2's `Message.Messages`: each message once, as the account's subscriptions call
    /// for it. The store announces none, so it is looked at every quarter of a second.
    public struct Messages: AsyncSequence, Sendable {
        public typealias Element = Message
        public typealias AsyncIterator = AsyncStream<Message>.Iterator

        public func makeAsyncIterator() -> AsyncIterator {
            LookedAt.stream(keeping: Set<Message>()) { shown in
                await Message.due().filter { shown.insert($0).inserted }
            }
            .makeAsyncIterator()
        }
    }

    public static var messages: Messages { Messages() }

    /// The messages the account's subscriptions call for now.
    static func due() async -> [Message] {
        guard let store = try? await StoreKitCall.store(),
            let entitlements = try? await store.backend.entitlements(account: store.account.name)
        else { return [] }
        return entitlements.compactMap { entitlement in
            entitlement.messageReason.map { Message(reason: Reason($0), transactionID: entitlement.transactionId) }
        }
    }
}
