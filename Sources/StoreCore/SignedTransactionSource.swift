import Foundation
import StoreKitModel

/// Where StoreKit 2's signed values come from: the compact JWS a `Transaction`'s
/// `jwsRepresentation` holds, a subscription's status with its signed renewal info, the app
/// transaction, and the root certificate every `x5c` chain ends in, which an app verifies them
/// against. The simulated store signs in process; a remote store's server signs.
public protocol SignedTransactionSource: Sendable {
    /// Each purchased or restored transaction's JWS, by transaction id; other states have none.
    func signedTransactions(_ transactions: [Transaction]) async throws -> [String: String]
    /// Each auto-renewable subscription of the account (one per chain, a family member's copy
    /// included), its latest transaction and its renewal info signed, as Get All Subscription
    /// Statuses reports them.
    func signedSubscriptionStatuses(account: String) async throws -> [SignedSubscriptionStatus]
    /// The account's purchase of the app itself, signed (`AppTransaction.shared`).
    func signedAppTransaction(account: String) async throws -> String
    /// The DER certificate at the root of every JWS's chain.
    func signingRoot() async throws -> Data
}
