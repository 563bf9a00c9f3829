import Foundation
import HTTPTypes
import Hummingbird

/// An App Store Server API refusal as Apple sends it: `{"errorCode", "errorMessage"}` with the
/// HTTP status the code's first three digits name, and `Content-Type: application/json` exactly
/// (Apple's Python client reads no error code from any other content type).
struct AppStoreAPIError: Error, Sendable, Hashable {
    /// Apple's error codes, as its server libraries name them.
    enum Code: Int, Sendable {
        case generalBadRequest = 4_000_000
        case invalidAppIdentifier = 4_000_002
        case invalidRequestRevision = 4_000_005
        case invalidTransactionId = 4_000_006
        case invalidOriginalTransactionId = 4_000_008
        case invalidExtendByDays = 4_000_009
        case invalidExtendReasonCode = 4_000_010
        case invalidRequestIdentifier = 4_000_011
        case startDateTooFarInPast = 4_000_012
        case startDateAfterEndDate = 4_000_013
        case invalidPaginationToken = 4_000_014
        case invalidStartDate = 4_000_015
        case invalidEndDate = 4_000_016
        case paginationTokenExpired = 4_000_017
        case invalidNotificationType = 4_000_018
        case multipleFiltersSupplied = 4_000_019
        case invalidTestNotificationToken = 4_000_020
        case invalidSort = 4_000_021
        case invalidProductType = 4_000_022
        case invalidProductId = 4_000_023
        case invalidSubscriptionGroupIdentifier = 4_000_024
        case invalidExcludeRevoked = 4_000_025
        case invalidInAppOwnershipType = 4_000_026
        case invalidEmptyStorefrontCountryCodeList = 4_000_027
        case invalidStorefrontCountryCode = 4_000_028
        case invalidRevoked = 4_000_030
        case invalidStatus = 4_000_031
        case invalidAccountTenure = 4_000_032
        case invalidAppAccountToken = 4_000_033
        case invalidConsumptionStatus = 4_000_034
        case invalidCustomerConsented = 4_000_035
        case invalidDeliveryStatus = 4_000_036
        case invalidLifetimeDollarsPurchased = 4_000_037
        case invalidLifetimeDollarsRefunded = 4_000_038
        case invalidPlatform = 4_000_039
        case invalidPlayTime = 4_000_040
        case invalidSampleContentProvided = 4_000_041
        case invalidUserStatus = 4_000_042
        case invalidRefundPreference = 4_000_044
        case invalidTransactionTypeNotSupported = 4_000_047
        case invalidImage = 4_000_161
        case headerTooLong = 4_000_162
        case bodyTooLong = 4_000_163
        case invalidLocale = 4_000_164
        case altTextTooLong = 4_000_175
        case invalidAppAccountTokenUUID = 4_000_183
        case familyTransactionNotSupported = 4_000_185
        case transactionIdIsNotOriginalTransactionId = 4_000_187
        case consumptionPercentageAutoRenewableSubscription = 4_000_209
        case invalidPerformanceTestRequest = 4_000_211
        case invalidRequestId = 4_000_212
        case existingPerformanceTestRun = 4_000_213
        case badRequestRealtimeURL = 4_000_215
        case badRequestImageSize = 4_000_216
        case tooManyBulletPoints = 4_000_218
        case bulletPointTextTooLong = 4_000_219
        case aboveImageRequiresAnImage = 4_000_224
        /// InvalidAssignedTransactionNotSupportedError (App Store Server API 1.22).
        case invalidAssignedTransactionNotSupported = 4_000_227
        case subscriptionExtensionIneligible = 4_030_004
        case subscriptionMaxExtension = 4_030_005
        case familySharedSubscriptionExtensionIneligible = 4_030_007
        case maximumNumberOfImagesReached = 4_030_014
        case maximumNumberOfMessagesReached = 4_030_016
        case messageNotApproved = 4_030_017
        case imageNotApproved = 4_030_018
        case imageInUse = 4_030_019
        case forbiddenNoPassingTest = 4_030_026
        /// AssignedSubscriptionExtensionIneligibleError (App Store Server API 1.22).
        case assignedSubscriptionExtensionIneligible = 4_030_028
        case originalTransactionIdNotFound = 4_040_005
        case serverNotificationURLNotFound = 4_040_007
        case testNotificationNotFound = 4_040_008
        case statusRequestNotFound = 4_040_009
        case transactionIdNotFound = 4_040_010
        case imageNotFound = 4_040_014
        case messageNotFound = 4_040_015
        case performanceTestRunNotFound = 4_040_018
        case defaultMessageNotFound = 4_040_020
        case realtimeURLNotFound = 4_040_021
        /// No route at this path, or not with this method. Apple documents no code for these;
        /// the store answers with the general code of the status, as Apple's 4000000, 4290000
        /// and 5000000 are the general codes of theirs.
        case routeNotFound = 4_040_000
        case methodNotAllowed = 4_050_000
        case imageAlreadyExists = 4_090_000
        case messageAlreadyExists = 4_090_001
        case rateLimitExceeded = 4_290_000
        case generalInternal = 5_000_000
        case generalInternalRetryable = 5_000_001
    }

    let code: Code
    let message: String
    var headers: HTTPFields = [:]

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
        var response = JSONBody.response(Body(errorCode: code.rawValue, errorMessage: message), status: status)
        response.headers.append(contentsOf: headers)
        return response
    }

    // Apple's own wording where its documentation gives it.
    static let invalidTransactionId = AppStoreAPIError(.invalidTransactionId, "Invalid transaction id.")
    static let transactionIdNotFound = AppStoreAPIError(.transactionIdNotFound, "Transaction id not found.")
    static let originalTransactionIdNotFound = AppStoreAPIError(
        .originalTransactionIdNotFound, "Original transaction id not found.")
    static let invalidRevision = AppStoreAPIError(.invalidRequestRevision, "Invalid request revision.")
    static let unknown = AppStoreAPIError(.generalInternal, "An unknown error occurred.")
    /// Send Consumption Information (both versions) and Set App Account Token refuse a
    /// transaction an organization or group assigned to the customer.
    static let assignedTransactionNotSupported = AppStoreAPIError(
        .invalidAssignedTransactionNotSupported,
        "Invalid request. Assigned transactions aren't supported by this endpoint.")
    /// Extend a Subscription Renewal Date refuses an assigned subscription: it renews on the
    /// purchaser's schedule.
    static let assignedSubscriptionExtensionIneligible = AppStoreAPIError(
        .assignedSubscriptionExtensionIneligible, "Assigned subscriptions can't get a renewal date extension.")
    static let retryable = AppStoreAPIError(.generalInternalRetryable, "An unknown error occurred. Please try again.")
}

/// A request the App Store Server API does not authenticate: a plain 401 with no JSON, as Apple
/// answers a missing, malformed, expired or unknown bearer token. The reason goes to the log only.
struct AppStoreAuthError: Error, Sendable {
    let reason: String

    func response() -> Response {
        let body = Data(
            "Unauthenticated\n\nRequest ID: \(UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(26)).\n"
                .utf8)
        return Response(
            status: .unauthorized, headers: [.contentType: "text/plain", .contentLength: String(body.count)],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}
