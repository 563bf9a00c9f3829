import Crypto
import Foundation

/// The store's signing key and the chain that certifies it. One identity signs everything the
/// store signs, JWS and receipts alike, so a client trusts one root for both.
public struct SigningIdentity: Sendable, Hashable {
    /// The P-256 private key's raw representation (swift-crypto's key type is not Sendable in
    /// every version this package accepts; it is cheap to rebuild).
    public let rawKey: Data
    public let chain: SigningChain

    /// Refuses a key that is not a P-256 key, or a chain whose leaf is for another key.
    public init(rawKey: Data, chain: SigningChain) throws {
        let key: P256.Signing.PrivateKey
        do {
            key = try P256.Signing.PrivateKey(rawRepresentation: rawKey)
        } catch {
            throw SigningChainError("the signing key is not a P-256 private key (\(rawKey.count) bytes)")
        }
        guard chain.certifies(key.publicKey) else {
            throw SigningChainError("the signing chain is not for the signing key")
        }
        self.rawKey = rawKey
        self.chain = chain
    }

    /// Valid by construction: `init` checked the raw key.
    public var key: P256.Signing.PrivateKey {
        (try? P256.Signing.PrivateKey(rawRepresentation: rawKey)) ?? P256.Signing.PrivateKey()
    }

    /// A new leaf key's raw representation.
    public static func newKey() -> Data {
        P256.Signing.PrivateKey().rawRepresentation
    }

    /// A new chain for the key `rawKey` (see `SigningChain.mint`), as DER in `x5c` order.
    public static func mintChain(forKey rawKey: Data, at now: Date) throws -> [Data] {
        try SigningChain.mint(leafKey: try P256.Signing.PrivateKey(rawRepresentation: rawKey), at: now).certificates
    }
}
