import Foundation
import StoreKitModel

/// StoreKit's `AppTransaction` as the store keeps it for an account: the app's own purchase, one
/// per app and account, what `Get App Transaction Info` signs.
public struct AppTransactionInfo: Sendable, Hashable {
    public let appTransactionId: String
    public let bundleId: String
    /// When the account first got the app.
    public let originalPurchaseDate: Date
    /// The version it first got (a simulated app has one build).
    public let originalApplicationVersion: String
    public let environment: StoreEnvironment

    public init(
        appTransactionId: String, bundleId: String, originalPurchaseDate: Date, originalApplicationVersion: String,
        environment: StoreEnvironment
    ) {
        self.appTransactionId = appTransactionId
        self.bundleId = bundleId
        self.originalPurchaseDate = originalPurchaseDate
        self.originalApplicationVersion = originalApplicationVersion
        self.environment = environment
    }

    /// The build a simulated app is: its application version and its original one.
    public static let appVersion = "1"
}
