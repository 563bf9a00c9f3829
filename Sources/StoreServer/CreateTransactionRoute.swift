import Foundation
import Hummingbird
import StoreAPI
import StoreCore

/// `POST /admin/transactions`: Xcode 26's "create a transaction" made outside the device. 201
/// with the updates the app hears (the purchase and the renewals that followed from its date);
/// an optional Idempotency-Key makes a retry answer the first creation instead of making another.
enum CreateTransactionRoute {
    static func add(admin: RouterGroup<BasicRequestContext>, _ service: StoreService) {
        let limit = service.configuration.bodyLimit
        admin.post("/transactions") { request, _ in
            try BodyReader.requireJSON(request)
            let data = try await BodyReader.bytes(request, limit: limit)
            let body = try BodyReader.decode(CreateTransactionRequest.self, from: data)
            let creation: TransactionCreation
            do {
                creation = try body.creation()
            } catch let problem as CreateTransactionRequest.Problem {
                throw APIError.invalid(problem.message, field: problem.field)
            }
            return try await service.idempotent(request, body: data) {
                let updates = try await service.store.perform(.createTransaction(creation))
                return (.created, JSONBody.data(ManageResponse(updates: try await service.wire(updates))))
            }
        }
    }
}
