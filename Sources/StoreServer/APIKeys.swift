import Crypto
import Foundation
import JWTKit
import StoreSigning
import Synchronization

/// An App Store Connect API key as the App Store Server API knows it: the issuer (the team's
/// issuer id), the key id a token's `kid` names, and the public half of the key.
public struct APIKey: Sendable, Hashable, Codable {
    public let issuerId: String
    public let keyId: String
    /// PEM of the public key.
    public let publicKeyPEM: String

    /// `pem` is a private key as App Store Connect hands it out (`.p8`, PKCS #8) or its public key.
    public init(issuerId: String, keyId: String, pem: String) throws(APIKeyProblem) {
        guard !issuerId.isEmpty, issuerId.unicodeScalars.count <= 128, !issuerId.contains(":") else {
            throw APIKeyProblem("the issuer id must be 1 to 128 characters without ':' (App Store Connect's is a UUID)")
        }
        guard !keyId.isEmpty, keyId.unicodeScalars.count <= 64,
            keyId.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 })
        else {
            throw APIKeyProblem(
                "the key id must be 1 to 64 printable ASCII characters (App Store Connect's are 10, like 2X9R4HXF34)")
        }
        self.issuerId = issuerId
        self.keyId = keyId
        if let key = try? P256.Signing.PrivateKey(pemRepresentation: pem) {
            publicKeyPEM = key.publicKey.pemRepresentation
        } else if let key = try? P256.Signing.PublicKey(pemRepresentation: pem) {
            publicKeyPEM = key.pemRepresentation
        } else {
            throw APIKeyProblem("the key is not a P-256 private key (an App Store Connect .p8) or public key in PEM")
        }
    }

    /// `ISSUER_ID:KEY_ID:FILE`, as `storefront serve --api-key` takes it.
    public static func parse(flag: String, readFile: (String) throws -> String) throws(APIKeyProblem) -> APIKey {
        let parts = flag.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, !parts[2].isEmpty else {
            throw APIKeyProblem(
                "--api-key \(flag.prefix(80)) is not ISSUER_ID:KEY_ID:FILE (e.g. 57246542-96fe-1a63-e053-0824d011072a:2X9R4HXF34:AuthKey_2X9R4HXF34.p8)"
            )
        }
        let pem: String
        do {
            pem = try readFile(parts[2])
        } catch {
            throw APIKeyProblem("cannot read the key file \(parts[2]): \(error.localizedDescription)")
        }
        do {
            return try APIKey(issuerId: parts[0], keyId: parts[1], pem: pem)
        } catch {
            throw APIKeyProblem("\(parts[2]): \(error.message)")
        }
    }
}

public struct APIKeyProblem: Error, Sendable, Hashable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The claims of an App Store Server API bearer token.
struct ServerAPIClaims: JWTPayload {
    static let audience = "appstoreconnect-v1"
    /// Apple refuses tokens that expire more than an hour after they were issued.
    static let longestLifetime: TimeInterval = 3600

    let iss: IssuerClaim
    let aud: AudienceClaim
    let exp: ExpirationClaim
    let iat: IssuedAtClaim?
    let nbf: NotBeforeClaim?
    let bid: String?

    /// The audience only: the dates are checked against the server's clock by `APIKeyRing`,
    /// where jwt-kit's own checks would read the wall clock.
    func verify(using algorithm: some JWTAlgorithm) async throws {
        try aud.verifyIntendedAudience(includes: Self.audience)
    }
}

/// The keys that may call the App Store Server API, and the check of a request's bearer token.
public final class APIKeyRing: Sendable {
    /// The keys by key id, and the collection that checks signatures with them: replaced
    /// together, so a revoked key stops verifying the moment it leaves the list.
    private let state = Mutex<(keys: [String: APIKey], collection: JWTKeyCollection)>(([:], JWTKeyCollection()))
    let bundleId: String

    public init(bundleId: String) {
        self.bundleId = bundleId
    }

    public var all: [APIKey] { state.withLock { $0.keys.values.sorted { $0.keyId < $1.keyId } } }

