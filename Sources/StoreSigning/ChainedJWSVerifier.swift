import Crypto
import Foundation
import X509

/// Checks a compact JWS the way StoreKit 2 checks a signed transaction: its header's `x5c`
/// chain (leaf, intermediate, root) ends in the one root trusted, each certificate is signed by
/// the next and valid at the time given, and the leaf's P-256 key made the ES256 signature.
public struct ChainedJWSVerifier: Sendable {
    /// Why a JWS is not trusted, in StoreKit's `VerificationResult.VerificationError` terms.
    public enum Failure: Error, Sendable, Hashable {
        /// Not three base64url parts, or a header without a readable `x5c` chain.
        case invalidEncoding
        /// The chain does not end in the trusted root, is not signed link by link, or has expired.
        case invalidCertificateChain
        /// The leaf's key did not make the signature.
        case invalidSignature
    }

    let root: Data

    /// `root`: the DER certificate trusted, the store's own.
    public init(root: Data) {
        self.root = root
    }

    /// The payload's bytes when the JWS is trusted at `date`.
    public func payload(of compactJWS: String, at date: Date) -> Result<Data, Failure> {
        let parts = compactJWS.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let headerData = Base64URL.decode(parts[0]),
            let payload = Base64URL.decode(parts[1]), let signature = Base64URL.decode(parts[2]),
            let header = try? JSONDecoder().decode(Header.self, from: headerData), header.alg == "ES256"
        else { return .failure(.invalidEncoding) }
        let der = (header.x5c ?? []).compactMap { Data(base64Encoded: $0) }
        guard der.count == 3, header.x5c?.count == 3 else { return .failure(.invalidEncoding) }
        guard der[2] == root, let chain = try? der.map({ try Certificate(derEncoded: Array($0)) }),
            Self.links(chain, at: date), let leafKey = P256.Signing.PublicKey(chain[0].publicKey)
        else { return .failure(.invalidCertificateChain) }
        guard let ecdsa = try? P256.Signing.ECDSASignature(rawRepresentation: signature),
            leafKey.isValidSignature(ecdsa, for: Data("\(parts[0]).\(parts[1])".utf8))
        else { return .failure(.invalidSignature) }
        return .success(payload)
    }

    /// Each certificate signed by the next (the root by itself) and valid at `date`.
    static func links(_ chain: [Certificate], at date: Date) -> Bool {
        chain.indices.allSatisfy { index in
            let certificate = chain[index]
            let issuer = chain[min(index + 1, chain.count - 1)]
            return issuer.publicKey.isValidSignature(certificate.signature, for: certificate)
                && certificate.notValidBefore <= date && date <= certificate.notValidAfter
        }
    }

    struct Header: Decodable {
        let alg: String?
        let x5c: [String]?
    }
}
