import Foundation
import StoreCore
import StoreSigning

/// Produces and checks receipts: base64 of DER PKCS#7 SignedData whose content is the ASN.1 receipt.
struct ReceiptSigner: Sendable {
    let identity: SigningIdentity
    private let verifier: PKCS7Verifier

    init(identity: SigningIdentity) throws {
        self.identity = identity
        verifier = try PKCS7Verifier(identity: identity)
    }

    /// Longest receipt read, in base64 characters: a receipt body's limit is 5 MiB.
    static let maximumLength = 4_000_000

    func sign(_ payload: ReceiptPayload) throws -> String {
        Data(try PKCS7SignedData.sign(try payload.derEncoded(), with: identity)).base64EncodedString()
    }

    /// The payload, or the verifyReceipt status that refuses it.
    func open(_ receipt: String) -> Result<ReceiptPayload, VerifyStatusError> {
        guard let signed = Self.envelope(receipt) else {
            return .failure(VerifyStatusError(status: .malformedReceiptData))
        }
        guard verifier.isGenuine(signed) else {
            // The environment it says it is from, read without checking: only to tell which
            // environment to retry at, never to trust what it lists.
            return .failure(
                VerifyStatusError(
                    status: .notAuthenticated,
                    claimedEnvironment: try? ReceiptPayload.environment(derEncoded: signed.content)))
        }
        guard let payload = try? ReceiptPayload(derEncoded: signed.content) else {
            return .failure(VerifyStatusError(status: .malformedReceiptData))
        }
        return .success(payload)
    }

    /// The PKCS#7 of a receipt, unchecked; nil when it is too long, not base64 or not PKCS#7.
    private static func envelope(_ receipt: String) -> PKCS7SignedData? {
        guard receipt.utf8.count <= maximumLength, let data = Data(base64Encoded: receipt) else { return nil }
        return try? PKCS7SignedData(derEncoded: Array(data))
    }
}

struct VerifyStatusError: Error, Sendable {
    let status: VerifyStatus
    /// For a receipt that is not this store's: the environment it says it is from.
    var claimedEnvironment: StoreEnvironment? = nil
}
