import StoreKitModel

/// Why the App Store refunds, as `storefront manage refund --reason`, a scenario's or a tape's
/// `refund` and `/admin/transactions/{id}/refund?reason=` spell it: `other` is Apple's
/// `revocationReason` 0, `app-issue` its 1 (refunded for an actual or perceived issue with the app).
public enum RefundReason: String, CaseIterable, Sendable, Hashable {
    case other
    case appIssue = "app-issue"

    /// The option that gives it, after the transaction or before it.
    public static let option = "--reason"

    /// "other or app-issue".
    public static let inWords = PaymentOutcome.alternatives(allCases.map(\.rawValue))

    public init(_ reason: RevocationReason) {
        switch reason {
        case .other: self = .other
        case .developerIssue: self = .appIssue
        }
    }

    /// The reason a transaction keeps.
    public var revocationReason: RevocationReason {
        switch self {
        case .other: .other
        case .appIssue: .developerIssue
        }
    }
}
