import Crypto
import Foundation
import LocalState
import StoreCore
import StoreEngine
import StoreSigning

@testable import StoreServer

/// Checks a transaction's `jwsRepresentation` as an app server would, with the key served at
/// `/.well-known/storefront-jws-key.pem`: the counterpart of `TransactionSigner`.
///
/// The header is read only to refuse what this store never issues; the algorithm is fixed to ES256
/// whatever the header says, so `"alg": "none"`, an HMAC algorithm keyed with the public key, or a
/// header naming another key cannot change how the signature is checked.
struct JWSVerifier: Sendable {
    /// Why a JWS was refused.
    public enum Refusal: Error, Sendable, Hashable, CustomStringConvertible {
        case notCompact
        case badHeader
        case unsupportedAlgorithm(String)
        case unknownKey(String)
        case badSignature
        case badPayload

        public var description: String {
            switch self {
            case .notCompact: "not a compact JWS (three base64url parts separated by dots)"
            case .badHeader: "the header is not a JSON object with alg and kid"
            case .unsupportedAlgorithm(let alg):
                "the header's alg is \(alg.prefix(20)); this store signs with ES256 only"
            case .unknownKey(let kid): "the header's kid \(kid.prefix(64)) is not this store's key"
            case .badSignature:
                "the signature does not match the header and payload (tampered, or signed with another key)"
            case .badPayload: "the payload is not a signed transaction"
            }
        }
    }

    /// The public key's raw representation (swift-crypto's key type is not Sendable).
    let rawKey: Data
    let keyId: String

    public init(publicKey: P256.Signing.PublicKey, keyId: String) {
        rawKey = publicKey.rawRepresentation
        self.keyId = keyId
    }

    /// The verifier for the public key of `signer`.
    public init(_ signer: TransactionSigner) {
        self.init(publicKey: signer.publicKey, keyId: signer.keyId)
    }

    /// The transaction a JWS carries, once its header, signature and payload have been checked.
    public func verify(_ jws: String) -> Result<SignedTransactionPayload, Refusal> {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard jws.utf8.count <= 64 * 1024, parts.count == 3,
            let headerData = Base64URL.decode(parts[0]), let payloadData = Base64URL.decode(parts[1]),
            let signatureData = Base64URL.decode(parts[2])
        else { return .failure(.notCompact) }
        guard let header = try? JSONDecoder().decode(JWSHeader.self, from: headerData) else {
            return .failure(.badHeader)
        }
        guard header.alg == "ES256" else { return .failure(.unsupportedAlgorithm(header.alg)) }
        guard header.kid == keyId else { return .failure(.unknownKey(header.kid)) }
        guard let publicKey = try? P256.Signing.PublicKey(rawRepresentation: rawKey),
            let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureData),
            publicKey.isValidSignature(signature, for: Data("\(parts[0]).\(parts[1])".utf8))
        else {
            return .failure(.badSignature)
        }
        guard let payload = try? JSONDecoder().decode(SignedTransactionPayload.self, from: payloadData) else {
            return .failure(.badPayload)
        }
        return .success(payload)
    }
}
