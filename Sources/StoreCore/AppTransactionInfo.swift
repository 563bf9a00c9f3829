import Foundation
import StoreKitModel

/// StoreKit's `AppTransaction` as the store keeps it for an account: the app's own purchase, one
/// per app and account, what `Get App Transaction Info` signs.
public struct AppTransactionInfo: Sendable, Hashable {
    public let appTransactionId: String
    public let bundleId: String
    /// When the account first got the app.
    public let originalPurchaseDate: Date
    /// The build it first got.
    public let originalApplicationVersion: String
    /// The build running now.
    public let applicationVersion: String
    /// When the account pre-ordered the app; nil when it did not.
    public let preorderDate: Date?
    public let environment: StoreEnvironment

    public init(
        appTransactionId: String, bundleId: String, originalPurchaseDate: Date, originalApplicationVersion: String,
        applicationVersion: String = AppRelease.simulated.version, preorderDate: Date? = nil,
        environment: StoreEnvironment
    ) {
        self.appTransactionId = appTransactionId
        self.bundleId = bundleId
        self.originalPurchaseDate = originalPurchaseDate
        self.originalApplicationVersion = originalApplicationVersion
        self.applicationVersion = applicationVersion
        self.preorderDate = preorderDate
        self.environment = environment
    }

    /// The build a simulated app without a catalog `app` section is.
    public static let appVersion = AppRelease.simulated.version
}
