import Crypto
import Foundation
import SwiftASN1
@_spi(CMS) import X509

/// Content signed as an App Store receipt is: PKCS#7 (CMS SignedData, RFC 5652) with the content
/// inside (`eContent`, not detached), one signer, and the signer's certificates enclosed.
/// swift-certificates makes it; reading it back is done here because its CMS types are internal
/// and its verifier is asynchronous, while a receipt is checked on paths that are not.
public struct PKCS7SignedData: Sendable {
    /// The encapsulated content, as signed.
    public let content: [UInt8]
    /// The signer's signature over `content` (an ECDSA signature, DER).
    let signature: [UInt8]
    /// Every other element, encoded, in order: versions, algorithms, certificates, the signer's
    /// name. What a signer writes there is the same for any content (`PKCS7Verifier`).
    let frame: [[UInt8]]

    /// 1.2.840.113549.1.7.2, `id-signedData`.
    static let signedDataType: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 7, 2]
    /// 1.2.840.113549.1.7.1, `id-data`: what a receipt's content is.
    static let dataType: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 7, 1]

    /// `content` signed with the identity's key: no signed attributes (the signature is over the
    /// content itself), and leaf, intermediate and root enclosed so a verifier given only the
    /// root can build the path.
    public static func sign(_ content: [UInt8], with identity: SigningIdentity) throws -> [UInt8] {
        let chain = identity.chain.parsed
        return try CMS.sign(
            content, signatureAlgorithm: .ecdsaWithSHA256, additionalIntermediateCertificates: [chain[1], chain[2]],
            certificate: chain[0], privateKey: Certificate.PrivateKey(identity.key), detached: false)
    }

    /// Reads the shape only: nothing is trusted until a `PKCS7Verifier` says so.
    public init(derEncoded bytes: [UInt8]) throws {
        var reader = Reader()
        do {
            try DER.sequence(try DER.parse(bytes), identifier: .sequence) { nodes in
                guard try ASN1ObjectIdentifier(derEncoded: &nodes) == Self.signedDataType else {
                    throw PKCS7Error("its content type is not SignedData")
                }
                try DER.explicitlyTagged(&nodes, tagNumber: 0, tagClass: .contextSpecific) { node in
                    try DER.sequence(node, identifier: .sequence) { try reader.signedData(&$0) }
                }
            }
        } catch let error as PKCS7Error {
            throw error
        } catch {
            throw PKCS7Error("it is not DER of a PKCS#7 ContentInfo (\(error))")
        }
        guard let content = reader.content, let signature = reader.signature else {
            throw PKCS7Error("it has no content or no signature")
        }
        self.content = content
        self.signature = signature
        frame = reader.frame
    }

    /// Collects the parts while the DER is walked.
    private struct Reader {
        var content: [UInt8]?
        var signature: [UInt8]?
        var frame: [[UInt8]] = []

        /// `SignedData ::= SEQUENCE { version, digestAlgorithms SET, encapContentInfo,
        /// certificates [0] IMPLICIT OPTIONAL, crls [1] IMPLICIT OPTIONAL, signerInfos SET }`.
        mutating func signedData(_ nodes: inout ASN1NodeCollection.Iterator) throws {
            keep(try next(&nodes))
            let algorithms = try next(&nodes)
            guard algorithms.identifier == .set else { throw PKCS7Error("it has no digest algorithms") }
            keep(algorithms)
            content = try DER.sequence(try next(&nodes), identifier: .sequence) { nodes in
                let type = try next(&nodes)
                guard try ASN1ObjectIdentifier(derEncoded: type) == PKCS7SignedData.dataType else {
                    throw PKCS7Error("its content is not data")
                }
                keep(type)
                guard let node = nodes.next() else { throw PKCS7Error("its content is detached, not inside") }
                return Array(
                    try DER.explicitlyTagged(node, tagNumber: 0, tagClass: .contextSpecific) {
                        try ASN1OctetString(derEncoded: $0)
                    }.bytes)
            }
            var node = try next(&nodes)
            while let following = nodes.next() {  // certificates and CRLs, before the signers
                keep(node)
                node = following
            }
            try DER.set(node, identifier: .set) { signers in
                try DER.sequence(try next(&signers), identifier: .sequence) { try signerInfo(&$0) }
                guard signers.next() == nil else { throw PKCS7Error("it has more than one signer") }
            }
        }

        /// `SignerInfo ::= SEQUENCE { version, sid, digestAlgorithm, signedAttrs [0] IMPLICIT
        /// OPTIONAL, signatureAlgorithm, signature OCTET STRING, unsignedAttrs [1] IMPLICIT OPTIONAL }`:
        /// the signature is the first OCTET STRING after the first three.
        mutating func signerInfo(_ nodes: inout ASN1NodeCollection.Iterator) throws {
            for _ in 0..<3 { keep(try next(&nodes)) }
            while let node = nodes.next() {
                if signature == nil, node.identifier == .octetString {
                    signature = Array(try ASN1OctetString(derEncoded: node).bytes)
                } else {
                    keep(node)
                }
            }
        }

        private mutating func keep(_ node: ASN1Node) {
            frame.append(Array(node.encodedBytes))
        }

        private func next(_ nodes: inout ASN1NodeCollection.Iterator) throws -> ASN1Node {
            guard let node = nodes.next() else { throw PKCS7Error("it ends early") }
            return node
        }
    }
}

/// Tells whether PKCS#7 signed data is exactly as one identity signs: the same frame (algorithms,
/// the identity's three certificates, the signer's name) and a signature over the content made
/// by the leaf key. Another store's receipt, another key, or a single changed byte fails.
public struct PKCS7Verifier: Sendable {
    private let frame: [[UInt8]]
    private let leafKey: Certificate.PublicKey

    /// The frame is learned by signing nothing once: it does not depend on the content.
    public init(identity: SigningIdentity) throws {
        frame = try PKCS7SignedData(derEncoded: PKCS7SignedData.sign([], with: identity)).frame
        leafKey = identity.chain.leaf.publicKey
    }

    public func isGenuine(_ signed: PKCS7SignedData) -> Bool {
        guard signed.frame == frame, let key = P256.Signing.PublicKey(leafKey),
            let signature = try? P256.Signing.ECDSASignature(derRepresentation: signed.signature)
        else { return false }
        return key.isValidSignature(signature, for: signed.content)
    }
}

/// Why bytes are not a PKCS#7 SignedData this package can read.
public struct PKCS7Error: Error, CustomStringConvertible, Sendable {
    public let description: String

    init(_ reason: String) { description = "not a PKCS#7 signed receipt: \(reason)" }
}
