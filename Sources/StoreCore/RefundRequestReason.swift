import StoreKitModel

extension RefundRequestReason {
    /// "unintended-purchase, fulfillment-issue, … or other".
    public static let inWords = PaymentOutcome.alternatives(allCases.map(\.rawValue))
}
