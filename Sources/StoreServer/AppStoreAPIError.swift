import Foundation
import HTTPTypes
import Hummingbird

/// An App Store Server API refusal as Apple sends it: `{"errorCode", "errorMessage"}` with the
/// HTTP status the code's first three digits name, and `Content-Type: application/json` exactly
/// (Apple's Python client reads no error code from any other content type).
struct AppStoreAPIError: Error, Sendable, Hashable {
    /// Apple's error codes, as its server libraries name them.
    enum Code: Int, Sendable {
        case generalBadRequest = 4000000
        case invalidAppIdentifier = 4000002
        case invalidRequestRevision = 4000005
        case invalidTransactionId = 4000006
        case invalidOriginalTransactionId = 4000008
        case invalidExtendByDays = 4000009
        case invalidExtendReasonCode = 4000010
        case invalidRequestIdentifier = 4000011
        case startDateTooFarInPast = 4000012
        case startDateAfterEndDate = 4000013
        case invalidPaginationToken = 4000014
        case invalidStartDate = 4000015
        case invalidEndDate = 4000016
        case paginationTokenExpired = 4000017
        case invalidNotificationType = 4000018
        case multipleFiltersSupplied = 4000019
        case invalidTestNotificationToken = 4000020
        case invalidSort = 4000021
        case invalidProductType = 4000022
        case invalidProductId = 4000023
        case invalidSubscriptionGroupIdentifier = 4000024
        case invalidExcludeRevoked = 4000025
        case invalidInAppOwnershipType = 4000026
        case invalidRevoked = 4000030
        case invalidStatus = 4000031
        case invalidAccountTenure = 4000032
        case invalidAppAccountToken = 4000033
        case invalidConsumptionStatus = 4000034
        case invalidCustomerConsented = 4000035
        case invalidDeliveryStatus = 4000036
        case invalidSampleContentProvided = 4000041
        case invalidAppAccountTokenUUID = 4000183
        case transactionIdIsNotOriginalTransactionId = 4000187
        case subscriptionExtensionIneligible = 4030004
        case subscriptionMaxExtension = 4030005
        case familySharedSubscriptionExtensionIneligible = 4030007
        case originalTransactionIdNotFound = 4040005
        case serverNotificationURLNotFound = 4040007
        case testNotificationNotFound = 4040008
        case transactionIdNotFound = 4040010
        case rateLimitExceeded = 4290000
        case generalInternal = 5000000
        case generalInternalRetryable = 5000001
    }

    let code: Code
    let message: String

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    var status: HTTPResponse.Status { HTTPResponse.Status(code: code.rawValue / 10_000) }

    struct Body: Codable, Sendable {
        let errorCode: Int
        let errorMessage: String
    }

    func response() -> Response {
        JSONBody.response(Body(errorCode: code.rawValue, errorMessage: message), status: status)
    }

    // Apple's own wording where its documentation gives it.
    static let invalidTransactionId = AppStoreAPIError(.invalidTransactionId, "Invalid transaction id.")
    static let transactionIdNotFound = AppStoreAPIError(.transactionIdNotFound, "Transaction id not found.")
    static let originalTransactionIdNotFound = AppStoreAPIError(.originalTransactionIdNotFound, "Original transaction id not found.")
    static let invalidRevision = AppStoreAPIError(.invalidRequestRevision, "Invalid request revision.")
    static let unknown = AppStoreAPIError(.generalInternal, "An unknown error occurred.")
    static let retryable = AppStoreAPIError(.generalInternalRetryable, "An unknown error occurred. Please try again.")
}

/// A request the App Store Server API does not authenticate: a plain 401 with no JSON, as Apple
/// answers a missing, malformed, expired or unknown bearer token. The reason goes to the log only.
struct AppStoreAuthError: Error, Sendable {
    let reason: String

    func response() -> Response {
        let body = Data("Unauthenticated\n\nRequest ID: \(UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(26)).\n".utf8)
        return Response(status: .unauthorized, headers: [.contentType: "text/plain", .contentLength: String(body.count)],
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}
