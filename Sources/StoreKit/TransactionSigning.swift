import Foundation
import StoreCore
import StoreKitModel
import StoreSigning

/// Store transactions as StoreKit 2 hands them to an app: signed by the store, checked against
/// the store's root, and decoded from the JWS payload. The verification-failure test control
/// makes every one unverified, as a tampered JWS would be.
enum TransactionSigning {
    static func verified(_ transactions: [StoreKitModel.Transaction], store: OpenedStore) async throws
        -> [VerificationResult<Transaction>]
    {
        guard !transactions.isEmpty else { return [] }
        let signed = try await StoreKitCall.run { try await store.backend.signedTransactions(transactions) }
        let failing = Self.failsVerification(try await StoreKitCall.run { try await store.backend.controls() })
        let now = store.now
        return transactions.compactMap { transaction in
            guard let jws = signed[transaction.id] else { return nil }
            return result(of: jws, at: now, verifier: store, forcedFailure: failing)
        }
    }

    /// A verification control that refuses receipts refuses StoreKit 2's signatures too, as does
    /// a simulated verification error; one that makes the app's server unreachable does not, as
    /// StoreKit checks on the device.
    static func failsVerification(_ controls: TestControls) -> Bool {
        if controls.apiErrors[.verification] != nil { return true }
        if case .status = controls.verificationFailure { return true }
        return false
    }

    static func result(of jws: String, at now: Date, verifier store: OpenedStore, forcedFailure: Bool)
        -> VerificationResult<Transaction>?
    {
        switch store.verifier.payload(of: jws, at: now) {
        case .success(let payload):
            guard let transaction = Transaction(jws: jws, payload: payload) else { return nil }
            return forcedFailure ? .unverified(transaction, .invalidSignature) : .verified(transaction)
        case .failure(let failure):
            let payload = jws.split(separator: ".", omittingEmptySubsequences: false).dropFirst().first
            guard
                let transaction = payload.flatMap({ Base64URL.decode(String($0)) }).flatMap({
                    Transaction(jws: jws, payload: $0)
                })
            else { return nil }
            return .unverified(transaction, VerificationResult<Transaction>.VerificationError(failure))
        }
    }
}
