import Crypto
import Foundation
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

/// The claims of an App Store Server API bearer token. The dates are NumericDates (seconds since
/// 1970); a missing or mistyped `iss`, `aud` or `exp` fails the decoding, and the token with it.
struct ServerAPIClaims: Decodable {
    static let audience = "appstoreconnect-v1"
    /// Apple refuses tokens that expire more than an hour after they were issued.
    static let longestLifetime: TimeInterval = 3600

    let iss: String
    let aud: Audience
    let exp: Date
    let iat: Date?
    let nbf: Date?
    let bid: String?

    /// `aud` is one string or an array of them (RFC 7519, 4.1.3).
    struct Audience: Decodable {
        let values: [String]

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let one = try? container.decode(String.self) {
                values = [one]
            } else {
                values = try container.decode([String].self)
            }
        }
    }

    static func decode(_ payload: Data) throws -> ServerAPIClaims {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try decoder.decode(ServerAPIClaims.self, from: payload)
    }
}

/// The keys that may call the App Store Server API, and the check of a request's bearer token.
public final class APIKeyRing: Sendable {
    /// The keys by key id, each with the public key that checks its signatures: replaced
    /// together, so a revoked key stops verifying the moment it leaves the list.
    private let state = Mutex<[String: (key: APIKey, verifier: P256.Signing.PublicKey)]>([:])
    let bundleId: String

    public init(bundleId: String) {
        self.bundleId = bundleId
    }

    public var all: [APIKey] { state.withLock { $0.values.map(\.key).sorted { $0.keyId < $1.keyId } } }

    public func add(_ key: APIKey) async throws {
        try await replace(with: all.filter { $0.keyId != key.keyId } + [key])
    }

    /// Makes `keys` the only ones that may call (a later key wins over an earlier one with its id).
    public func replace(with keys: [APIKey]) async throws {
        var byId: [String: (key: APIKey, verifier: P256.Signing.PublicKey)] = [:]
        for key in keys { byId[key.keyId] = (key, try P256.Signing.PublicKey(pemRepresentation: key.publicKeyPEM)) }
        state.withLock { $0 = byId }
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
        let pieces = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard pieces.count == 3, let headerData = Base64URL.decode(pieces[0]),
            let payload = Base64URL.decode(pieces[1]), let signature = Base64URL.decode(pieces[2]),
            let header = try? JSONDecoder().decode(Header.self, from: headerData)
        else {
            throw AppStoreAuthError(reason: "the token is not a JWT")
        }
        guard header.alg == "ES256" else { throw AppStoreAuthError(reason: "alg is not ES256") }
        guard header.crit == nil else {
            throw AppStoreAuthError(reason: "crit names extensions this server does not understand")
        }
        guard let kid = header.kid, let (key, verifier) = state.withLock({ $0[kid] }) else {
            throw AppStoreAuthError(reason: "unknown kid")
        }
        // The signature covers the header and payload as sent (RFC 7515, 5.2), raw r || s for ES256.
        guard let ecdsa = try? P256.Signing.ECDSASignature(rawRepresentation: signature),
            verifier.isValidSignature(ecdsa, for: Data("\(pieces[0]).\(pieces[1])".utf8))
        else {
            throw AppStoreAuthError(reason: "the signature is not the key's")
        }
        let claims: ServerAPIClaims
        do {
            claims = try ServerAPIClaims.decode(payload)
        } catch {
            throw AppStoreAuthError(reason: "the claims are not an App Store Server API token's: \(error)")
        }
        guard claims.aud.values.contains(ServerAPIClaims.audience) else {
            throw AppStoreAuthError(reason: "aud is not \(ServerAPIClaims.audience)")
        }
        guard claims.iss == key.issuerId else { throw AppStoreAuthError(reason: "iss is not the key's issuer") }
        guard claims.bid == bundleId else { throw AppStoreAuthError(reason: "bid is not \(bundleId)") }
        try Self.checkDates(claims, now: now)
    }

    /// The token's dates against `now`: a token from the future is refused as a stale one is, so
    /// one issued for a date years ahead cannot serve until then.
    private static func checkDates(_ claims: ServerAPIClaims, now: Date) throws(AppStoreAuthError) {
        guard claims.exp > now else { throw AppStoreAuthError(reason: "the token expired") }
        let latest = now.addingTimeInterval(clockSkew)
        if let issued = claims.iat, issued > latest { throw AppStoreAuthError(reason: "iat is in the future") }
        if let notBefore = claims.nbf, notBefore > latest {
            throw AppStoreAuthError(reason: "nbf is in the future")
        }
        let issued = claims.iat ?? now
        guard claims.exp.timeIntervalSince(issued) <= Self.lifetimeAllowance else {
            throw AppStoreAuthError(reason: "the token lives longer than 60 minutes")
        }
    }

    /// How far ahead of the server's clock a caller's may be.
    private static let clockSkew: TimeInterval = 60

    /// An hour, and the second a token's whole-second dates can add.
    private static let lifetimeAllowance = ServerAPIClaims.longestLifetime + 1
}
