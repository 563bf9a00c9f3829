import Foundation
import Hummingbird
import ServerRecords
import StoreCore
import StoreEngine
import StoreKitModel

/// The App Store Server API routes that change something: Send Consumption Information, Extend a
/// Subscription Renewal Date and Set App Account Token.
enum ServerAPIChanges {
    static func add(_ api: RouterGroup<BasicRequestContext>, _ service: StoreService) {
        let limit = service.configuration.bodyLimit
        api.put("/v2/transactions/consumption/{transactionId}") { request, context in
            let id = try ServerAPIRoutes.transactionId(context)
            let (body, data) = try await BodyReader.decode(ConsumptionRequest.self, from: request, limit: limit)
            try check(body)
            guard let transaction = try await service.serverAPI.transaction(id: id) else {
                throw AppStoreAPIError.transactionIdNotFound
            }
            try refuseCopies(transaction)
            try ConsumptionRules.check(
                body, productType: ConsumptionRules.productType(of: transaction, in: service.catalog))
            try await service.serverAPI.recordConsumption(
                transactionId: id, body: String(decoding: data, as: UTF8.self))
            return Response(status: .accepted, headers: [.contentLength: "0"])
        }
        api.post("/v1/transactions/{transactionId}/finish") { _, context in
            let id = try ServerAPIRoutes.transactionId(context)
            guard try await service.serverAPI.finishFromServer(transactionId: id) else {
                throw AppStoreAPIError.transactionIdNotFound
            }
            return Response(status: .ok, headers: [.contentLength: "0"])
        }
        // Version 1, which Apple deprecated but clients still call: the same record, other fields.
        api.put("/v1/transactions/consumption/{transactionId}") { request, context in
            let id = try ServerAPIRoutes.transactionId(context)
            let (body, data) = try await BodyReader.decode(ConsumptionRequestV1.self, from: request, limit: limit)
            try body.check()
            guard let transaction = try await service.serverAPI.transaction(id: id) else {
                throw AppStoreAPIError.transactionIdNotFound
            }
            try refuseCopies(transaction)
            try ConsumptionRules.checkV1(
                productType: ConsumptionRules.productType(of: transaction, in: service.catalog))
            try await service.serverAPI.recordConsumption(
                transactionId: id, body: String(decoding: data, as: UTF8.self))
            return Response(status: .accepted, headers: [.contentLength: "0"])
        }
        api.put("/v1/subscriptions/extend/{originalTransactionId}") { request, context in
            let id = try ServerAPIRoutes.transactionId(context, "originalTransactionId", invalid: invalidOriginal)
            let (body, _) = try await BodyReader.decode(ExtendRenewalDateRequest.self, from: request, limit: limit)
            let (days, reason, requestId) = try check(body)
            switch try await service.serverAPI.extendRenewal(
                originalTransactionId: id, days: days, reason: reason, requestIdentifier: requestId)
            {
            case nil:
                throw AppStoreAPIError.originalTransactionIdNotFound
            case .failure(.ineligible(let why)):
                throw AppStoreAPIError(.subscriptionExtensionIneligible, "Subscription extension ineligible: \(why).")
            case .failure(.tooManyExtensions):
                throw AppStoreAPIError(
                    .subscriptionMaxExtension,
                    "Subscription max extension: extended twice in the last 365 days already.")
            case .failure(.assigned):
                throw AppStoreAPIError.assignedSubscriptionExtensionIneligible
            case .failure(.familyShared):
                throw AppStoreAPIError(
                    .familySharedSubscriptionExtensionIneligible,
                    "Family shared subscription extension ineligible: extend the purchaser's subscription.")
            case .failure(.requestIdentifierReused):
                throw AppStoreAPIError(
                    .invalidRequestIdentifier, "Invalid request identifier: it was used to extend another subscription."
                )
            case .success(let extended):
                return JSONBody.response(
                    ExtendRenewalDateResponse(
                        originalTransactionId: extended.originalTransactionId,
                        webOrderLineItemId: TransactionSigner.webOrderLineItemId(extended.transactionId),
                        success: true, effectiveDate: extended.newExpiresDate.epochMilliseconds))
            }
        }
        // Named transactionId as in the sibling routes (the router needs one name per position);
        // it must be an original transaction id.
        api.put("/v1/transactions/{transactionId}/appAccountToken") { request, context in
            let id = try ServerAPIRoutes.transactionId(context, invalid: invalidOriginal)
            let (body, _) = try await BodyReader.decode(UpdateAppAccountTokenRequest.self, from: request, limit: limit)
            guard let text = body.appAccountToken, let token = UUID(uuidString: text) else {
                throw AppStoreAPIError(
                    .invalidAppAccountTokenUUID, "Invalid request. The app account token field must be a valid UUID.")
            }
            guard let transaction = try await service.serverAPI.transaction(id: id) else {
                throw AppStoreAPIError.originalTransactionIdNotFound
            }
            try refuseCopies(transaction)
            guard transaction.transaction.originalId == id else {
                throw AppStoreAPIError(
                    .transactionIdIsNotOriginalTransactionId,
                    "Invalid request. The transaction id is not an original transaction id; send \(transaction.transaction.originalId)."
                )
            }
            _ = try await service.serverAPI.setAppAccountToken(token, originalTransactionId: id)
            return Response(status: .ok, headers: [.contentLength: "0"])
        }
    }

