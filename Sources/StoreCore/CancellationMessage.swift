import Foundation

/// The retention message the App Store shows as a customer turns a subscription's auto-renew
/// off: the one the developer's real-time URL chose, or the default for the product and locale.
/// A terminal shows an image by its alternative text.
public struct CancellationMessage: Codable, Sendable, Hashable {
    public enum Source: String, Codable, Sendable {
        /// The developer's Get Retention Message endpoint chose it.
        case realtime
        /// The default message configured for the product and locale.
        case `default`
    }

    public let header: String
    public let body: String
    public let imageAltText: String?
    /// Apple's `ABOVE_IMAGE` header position.
    public let headerAboveImage: Bool
    public let bulletPoints: [String]
    /// A switch-plan message's suggested subscription.
    public let switchToProductId: String?
    /// A promotional-offer message's offer.
    public let promotionalOfferId: String?
    public let source: Source
    /// Why the real-time URL's choice is not the one shown, when it is not.
    public let fallbackReason: String?

    public init(
        header: String, body: String, imageAltText: String? = nil, headerAboveImage: Bool = false,
        bulletPoints: [String] = [], switchToProductId: String? = nil, promotionalOfferId: String? = nil,
        source: Source, fallbackReason: String? = nil
    ) {
        self.header = header
        self.body = body
        self.imageAltText = imageAltText
        self.headerAboveImage = headerAboveImage
        self.bulletPoints = bulletPoints
        self.switchToProductId = switchToProductId
        self.promotionalOfferId = promotionalOfferId
        self.source = source
        self.fallbackReason = fallbackReason
    }
}

extension StoreBackend {
    /// A store without the Retention Messaging API (in process, scripted) has no message to show.
    public func cancellationMessage(account: String, productId: String, locale: String) async throws
        -> CancellationMessage?
    { nil }
}
