import Foundation
import Hummingbird
import StoreCore
import StoreEngine

/// The sandbox's account tools under `/admin/accounts/{account}`: one tester's purchase history
/// cleared, and the Sandbox Test Family an account is in, edited while the server runs.
enum AccountAdminRoutes {
    static func add(admin: RouterGroup<BasicRequestContext>, _ service: StoreService) {
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
    }

    /// The catalog's account the path names: 400 for a name no catalog could have, 404 for one
    /// this catalog lacks, as under `/v1/accounts`.
    static func account(_ context: BasicRequestContext, _ service: StoreService) throws -> String {
        try service.account(StoreRoutes.pathParameter(context, "account")).name
    }
}
