/// verifyReceipt status codes, as Apple's `verifyReceipt` endpoint answers them.
public enum VerifyStatus: Int, CaseIterable, Sendable, Codable, Hashable {
    case valid = 0
    case notPostOrUnreadable = 21000
    case noLongerSent = 21001
    case malformedReceiptData = 21002
    case notAuthenticated = 21003
    case sharedSecretMismatch = 21004
    case serverUnavailable = 21005
    case subscriptionExpired = 21006
    case sandboxReceiptSentToProduction = 21007
    case productionReceiptSentToSandbox = 21008
    case internalDataAccessError = 21009
    case accountNotFound = 21010

    public var meaning: String {
        switch self {
        case .valid: "valid"
        case .notPostOrUnreadable: "the request was not an HTTP POST or its JSON was unreadable"
        case .noLongerSent: "status no longer sent"
        case .malformedReceiptData: "the receipt data is malformed, or the service had a temporary issue"
        case .notAuthenticated: "the receipt could not be authenticated (tampered or not signed by this store)"
        case .sharedSecretMismatch: "the shared secret does not match the account's"
        case .serverUnavailable: "the receipt server is temporarily unavailable; retry"
        case .subscriptionExpired: "the receipt is valid but the subscription has expired"
        case .sandboxReceiptSentToProduction:
            "a sandbox receipt was sent to the production server; retry against sandbox"
        case .productionReceiptSentToSandbox:
            "a production receipt was sent to the sandbox server; retry against production"
        case .internalDataAccessError: "internal data access error; retry later"
        case .accountNotFound: "the account was not found or was deleted"
        }
    }

    /// Statuses after which the same request may succeed later.
    public var isRetryable: Bool {
        self == .serverUnavailable || self == .internalDataAccessError || self == .malformedReceiptData
    }
}
