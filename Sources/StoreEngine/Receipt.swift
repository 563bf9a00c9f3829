import Crypto
import Foundation
import LocalState
import StoreCore
import StoreKitModel

/// What a receipt says: the app, the account, and every transaction of the account so far,
/// with Apple's field names. Signed with the store's key so a tampered receipt is refused (21003).
public struct ReceiptPayload: Codable, Sendable, Hashable {
    public struct InApp: Codable, Sendable, Hashable {
        public let quantity: String
        public let product_id: String
        public let transaction_id: String
        public let original_transaction_id: String
        public let purchase_date_ms: String
        public let expires_date_ms: String?
        public let cancellation_date_ms: String?
    }

    public let bundle_id: String
    public let environment: String
    public let account: String
    public let receipt_creation_date_ms: String
    public let in_app: [InApp]
}

/// Produces and checks receipts: base64 of `{"payload": base64(JSON), "signature": base64(HMAC-SHA256)}`.
struct ReceiptSigner: Sendable {
    let keyData: Data

    private var key: SymmetricKey { SymmetricKey(data: keyData) }

    private struct Envelope: Codable {
        let payload: String
        let signature: String
    }

    func sign(_ payload: ReceiptPayload) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let body = (try? encoder.encode(payload)) ?? Data()
        let signature = Data(HMAC<SHA256>.authenticationCode(for: body, using: key))
        let envelope = Envelope(payload: body.base64EncodedString(), signature: signature.base64EncodedString())
        return ((try? encoder.encode(envelope)) ?? Data()).base64EncodedString()
    }

    /// The environment a receipt says it is from, read without checking its signature: only
    /// to tell which environment to retry at, never to trust what it lists.
    static func claimedEnvironment(_ receipt: String) -> String? {
        guard receipt.utf8.count <= 4_000_000, let data = Data(base64Encoded: receipt),
              let envelope = try? JSONDecoder().decode(Envelope.self, from: data),
              let body = Data(base64Encoded: envelope.payload) else { return nil }
        return (try? JSONDecoder().decode(ReceiptPayload.self, from: body))?.environment
    }

    /// The payload, or the verifyReceipt status that refuses it.
    func open(_ receipt: String) -> Result<ReceiptPayload, VerifyStatusError> {
        guard receipt.utf8.count <= 4_000_000, let data = Data(base64Encoded: receipt),
              let envelope = try? JSONDecoder().decode(Envelope.self, from: data),
              let body = Data(base64Encoded: envelope.payload),
              let signature = Data(base64Encoded: envelope.signature) else {
            return .failure(VerifyStatusError(status: .malformedReceiptData))
        }
        guard HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: body, using: key) else {
            return .failure(VerifyStatusError(status: .notAuthenticated))
        }
        guard let payload = try? JSONDecoder().decode(ReceiptPayload.self, from: body) else {
            return .failure(VerifyStatusError(status: .malformedReceiptData))
        }
        return .success(payload)
    }
}

struct VerifyStatusError: Error, Sendable {
    let status: VerifyStatus
}

extension ReceiptPayload.InApp {
    init(_ stored: StoredTransaction) {
        let milliseconds = { (date: Date) in String(Int64((date.timeIntervalSince1970 * 1000).rounded())) }
        quantity = String(stored.transaction.quantity)
        product_id = stored.transaction.productId
        transaction_id = stored.transaction.id
        original_transaction_id = stored.transaction.originalId
        purchase_date_ms = milliseconds(stored.transaction.purchaseDate)
        expires_date_ms = stored.expiresDate.map(milliseconds)
        cancellation_date_ms = stored.revocationDate.map(milliseconds)
    }
}
