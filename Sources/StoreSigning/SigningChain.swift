import Crypto
import Foundation
import SwiftASN1
import X509

/// The certificates that JWS (in `x5c`) and receipts (in their PKCS#7 `certificates`) carry,
/// shaped as Apple's verifiers require of the App Store's own: a root CA, an intermediate marked with Apple's WWDR
/// intermediate OID and a leaf marked with Apple's App Store signing OID, the leaf's key being
/// the server's signing key. Apple's `SignedDataVerifier`, given the root, accepts the chain
/// under OpenSSL's strict checks: CA basic constraints and key usages critical, subject and
/// authority key identifiers present, the markers non-critical.
public struct SigningChain: Sendable, Hashable {
    /// DER, in `x5c` order: leaf, intermediate, root.
    public let certificates: [Data]
    /// The same, parsed once: a receipt is signed with them and checked against the leaf.
    let parsed: [Certificate]

    /// 1.2.840.113635.100.6.2.1: Apple's marker on the intermediate.
    static let intermediateMarker: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 2, 1]
    /// 1.2.840.113635.100.6.11.1: Apple's marker on the leaf that signs App Store data.
    static let leafMarker: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 11, 1]
    /// How long the chain is valid after its minting: longer than any store is kept.
    static let lifetime: TimeInterval = 30 * 365 * 86_400
    /// Valid from 2000-01-01: a verifier checking offline takes the JWS's `signedDate` as the
    /// time, and a store may hold transactions from before its chain was minted.
    static let validFrom = Date(timeIntervalSince1970: 946_684_800)

    public init(certificates: [Data]) throws {
        guard certificates.count == 3 else {
            throw SigningChainError("a signing chain has 3 certificates, not \(certificates.count)")
        }
        parsed = try certificates.map { try Certificate(derEncoded: Array($0)) }
        self.certificates = certificates
    }

    public static func == (lhs: SigningChain, rhs: SigningChain) -> Bool { lhs.certificates == rhs.certificates }

    public func hash(into hasher: inout Hasher) { hasher.combine(certificates) }

    /// The certificate whose key signs.
    var leaf: Certificate { parsed[0] }

    public var root: Data { certificates[2] }

    /// The root as PEM, for `/.well-known/storefront-root-ca.pem`.
    public var rootPEM: String {
        (try? parsed[2].serializeAsPEM().pemString).map { $0 + "\n" } ?? ""
    }

    /// `x5c`: standard base64 with padding, not base64url.
    public var x5c: [String] { certificates.map { $0.base64EncodedString() } }

    /// A new chain for `leafKey`. The CA keys are used once and dropped: the chain is kept,
    /// nothing is ever issued from it again.
    public static func mint(leafKey: P256.Signing.PrivateKey, at now: Date) throws -> SigningChain {
        // Apple's marker extensions carry DER NULL.
        let marker = ArraySlice(try der(ASN1Null()))
        let rootKey = P384.Signing.PrivateKey()
        let intermediateKey = P256.Signing.PrivateKey()
        let (from, until) = (validFrom, now.addingTimeInterval(lifetime))
        let rootName = try name("Storefront Root CA")
        let intermediateName = try name("Storefront Worldwide Developer Relations CA")
        let leafName = try name("Storefront App Store Signing")
        let rootPublic = Certificate.PublicKey(rootKey.publicKey)
        let intermediatePublic = Certificate.PublicKey(intermediateKey.publicKey)
        let leafPublic = Certificate.PublicKey(leafKey.publicKey)

        let root = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: rootPublic, notValidBefore: from, notValidAfter: until,
            issuer: rootName, subject: rootName, signatureAlgorithm: .ecdsaWithSHA384,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                SubjectKeyIdentifier(hash: rootPublic)
            },
            issuerPrivateKey: .init(rootKey))
        let intermediate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: intermediatePublic, notValidBefore: from,
            notValidAfter: until,
            issuer: rootName, subject: intermediateName, signatureAlgorithm: .ecdsaWithSHA384,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                SubjectKeyIdentifier(hash: intermediatePublic)
                AuthorityKeyIdentifier(keyIdentifier: SubjectKeyIdentifier(hash: rootPublic).keyIdentifier)
                Certificate.Extension(oid: intermediateMarker, critical: false, value: marker)
            },
            issuerPrivateKey: .init(rootKey))
        let leaf = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: leafPublic, notValidBefore: from, notValidAfter: until,
            issuer: intermediateName, subject: leafName, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                SubjectKeyIdentifier(hash: leafPublic)
                AuthorityKeyIdentifier(keyIdentifier: SubjectKeyIdentifier(hash: intermediatePublic).keyIdentifier)
                Certificate.Extension(oid: leafMarker, critical: false, value: marker)
            },
            issuerPrivateKey: .init(intermediateKey))
        return try SigningChain(certificates: [leaf, intermediate, root].map { Data(try der($0)) })
    }

    /// True when the leaf certifies `key`: a kept chain still belongs to the kept signing key.
    public func certifies(_ key: P256.Signing.PublicKey) -> Bool {
        leaf.publicKey == Certificate.PublicKey(key)
    }

    private static func name(_ commonName: String) throws -> DistinguishedName {
        try DistinguishedName {
            CountryName("US")
            OrganizationName("Storefront (simulated App Store)")
            CommonName(commonName)
        }
    }

    private static func der(_ value: some DERSerializable) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(value)
        return serializer.serializedBytes
    }
}

public struct SigningChainError: Error, CustomStringConvertible, Sendable {
    public let description: String

    init(_ description: String) { self.description = description }
}
