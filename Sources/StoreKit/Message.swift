import Foundation
import StoreCore

/// StoreKit 2's `Message`: something the App Store has to tell the customer over the app (a
/// price increase to consent to, a billing issue, a win-back offer the customer is eligible for,
/// a generic message). An app that listens to `messages` decides when to show each; on Linux
/// there is no scene to show one in, so a test reads them.
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
            case .winBackOffer: self = .winBackOffer
            case .generic: self = .generic
            }
        }
    }

    public let reason: Reason
    /// What the message is about: the subscription's latest transaction, for a message its
    /// state calls for; the store's number of a message it sent (`sent:ID`).
    let source: String

    /// StoreKit 2's `Message.Messages`: each message once, as the account's subscriptions call
    /// for it or the App Store sends it (a win-back offer's when the account becomes eligible, a
    /// generic one). The store announces none, so it is looked at every quarter of a second; a
    /// message the store sent is given to the first app of the account that looks.
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

    /// The messages the account's subscriptions call for now, then those the store sent it,
    /// taken from the store (each once).
    static func due() async -> [Message] {
        guard let store = try? await StoreKitCall.store(),
            let entitlements = try? await store.backend.entitlements(account: store.account.name)
        else { return [] }
        let called = entitlements.compactMap { entitlement in
            entitlement.messageReason.map { Message(reason: Reason($0), source: entitlement.transactionId) }
        }
        let sent = (try? await store.backend.takeMessages(account: store.account.name)) ?? []
        return called + sent.map { Message(reason: Reason($0.reason), source: "sent:\($0.id)") }
    }
}
