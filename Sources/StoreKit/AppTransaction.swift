import Foundation
import StoreCore
import StoreEngine
import StoreKitModel

/// StoreKit 2's `AppTransaction`: the account's purchase of the app itself, as the store signed
/// it. Every field is read from the JWS payload (Apple's `JWSAppTransactionDecodedPayload`).
/// No device is simulated, so it has no `deviceVerification` or `deviceVerificationNonce`.
public struct AppTransaction: Hashable, Sendable {
    public let appTransactionID: String
    /// The app's Apple ID: in production only, as Apple gives it.
    public let appID: UInt64?
    /// The build running now.
    public let appVersion: String
    public let appVersionID: UInt64?
    public let bundleID: String
    public let environment: AppStore.Environment
    /// The build the account first got.
    public let originalAppVersion: String
    public let originalPurchaseDate: Date
    public let originalPlatform: AppStore.Platform
    /// Only for an app the account pre-ordered.
    public let preorderDate: Date?
    public let signedDate: Date
    /// The JWS payload: the app transaction's JSON as the store signed it.
    public let jsonRepresentation: Data
    let jws: String

    init?(jws: String, payload: Data) {
        guard let signed = try? JSONDecoder().decode(SignedAppTransactionPayload.self, from: payload) else {
            return nil
        }
        appTransactionID = signed.appTransactionId
        appID = signed.appAppleId.flatMap(UInt64.init(exactly:))
        appVersion = signed.applicationVersion
        appVersionID = UInt64(exactly: signed.versionExternalIdentifier)
        bundleID = signed.bundleId
        environment = AppStore.Environment(rawValue: signed.receiptType.rawValue)
        originalAppVersion = signed.originalApplicationVersion
        originalPurchaseDate = Date(epochMilliseconds: signed.originalPurchaseDate)
        originalPlatform = AppStore.Platform(rawValue: signed.originalPlatform)
        preorderDate = signed.preorderDate.map(Date.init(epochMilliseconds:))
        signedDate = Date(epochMilliseconds: signed.receiptCreationDate)
        jsonRepresentation = payload
        self.jws = jws
    }

    public static func == (lhs: AppTransaction, rhs: AppTransaction) -> Bool { lhs.jws == rhs.jws }
    public func hash(into hasher: inout Hasher) { hasher.combine(jws) }

    /// The account's app transaction, signed by the store. A simulated error for the
    /// app-transaction call fails it, as the device's call fails.
    public static var shared: VerificationResult<AppTransaction> {
        get async throws {
            let store = try await StoreKitCall.store()
            let controls = try await StoreKitCall.run { try await store.backend.controls() }
            if let error = controls.apiErrors[.appTransaction] { throw StoreKitErrors.mapped(error) }
            let jws = try await StoreKitCall.run {
                try await store.backend.signedAppTransaction(account: store.account.name)
            }
            guard
                let result = SignedValue.verified(
                    jws, store: store, forcedFailure: TransactionSigning.failsVerification(controls),
                    decode: AppTransaction.init)
            else {
                throw StoreKitError.systemError(
                    StoreFailure("the store's app transaction is no JWSAppTransactionDecodedPayload"))
            }
            return result
        }
    }

    /// `shared`, read from the store again. There is no App Store sign-in to ask for: every call
    /// reads the store.
    public static func refresh() async throws -> VerificationResult<AppTransaction> {
        try await shared
    }
}

extension AppStore {
    /// StoreKit 2's `AppStore.Platform`: where the account first got the app.
    public struct Platform: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let iOS = Platform(rawValue: "iOS")
        public static let macOS = Platform(rawValue: "macOS")
        public static let tvOS = Platform(rawValue: "tvOS")
        public static let visionOS = Platform(rawValue: "visionOS")
    }
}
