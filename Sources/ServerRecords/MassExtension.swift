import Foundation

/// Extend Subscription Renewal Dates for All Active Subscribers, as a developer's server asked
/// for it: every active subscriber of one product, optionally only in some storefronts.
public struct MassExtensionRequest: Sendable, Hashable {
    /// The UUID the developer chose; it names the request in the status route and the summary.
    public let requestIdentifier: String
    public let productId: String
    public let days: Int
    public let reason: Int
    /// ISO 3166-1 alpha-3 storefronts, in the order sent; nil: every storefront.
    public let storefronts: [String]?

    public init(requestIdentifier: String, productId: String, days: Int, reason: Int, storefronts: [String]?) {
        self.requestIdentifier = requestIdentifier
        self.productId = productId
        self.days = days
        self.reason = reason
        self.storefronts = storefronts
    }
}

/// Where a mass extension stands: applied in the background, a batch of subscribers per commit,
/// until none is left.
public struct MassExtensionStatus: Sendable, Hashable {
    public let request: MassExtensionRequest
    public let requestedAt: Date
    /// When the last subscriber was done and the summary written; nil while it runs.
    public let completeDate: Date?
    public let succeeded: Int
    /// Active subscribers the extension rules refused (extended twice in 365 days, in billing
    /// retry or a grace period).
    public let failed: Int

    public init(request: MassExtensionRequest, requestedAt: Date, completeDate: Date?, succeeded: Int, failed: Int) {
        self.request = request
        self.requestedAt = requestedAt
        self.completeDate = completeDate
        self.succeeded = succeeded
        self.failed = failed
    }

    public var isComplete: Bool { completeDate != nil }
}

/// What starting a mass extension did.
public enum MassExtensionStart: Sendable, Hashable {
    /// Recorded now; the background applies it.
    case started(MassExtensionStatus)
    /// The same request sent again: Apple answers it as the first time and starts nothing.
    case repeated(MassExtensionStatus)
    /// The request identifier names an earlier request with other parameters.
    case identifierReused(MassExtensionStatus)
}
