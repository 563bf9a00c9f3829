import Foundation
import StoreKitModel

/// Where StoreKit 2's signed transactions come from: the compact JWS a `Transaction`'s
/// `jwsRepresentation` holds, and the root certificate its `x5c` chain ends in, which an app
/// verifies it against. The simulated store signs in process; a remote store's server signs.
public protocol SignedTransactionSource: Sendable {
    /// Each purchased or restored transaction's JWS, by transaction id; other states have none.
    func signedTransactions(_ transactions: [Transaction]) async throws -> [String: String]
    /// The DER certificate at the root of every JWS's chain.
    func signingRoot() async throws -> Data
}
