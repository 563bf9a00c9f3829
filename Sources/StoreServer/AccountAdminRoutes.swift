import Foundation
import Hummingbird
import StoreAPI
import StoreCore
import StoreEngine

/// The sandbox's account tools under `/admin/accounts/{account}`: one tester's purchase history
/// cleared, the Sandbox Test Family an account is in, edited while the server runs, and what the
/// App Store tells the account's apps outside a purchase (a StoreKit message, a purchase the
/// customer started on the App Store).
enum AccountAdminRoutes {
    static func add(admin: RouterGroup<BasicRequestContext>, _ service: StoreService) {
        let limit = service.configuration.bodyLimit
        admin.post("/accounts/{account}/messages") { request, context in
            let account = try account(context, service)
            let (body, _) = try await BodyReader.decode(MessageRequest.self, from: request, limit: limit)
            guard let reason = StoreMessageReason(rawValue: body.reason), StoreMessageReason.sendable.contains(reason)
            else {
                throw APIError.invalid(
                    "reason \(String(body.reason.prefix(40)).debugDescription) is not a message a tester can send; expected \(StoreMessageReason.sendableInWords) (billingIssue and priceIncreaseConsent come with the subscription's state, winBackOffer when the account becomes eligible)",
                    field: "reason")
            }
            return try await StoreRoutes.manage(.sendMessage(account: account, reason: reason), service)
        }
        admin.post("/accounts/{account}/purchase-intents") { request, context in
            let account = try account(context, service)
            let (body, _) = try await BodyReader.decode(PurchaseIntentRequest.self, from: request, limit: limit)
            try IdRules.refuse(IdRules.productIdProblem(body.productId), field: "productId")
            if let offer = body.offerId, offer.isEmpty || offer.unicodeScalars.count > 512 {
                throw APIError.invalid("offerId must be 1 to 512 characters, or left out", field: "offerId")
            }
            return try await StoreRoutes.manage(
                .purchaseIntent(account: account, productId: body.productId, offerId: body.offerId), service)
        }
        admin.post("/accounts/{account}/clear") { _, context in
            try await StoreRoutes.manage(.clearAccount(try account(context, service)), service)
        }
        admin.put("/accounts/{account}/family/{family}") { _, context in
            let account = try account(context, service)
            guard let family = try StoreRoutes.pathParameter(context, "family") else {
                throw APIError.badRequest("the family in the path is not valid percent-encoding", field: "family")
            }
            return try await StoreRoutes.manage(.setFamily(account: account, family: family), service)
        }
        admin.delete("/accounts/{account}/family") { _, context in
            try await StoreRoutes.manage(.setFamily(account: try account(context, service), family: nil), service)
        }
        // An organization's or group's purchase assigned to a member (`inAppOwnershipType` ASSIGNED).
        admin.post("/transactions/{transactionId}/assign/{account}") { _, context in
            let id = try StoreRoutes.transactionId(context)
            return try await StoreRoutes.manage(.assign(id, account: try account(context, service)), service)
        }
    }

    /// The catalog's account the path names: 400 for a name no catalog could have, 404 for one
    /// this catalog lacks, as under `/v1/accounts`.
    static func account(_ context: BasicRequestContext, _ service: StoreService) throws -> String {
        try service.account(StoreRoutes.pathParameter(context, "account")).name
    }
}
