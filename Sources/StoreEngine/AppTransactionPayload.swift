import Foundation
import StoreCore

/// `JWSAppTransactionDecodedPayload`: the account's purchase of the app itself, as Get App
/// Transaction Info and StoreKit 2's `AppTransaction` sign it. Dates in epoch milliseconds. The
/// device fields (`deviceVerification` and its nonce) belong to one device's copy, and no device
/// is simulated, so they are left out.
public struct SignedAppTransactionPayload: Codable, Sendable, Hashable {
    public let receiptType: StoreEnvironment
    public let appAppleId: Int64?
    public let bundleId: String
    public let applicationVersion: String
    public let versionExternalIdentifier: Int64
    /// When the store signed it (StoreKit's `signedDate`).
    public let receiptCreationDate: Int64
    public let requestDate: Int64
    public let originalPurchaseDate: Int64
    public let originalApplicationVersion: String
    public let appTransactionId: String
    /// `iOS`, `macOS`, `tvOS` or `visionOS`: where the account first got the app.
    public let originalPlatform: String
    /// Only for an app the account pre-ordered, as Apple leaves it out otherwise.
    public let preorderDate: Int64?

    package init(_ info: AppTransactionInfo, appAppleId: Int64?, at now: Date) {
        receiptType = info.environment
        self.appAppleId = appAppleId
        bundleId = info.bundleId
        applicationVersion = info.applicationVersion
        versionExternalIdentifier = 0
        receiptCreationDate = now.epochMilliseconds
        requestDate = now.epochMilliseconds
        originalPurchaseDate = info.originalPurchaseDate.epochMilliseconds
        originalApplicationVersion = info.originalApplicationVersion
        appTransactionId = info.appTransactionId
        originalPlatform = "iOS"
        preorderDate = info.preorderDate?.epochMilliseconds
    }
}

extension SimulatedStore {
    /// The app's Apple ID, which Apple reports in production only: a stable number made from the
    /// bundle id, since a simulated app has none.
    public nonisolated static func appAppleId(bundleId: String, environment: StoreEnvironment) -> Int64? {
        guard environment == .production else { return nil }
        return Int64(appTransactionId(bundleId: bundleId, account: "")).map { $0 % 10_000_000_000 }
    }
}
