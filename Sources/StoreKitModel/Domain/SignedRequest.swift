import Foundation

/// A JWS Compact Serialization an app's server signed to authorise a StoreKit purchase option
/// (`.promotionalOffer(_:compactJWS:)`, `.introductoryOfferEligibility(compactJWS:)`), as
/// Apple's `PromotionalOfferV2SignatureCreator` and `IntroductoryOfferEligibilitySignatureCreator`
/// make it. Decoding it here checks nothing: the store verifies the signature and the claims.
public struct SignedRequest: Sendable, Hashable, Codable {
    public let compactJWS: String

    public init(compactJWS: String) {
        self.compactJWS = compactJWS
    }

    public init(from decoder: any Decoder) throws {
        compactJWS = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(compactJWS)
    }

    /// The `aud` claim of each use, as Apple's signature creators set it.
    public enum Audience: String, Sendable {
        case promotionalOffer = "promotional-offer"
        case introductoryOfferEligibility = "introductory-offer-eligibility"
    }

    /// The JOSE header's fields the store reads.
    public struct Header: Sendable, Hashable, Decodable {
        public let alg: String?
        public let kid: String?
    }

    /// The claims Apple's signature creators write: the common ones (`bid`, `iss`, `aud`, `iat`,
    /// `nonce`) and each use's own. Absent claims are nil; a claim of the wrong JSON type fails
    /// the decoding.
    public struct Claims: Sendable, Hashable, Decodable {
        public let bid: String?
        public let iss: String?
        public let aud: String?
        /// Seconds since 1970 when it was signed.
        public let iat: Double?
        public let nonce: String?
        public let productId: String?
        public let offerIdentifier: String?
        public let transactionId: String?
        public let allowIntroductoryOffer: Bool?
    }

    /// The three parts of a compact JWS, decoded.
    public struct Parts: Sendable {
        public let header: Header
        public let claims: Claims
        /// `BASE64URL(header) '.' BASE64URL(payload)`, the bytes the signature covers.
        public let signingInput: Data
        /// For ES256, the raw `r || s` (64 bytes), not DER.
        public let signature: Data
    }

    /// The decoded parts; nil when the text is not three base64url parts whose first two are
    /// JSON objects of the expected shape.
    public var parts: Parts? {
        let pieces = compactJWS.split(separator: ".", omittingEmptySubsequences: false)
        guard pieces.count == 3, let headerData = Self.base64URL(pieces[0]),
            let payload = Self.base64URL(pieces[1]), let signature = Self.base64URL(pieces[2]),
            let header = try? JSONDecoder().decode(Header.self, from: headerData),
            let claims = try? JSONDecoder().decode(Claims.self, from: payload)
        else { return nil }
        return Parts(
            header: header, claims: claims, signingInput: Data("\(pieces[0]).\(pieces[1])".utf8), signature: signature)
    }

    /// The claims, unverified: what an app shows before the store has checked them.
    public var unverifiedClaims: Claims? { parts?.claims }

    /// Base64url without padding (RFC 7515 §2), refusing any other alphabet.
    static func base64URL(_ text: Substring) -> Data? {
        guard text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
            return nil
        }
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        return Data(base64Encoded: standard)
    }
}
