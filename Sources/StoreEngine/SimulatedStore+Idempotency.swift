import Foundation
import LocalState
import StoreCore
import StoreKitModel
import StoreSQL

/// What an idempotent payment answered.
public enum IdempotentAdd: Sendable, Hashable {
    /// The answer to send: the first one stored for the key. `replayed`: stored by an earlier request.
    case answered(StoredResponse, replayed: Bool)
    /// The key was used with another request (method, path or body differ).
    case mismatch
}

/// A server's idempotency keys and its transaction-signing key, kept in the store's database.
extension SimulatedStore {
    /// A server's payment in one commit: the key reserved (or found), the payment added (or found
    /// by the key's generation, after a crash that lost its answer), and the answer that `respond`
    /// builds from the transaction stored with the key. One fsync instead of three, and a crash
    /// leaves either all of it or none. If `respond` throws, nothing is kept.
    public func add(
        _ payment: Payment, idempotency request: IdempotentRequest,
        respond: @escaping @Sendable (Transaction, TransactionDetails) throws -> StoredResponse
    ) async throws -> IdempotentAdd {
        let account = try validatedAccount(payment)
        let now = clock.now()
        let (answer, added, completed): (IdempotentAdd, AddResult?, TransactionUpdate?) =
            try await database
            .write { db in
                let generation: String
                var earlier: AddResult?
                let unused = try IdempotencyKeys.unused(request, db)
                switch try unused.map(IdempotencyReservation.reserved) ?? IdempotencyKeys.earlierUse(request, db) {
                case .mismatch: return (.mismatch, nil, nil)
                case .completed(let stored): return (.answered(stored, replayed: true), nil, nil)
                case .reserved(let fresh): generation = fresh
                case .pending(let again):
                    // A fresh generation has no transaction yet; this one may have, if a crash lost its answer.
                    generation = again
                    earlier = try self.earlierPayment(payment, requestKey: "\(request.key)#\(again)", db)
                }
                let added =
                    try earlier
                    ?? self.insertPayment(
                        payment, account: account, forced: nil, requestKey: "\(request.key)#\(generation)", at: now, db)
                // A new transaction is its own original; one an earlier request added is read back.
                guard
                    let details = try added.inserted.map({ TransactionDetails($0.stored, originalPurchaseDate: now) })
                        ?? self.details(of: added.transaction.id, db)
                else {
                    throw StoreFailure("transaction \(added.transaction.id) vanished inside its own write")
                }
                // A key used for the first time is written once, with its answer.
                let response = try respond(added.transaction, details)
                let stored =
                    try unused == nil
                    ? IdempotencyKeys.complete(
                        key: request.key, generation: generation, response: response, at: request.now, db)
                    : IdempotencyKeys.insertAnswered(request, generation: generation, response: response, db)
                // The answer shows the payment as added (`purchasing`); its outcome is in the same commit.
                return (.answered(stored, replayed: false), added, added.completed)
            }
        if let added { started(added, completed: completed) }
        return answer
    }
}