    static let invalidOriginal = AppStoreAPIError(.invalidOriginalTransactionId, "Invalid original transaction id.")

    /// A family member's copy is not theirs to report consumption of or to tag with a token
    /// (Apple's FamilyTransactionNotSupportedError): the purchaser's transaction is. Nor is a
    /// transaction an organization or group assigned (InvalidAssignedTransactionNotSupportedError,
    /// which Apple names for these three endpoints).
    static func refuseCopies(_ transaction: ServerTransaction) throws(AppStoreAPIError) {
        if transaction.details.ownership == .assigned { throw AppStoreAPIError.assignedTransactionNotSupported }
        guard transaction.details.ownership == .familyShared else { return }
        throw AppStoreAPIError(
            .familyTransactionNotSupported,
            "Family transaction not supported: the transaction is a family member's copy through Family Sharing; use the purchaser's transaction."
        )
    }

    static func check(_ body: ConsumptionRequest) throws(AppStoreAPIError) {
        guard body.customerConsented == true else {
            throw AppStoreAPIError(
                .invalidCustomerConsented,
                "Invalid request. customerConsented must be true to send consumption information.")
        }
        guard body.sampleContentProvided != nil else {
            throw AppStoreAPIError(
                .invalidSampleContentProvided, "Invalid request. sampleContentProvided is required (true or false).")
        }
        guard let delivery = body.deliveryStatus, ConsumptionRequest.deliveryStatuses.contains(delivery) else {
            throw AppStoreAPIError(
                .invalidDeliveryStatus,
                "Invalid request. deliveryStatus must be one of \(ConsumptionRequest.deliveryStatuses.sorted().joined(separator: ", "))."
            )
        }
        if let percentage = body.consumptionPercentage, !(0...100_000).contains(percentage) {
            throw AppStoreAPIError(
                .invalidConsumptionStatus, "Invalid request. consumptionPercentage is in milliunits, 0 to 100000.")
        }
        if let preference = body.refundPreference, !ConsumptionRequest.refundPreferences.contains(preference) {
            throw AppStoreAPIError(
                .invalidRefundPreference,
                "Invalid request. The refund preference field is invalid: use DECLINE, GRANT_FULL or GRANT_PRORATED.")
        }
    }

