/// Why a customer asks for a refund, as Apple's refund request sheet lets them say and
/// CONSUMPTION_REQUEST's `consumptionRequestReason` passes on to the developer's server.
/// `storefront manage request-refund --reason`, `/admin/…/request-refund?reason=` and the TUI's
/// refund sheet spell it by `rawValue`; the notification by `appleName`. It is in the model
/// because a transaction carries the request waiting on it (`WaitingRefund`).
public enum RefundRequestReason: String, CaseIterable, Sendable, Hashable {
    case unintendedPurchase = "unintended-purchase"
    case fulfillmentIssue = "fulfillment-issue"
    case unsatisfiedWithPurchase = "unsatisfied-with-purchase"
    case legal
    case other

    /// Apple's `ConsumptionRequestReason` value.
    public var appleName: String {
        switch self {
        case .unintendedPurchase: "UNINTENDED_PURCHASE"
        case .fulfillmentIssue: "FULFILLMENT_ISSUE"
        case .unsatisfiedWithPurchase: "UNSATISFIED_WITH_PURCHASE"
        case .legal: "LEGAL"
        case .other: "OTHER"
        }
    }

    /// From either spelling: this store's (`unintended-purchase`) or Apple's (`UNINTENDED_PURCHASE`).
    public init?(name: String) {
        guard let reason = Self(rawValue: name) ?? Self.allCases.first(where: { $0.appleName == name }) else {
            return nil
        }
        self = reason
    }

    /// The reason a refund granted on this request keeps: an issue with receiving or using the
    /// purchase is the app's (Apple's `revocationReason` 1), any other is 0.
    public var revocationReason: RevocationReason {
        self == .fulfillmentIssue ? .developerIssue : .other
    }
}
