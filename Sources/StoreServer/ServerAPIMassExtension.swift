import Foundation
import Hummingbird
import ServerRecords
import StoreCore
import StoreEngine
import StoreKitModel

/// Extend Subscription Renewal Dates for All Active Subscribers and Get Status of Subscription
/// Renewal Date Extensions: the request is answered once recorded, and the server's maintenance
/// applies it in the background (`SimulatedStore.advanceMassExtensions`).
enum ServerAPIMassExtension {
    static func add(_ api: RouterGroup<BasicRequestContext>, _ service: StoreService) {
        let limit = service.configuration.bodyLimit
        api.post("/v1/subscriptions/extend/mass") { request, _ in
            let (body, _) = try await BodyReader.decode(MassExtendRenewalDateRequest.self, from: request, limit: limit)
            let mass = try check(body, catalog: service.catalog)
            switch try await service.massExtensions.start(mass) {
            case .started(let status), .repeated(let status):
                return JSONBody.response(
                    MassExtendRenewalDateResponse(requestIdentifier: status.request.requestIdentifier))
            case .identifierReused(let earlier):
                throw AppStoreAPIError(
                    .invalidRequestIdentifier,
                    "Invalid request identifier: it names an earlier request for \(earlier.request.productId) with other values; send a new UUID."
                )
            }
        }
        api.get("/v1/subscriptions/extend/mass/{productId}/{requestIdentifier}") { _, context in
            guard let productId = try StoreRoutes.pathParameter(context, "productId"), !productId.isEmpty else {
                throw invalidProductId
            }
            guard let requestId = try StoreRoutes.pathParameter(context, "requestIdentifier"),
                UUID(uuidString: requestId) != nil
            else { throw invalidRequestIdentifier }
            guard let status = try await service.massExtensions.status(requestIdentifier: requestId),
                status.request.productId == productId
            else {
                throw AppStoreAPIError(
                    .statusRequestNotFound,
                    "Status request not found: no mass extension \(requestId) of \(productId.prefix(100)).")
            }
            return JSONBody.response(MassExtendRenewalDateStatusResponse(status))
        }
    }

    static let invalidProductId = AppStoreAPIError(
        .invalidProductId, "Invalid product id: name an auto-renewable subscription of the app.")
    static let invalidRequestIdentifier = AppStoreAPIError(
        .invalidRequestIdentifier, "Invalid request identifier: send a UUID.")

    /// Apple's checks of the body, in the order of its fields.
    static func check(_ body: MassExtendRenewalDateRequest, catalog: Catalog) throws(AppStoreAPIError)
        -> MassExtensionRequest
    {
        let (days, reason) = try ServerAPIChanges.checkDaysAndReason(body.extendByDays, body.extendReasonCode)
        guard let requestId = body.requestIdentifier, UUID(uuidString: requestId) != nil else {
            throw invalidRequestIdentifier
        }
        guard let productId = body.productId, catalog.product(id: productId)?.type == .autoRenewable else {
            throw invalidProductId
        }
        if let codes = body.storefrontCountryCodes {
            guard !codes.isEmpty else {
                throw AppStoreAPIError(
                    .invalidEmptyStorefrontCountryCodeList,
                    "Invalid storefront country codes: the list is empty; omit it to extend in every storefront.")
            }
            if let bad = codes.first(where: { !isCountryCode($0) }) {
                throw AppStoreAPIError(
                    .invalidStorefrontCountryCode,
                    "Invalid storefront country code \"\(bad.prefix(20))\": use ISO 3166-1 alpha-3, e.g. USA.")
            }
        }
        return MassExtensionRequest(
            requestIdentifier: requestId, productId: productId, days: days, reason: reason,
            storefronts: body.storefrontCountryCodes)
    }

    /// Three capital letters, as ISO 3166-1 alpha-3 codes and the store's storefronts are written.
    static func isCountryCode(_ code: String) -> Bool {
        code.utf8.count == 3 && code.utf8.allSatisfy { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }
    }
}

/// Extend Subscription Renewal Dates for All Active Subscribers' request and answer.
struct MassExtendRenewalDateRequest: Codable, Sendable {
    let extendByDays: Int?
    let extendReasonCode: Int?
    let requestIdentifier: String?
    let productId: String?
    let storefrontCountryCodes: [String]?
}

struct MassExtendRenewalDateResponse: Codable, Sendable {
    let requestIdentifier: String
}

/// Get Status of Subscription Renewal Date Extensions' answer: the counts so far, and when it
/// completed (nil, and `complete` false, while it runs).
struct MassExtendRenewalDateStatusResponse: Codable, Sendable {
    let requestIdentifier: String
    let complete: Bool
    let completeDate: Int64?
    let succeededCount: Int
    let failedCount: Int

    init(_ status: MassExtensionStatus) {
        requestIdentifier = status.request.requestIdentifier
        complete = status.isComplete
        completeDate = status.completeDate?.epochMilliseconds
        succeededCount = status.succeeded
        failedCount = status.failed
    }
}
