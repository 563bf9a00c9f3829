import Foundation

/// The app itself, as a catalog's `app` section describes it: what every account's
/// AppTransaction says of the app. Without the section the app is build "1", first got when the
/// account first used it.
public struct AppRelease: Sendable, Hashable {
    /// The build running now (`CFBundleVersion`): AppTransaction's `appVersion`.
    public var version: String
    /// The build each account first got: `originalAppVersion`, what an app that went from paid
    /// to free reads to know who paid.
    public var originalVersion: String
    /// When every account first got the app; nil: when each first used it.
    public var purchaseDate: Date?
    /// When the app was pre-ordered, for an app that was; nil otherwise (Apple's `preorderDate`).
    public var preorderDate: Date?

    public init(version: String, originalVersion: String? = nil, purchaseDate: Date? = nil, preorderDate: Date? = nil) {
        self.version = version
        self.originalVersion = originalVersion ?? version
        self.purchaseDate = purchaseDate
        self.preorderDate = preorderDate
    }

    /// A catalog without an `app` section.
    public static let simulated = AppRelease(version: "1")

    /// Whether `text` is a build number as `CFBundleVersion` takes it: one to three
    /// period-separated whole numbers.
    public static func isBuildNumber(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return (1...3).contains(parts.count)
            && parts.allSatisfy { !$0.isEmpty && $0.count <= 9 && $0.allSatisfy { $0.isASCII && $0.isNumber } }
    }
}
