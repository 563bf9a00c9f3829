import StoreAPI

/// A request body whose top-level fields are all known: any other field is refused (422, naming it)
/// instead of being silently ignored, so a typo such as `{"askTobuy": true}` in a PUT of the test
/// controls is an error and not a change that never happened. verifyReceipt is not one of these:
/// Apple's contract ignores what it does not know. The fields are the body's coding keys, which
/// the compiler holds to its properties, so a new field cannot be missing from them.
protocol KnownFields: Decodable {
    associatedtype CodingKeys: CodingKey & CaseIterable
}

extension KnownFields {
    static var fields: Set<String> { Set(CodingKeys.allCases.map(\.stringValue)) }
}

extension ProductsRequest: KnownFields {}

extension PaymentRequest: KnownFields {}

extension FinishRequest: KnownFields {}

extension PriceIncreaseRequest: KnownFields {}

extension MessageRequest: KnownFields {}

extension PurchaseIntentRequest: KnownFields {}

extension VerifyRequest: KnownFields {}

extension WireControls: KnownFields {}

extension NotificationURLsRequest: KnownFields {}

extension APIKeyRequest: KnownFields, MultilineFields {
    static let multilineFields: Set<String> = [CodingKeys.key.stringValue]
}

/// A request body with text fields that may break lines (a PEM key as read from its file); no
/// other control character is allowed in them.
protocol MultilineFields: Decodable {
    static var multilineFields: Set<String> { get }
}

extension CreateTransactionRequest: KnownFields {}
