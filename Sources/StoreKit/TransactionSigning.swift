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
        return transactions.compactMap { transaction in
            guard let jws = signed[transaction.id] else { return nil }
            return SignedValue.verified(jws, store: store, forcedFailure: failing, decode: Transaction.init)
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
}

/// Any JWS the store signs (a transaction, renewal info, the app transaction) as StoreKit 2
/// hands it over: verified against the store's root, or unverified with why, and decoded from
/// its payload either way.
enum SignedValue {
    /// Nil when the payload is not a `Value` at all: nothing to hand over, verified or not.
    static func verified<Value>(
        _ jws: String, store: OpenedStore, forcedFailure: Bool, decode: (String, Data) -> Value?
    ) -> VerificationResult<Value>? {
        switch store.verifier.payload(of: jws, at: store.now) {
        case .success(let payload):
            guard let value = decode(jws, payload) else { return nil }
            return forcedFailure ? .unverified(value, .invalidSignature) : .verified(value)
        case .failure(let failure):
            guard let payload = part(1, of: jws), let value = decode(jws, payload) else { return nil }
            return .unverified(value, VerificationResult<Value>.VerificationError(failure))
        }
    }

    /// `index`: 0 the header, 1 the payload, 2 the signature, decoded; nil when it is not there
    /// or not base64url.
    static func part(_ index: Int, of jws: String) -> Data? {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        return parts.indices.contains(index) ? Base64URL.decode(String(parts[index])) : nil
    }
}
