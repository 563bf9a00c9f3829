import Foundation
import LocalState
import ServerRecords
import StoreCore
import StoreKitModel
import StoreSQL

extension SimulatedStore {
    /// verifyReceipt plus the checks an app's server must add: the transaction is
    /// in the receipt, its product matches the order, and its id was not consumed by another claim.
    public func verify(receipt: String, transactionId: String, productId: String, claim: String) async throws
        -> VerificationResult
    {
        let controls = try await controls()
        if let error = controls.apiErrors[.verification] {
            return .rejected(
                status: nil,
                reason:
                    "the purchase failed verification (simulated \(error.domain) \(error.code) \(error.name)); do not deliver it"
            )
        }
        switch controls.verificationFailure {
        case .unreachable:
            return .retryLater(reason: "the verification server is unreachable")
        case .status(let status):
            return status.isRetryable
                ? .retryLater(reason: "verifyReceipt status \(status.rawValue): \(status.meaning)")
                : .rejected(status: status, reason: status.meaning)
        case nil:
            break
        }
        let payload: ReceiptPayload
        switch signer.open(receipt) {
        case .success(let opened): payload = opened
        case .failure(let error): return .rejected(status: error.status, reason: error.status.meaning)
        }
        // A receipt of another environment is genuine but not for this store: verifyReceipt's 21007/21008.
        if payload.environment != environment {
            let status: VerifyStatus? =
                switch (payload.environment, environment) {
                case (.sandbox, .production): .sandboxReceiptSentToProduction
                case (.production, .sandbox): .productionReceiptSentToSandbox
                default: nil
                }
            return .rejected(status: status, reason: "a \(payload.environment) receipt sent to a \(environment) store")
        }
        if payload.bundleId != catalog.bundleId {
            return .rejected(
                status: nil, reason: "the receipt is for \(payload.bundleId), not this app (\(catalog.bundleId))")
        }
        let item = payload.inApp.first { $0.transactionId == transactionId }
        if let item, item.productId != productId {
            return .rejected(
                status: nil,
                reason: "the receipt's transaction \(transactionId) is for \(item.productId), not \(productId)")
        }
        let now = clock.now()
        return try await database.write { db in
            // Looked up before the receipt's list: a consumable another device of the account
            // verified and finished has left every receipt issued since, and its claim still stands.
            if let earlier = try String.fetchOne(
                db, sql: "SELECT claim FROM consumed WHERE transaction_id = ? AND account = ? AND product_id = ?",
                arguments: [transactionId, payload.account, productId])
            {
                return earlier == claim
                    ? .verified
                    : .replayed(
                        reason:
                            "transaction \(transactionId) was already delivered under another claim (replayed receipt, or another device of the account)"
                    )
            }
            guard item != nil else {
                return .rejected(status: nil, reason: "transaction \(transactionId) is not in the receipt")
            }
            try db.execute(
                sql:
                    "INSERT INTO consumed (transaction_id, account, product_id, claim, consumed_at) VALUES (?, ?, ?, ?, ?)",
                arguments: [transactionId, payload.account, productId, claim, now.timeIntervalSince1970])
            return .verified
        }
    }
}
