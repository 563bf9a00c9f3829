import Foundation
import StoreSigning

/// StoreKit 2's `VerificationResult`: a value decoded from a JWS the store signed, and whether
/// its signature and certificate chain check out against the store's root.
public enum VerificationResult<SignedType: Sendable>: Sendable {
    case unverified(SignedType, VerificationError)
    case verified(SignedType)

    /// StoreKit 2's `VerificationResult.VerificationError`.
    public enum VerificationError: Error, Hashable, Sendable {
        case revokedCertificate
        case invalidCertificateChain
        case invalidDeviceVerification
        case invalidEncoding
        case invalidSignature
        case missingRequiredProperties

        init(_ failure: ChainedJWSVerifier.Failure) {
            switch failure {
            case .invalidEncoding: self = .invalidEncoding
            case .invalidCertificateChain: self = .invalidCertificateChain
            case .invalidSignature: self = .invalidSignature
            }
        }
    }

    /// The value when verified; the verification error otherwise.
    public var payloadValue: SignedType {
        get throws {
            switch self {
            case .verified(let value): return value
            case .unverified(_, let error): throw error
            }
        }
    }

    /// The value, whether or not it was verified.
    public var unsafePayloadValue: SignedType {
        switch self {
        case .verified(let value), .unverified(let value, _): value
        }
    }
}

extension VerificationResult: Equatable where SignedType: Equatable {}
extension VerificationResult: Hashable where SignedType: Hashable {}

extension VerificationResult where SignedType == Transaction {
    /// The compact JWS the transaction was decoded from.
    public var jwsRepresentation: String { unsafePayloadValue.jws }
    public var signedDate: Date { unsafePayloadValue.signedDate }
    public var headerData: Data { unsafePayloadValue.jwsPart(0) }
    public var payloadData: Data { unsafePayloadValue.jwsPart(1) }
    public var signatureData: Data { unsafePayloadValue.jwsPart(2) }
}

extension VerificationResult where SignedType == Product.SubscriptionInfo.RenewalInfo {
    /// The compact JWS the renewal info was decoded from.
    public var jwsRepresentation: String { unsafePayloadValue.jws }
    public var signedDate: Date { unsafePayloadValue.signedDate }
    public var headerData: Data { SignedValue.part(0, of: jwsRepresentation) ?? Data() }
    public var payloadData: Data { SignedValue.part(1, of: jwsRepresentation) ?? Data() }
    public var signatureData: Data { SignedValue.part(2, of: jwsRepresentation) ?? Data() }
}

extension VerificationResult where SignedType == AppTransaction {
    /// The compact JWS the app transaction was decoded from.
    public var jwsRepresentation: String { unsafePayloadValue.jws }
    public var signedDate: Date { unsafePayloadValue.signedDate }
    public var headerData: Data { SignedValue.part(0, of: jwsRepresentation) ?? Data() }
    public var payloadData: Data { SignedValue.part(1, of: jwsRepresentation) ?? Data() }
    public var signatureData: Data { SignedValue.part(2, of: jwsRepresentation) ?? Data() }
}