    static func check(_ body: ExtendRenewalDateRequest) throws(AppStoreAPIError) -> (Int, Int, String) {
        let (days, reason) = try checkDaysAndReason(body.extendByDays, body.extendReasonCode)
        guard let requestId = body.requestIdentifier, !requestId.isEmpty, requestId.unicodeScalars.count <= 128 else {
            throw AppStoreAPIError(
                .invalidRequestIdentifier, "Invalid request identifier: send a unique string of at most 128 characters."
            )
        }
        return (days, reason, requestId)
    }

    /// Apple's limits of an extension, one subscriber or all: 1 to 90 days, reason code 0 to 3.
    static func checkDaysAndReason(_ days: Int?, _ reason: Int?) throws(AppStoreAPIError) -> (Int, Int) {
        guard let days, extensionDays.contains(days) else {
            throw AppStoreAPIError(.invalidExtendByDays, "Invalid extend by days value: use 1 to 90.")
        }
        guard let reason, extensionReasons.contains(reason) else {
            throw AppStoreAPIError(.invalidExtendReasonCode, "Invalid extend reason code: use 0 to 3.")
        }
        return (days, reason)
    }

    /// `extendByDays`: at most 90 days at a time.
    static let extensionDays = 1...90
    /// `extendReasonCode`: undeclared, customer satisfaction, other, service issue or outage.
    static let extensionReasons = 0...3
}

/// Every `/inApps` request, routed or not: Apple's bearer token first (a plain 401 without one),
/// then each error in Apple's `{"errorCode", "errorMessage"}` shape, never this server's own.
/// Added to the whole router, so an unknown path or method under `/inApps` answers as Apple's
/// server would and a scan without a token learns nothing about which paths exist.
struct ServerAPIMiddleware<Context: RequestContext>: RouterMiddleware {
    static var prefix: String { "/inApps" }

    let keys: APIKeyRing
    let clock: any StoreClock
    let allowed: AllowedMethods

    static func covers(_ path: String) -> Bool {
        path == prefix || path.hasPrefix(prefix + "/")
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard Self.covers(request.uri.path) else { return try await next(request, context) }
        do {
            try await keys.authenticate(request.headers[.authorization], now: clock.now())
        } catch {
            context.logger.info("App Store Server API request refused 401: \(error.reason)")
            return error.response()
        }
        do {
            return try await next(request, context)
        } catch let error as AppStoreAPIError {
            return error.response()
        } catch let error as APIError where error.status.code < 500 {
            return AppStoreAPIError(.generalBadRequest, "Invalid request. \(error.message)").response()
        } catch let error as any HTTPResponseError where error.status.code < 500 {
            return refusal(error.status, request).response()
        } catch let failure as StoreFailure where failure.kind == .storage || failure.kind == .unavailable {
            context.logger.error("store failure: \(failure.message)")
            return AppStoreAPIError.retryable.response()
        } catch {
            context.logger.error("App Store Server API error: \(String(reflecting: error))")
            return AppStoreAPIError.unknown.response()
        }
    }

    /// What the router itself refused: no such route or not this method; anything else (a body
    /// over the limit) is a bad request, as the routes' own body checks answer it.
    func refusal(_ status: HTTPResponse.Status, _ request: Request) -> AppStoreAPIError {
        let path = String(request.uri.path.prefix(200))
        let method = String(request.method.rawValue.prefix(20))
        switch status {
        case .notFound:
            let methods = allowed.methods(for: request.uri.path)
            guard methods.isEmpty else {
                var error = AppStoreAPIError(
                    .methodNotAllowed,
                    "Method not allowed. \(method) is not allowed on \(path); it allows \(methods.joined(separator: ", "))."
                )
                error.headers[.allow] = methods.joined(separator: ", ")
                return error
            }
            return AppStoreAPIError(
                .routeNotFound, "Not found. The App Store Server API has no route \(method) \(path); see docs/api.md.")
        default:
            return AppStoreAPIError(.generalBadRequest, "Invalid request. HTTP \(status.code).")
        }
    }
}