    public func add(_ key: APIKey) async throws {
        try await replace(with: all.filter { $0.keyId != key.keyId } + [key])
    }

    /// Makes `keys` the only ones that may call (a later key wins over an earlier one with its id).
    public func replace(with keys: [APIKey]) async throws {
        let collection = JWTKeyCollection()
        var byId: [String: APIKey] = [:]
        for key in keys { byId[key.keyId] = key }
        for key in byId.values {
            await collection.add(
                ecdsa: try ES256PublicKey(pem: key.publicKeyPEM), kid: JWKIdentifier(string: key.keyId))
        }
        state.withLock { $0 = (byId, collection) }
    }

    private struct Header: Decodable {
        let alg: String?
        let kid: String?
        /// Extensions the token says a verifier must understand (RFC 7515, 4.1.11): this server
        /// understands none.
        let crit: [String]?
    }

    /// Checks `Authorization: Bearer <jwt>` as Apple does: ES256 signed by a registered key
    /// (`kid`), by its issuer (`iss`), for `appstoreconnect-v1`, for this app (`bid`), not expired,
    /// not issued (`iat`) or valid only (`nbf`) in the future beyond the clocks' skew, expiring at
    /// most an hour after it was issued (or from now, without `iat`), and with no `crit` header.
    func authenticate(_ authorization: String?, now: Date) async throws(AppStoreAuthError) {
        guard let authorization, authorization.count <= 8192 else { throw AppStoreAuthError(reason: "no bearer token") }
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw AppStoreAuthError(reason: "not a bearer token")
        }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        guard let headerPart = token.split(separator: ".", omittingEmptySubsequences: false).first,
            let headerData = Base64URL.decode(String(headerPart)),
            let header = try? JSONDecoder().decode(Header.self, from: headerData)
        else {
            throw AppStoreAuthError(reason: "the token is not a JWT")
        }
        guard header.alg == "ES256" else { throw AppStoreAuthError(reason: "alg is not ES256") }
        guard header.crit == nil else {
            throw AppStoreAuthError(reason: "crit names extensions this server does not understand")
        }
        guard let kid = header.kid,
            let (key, collection) = state.withLock({ state in state.keys[kid].map { ($0, state.collection) } })
        else {
            throw AppStoreAuthError(reason: "unknown kid")
        }
        let claims: ServerAPIClaims
        do {
            claims = try await collection.verify(token, as: ServerAPIClaims.self)
        } catch {
            throw AppStoreAuthError(reason: "signature or claims refused: \(error)")
        }
        guard claims.iss.value == key.issuerId else { throw AppStoreAuthError(reason: "iss is not the key's issuer") }
        guard claims.bid == bundleId else { throw AppStoreAuthError(reason: "bid is not \(bundleId)") }
        try Self.checkDates(claims, now: now)
    }

    /// The token's dates against `now`: a token from the future is refused as a stale one is, so
    /// one issued for a date years ahead cannot serve until then.
    private static func checkDates(_ claims: ServerAPIClaims, now: Date) throws(AppStoreAuthError) {
        guard claims.exp.value > now else { throw AppStoreAuthError(reason: "the token expired") }
        let latest = now.addingTimeInterval(clockSkew)
        if let issued = claims.iat?.value, issued > latest { throw AppStoreAuthError(reason: "iat is in the future") }
        if let notBefore = claims.nbf?.value, notBefore > latest {
            throw AppStoreAuthError(reason: "nbf is in the future")
        }
        let issued = claims.iat?.value ?? now
        guard claims.exp.value.timeIntervalSince(issued) <= Self.lifetimeAllowance else {
            throw AppStoreAuthError(reason: "the token lives longer than 60 minutes")
        }
    }

    /// How far ahead of the server's clock a caller's may be.
    private static let clockSkew: TimeInterval = 60

    /// An hour, and the second a token's whole-second dates can add.
    private static let lifetimeAllowance = ServerAPIClaims.longestLifetime + 1
}
