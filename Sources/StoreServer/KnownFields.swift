import StoreAPI

/// A request body whose top-level fields are all known: any other field is refused (422, naming it)
/// instead of being silently ignored, so a typo such as `{"askTobuy": true}` in a PUT of the test
/// controls is an error and not a change that never happened. verifyReceipt is not one of these:
/// Apple's contract ignores what it does not know.
protocol KnownFields: Decodable {
    static var fields: Set<String> { get }
}

extension ProductsRequest: KnownFields {
    static let fields: Set<String> = ["ids", "storefront"]
}

extension PaymentRequest: KnownFields {
    static let fields: Set<String> = ["account", "productId", "quantity", "applicationUsername", "discount", "offerCode", "winBackOffer"]
}

extension FinishRequest: KnownFields {
    static let fields: Set<String> = ["transactionId", "finished"]
}

extension VerifyRequest: KnownFields {
    static let fields: Set<String> = ["receipt", "transactionId", "productId", "claim"]
}

extension WireControls: KnownFields {
    static let fields: Set<String> = ["nextOutcome", "productOutcomes", "latencyMilliseconds", "askToBuy", "paymentsAllowed",
                                      "timeRate", "storefront", "account", "verification", "dropOrderIds", "billingIssues", "gracePeriod", "apiErrors"]
}

extension NotificationURLsRequest: KnownFields {
    static let fields: Set<String> = ["urls"]
}

extension APIKeyRequest: KnownFields, MultilineFields {
    static let fields: Set<String> = ["issuerId", "keyId", "key"]
    static let multilineFields: Set<String> = ["key"]
}

/// A request body with text fields that may break lines (a PEM key as read from its file); no
/// other control character is allowed in them.
protocol MultilineFields: Decodable {
    static var multilineFields: Set<String> { get }
}
