import Foundation

/// StoreKitTest's `SKTestError`.
public struct SKTestError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: Int, Sendable, Hashable {
        case unknown = 0
        case fileNotFound
        case invalidAction
        case invalidProductIdentifier
        case invalidProductType
        case invalidURL
        case noSubscriptionFound
        case noTransactionFound
    }

    public static let errorDomain = "SKTestErrorDomain"
    public let code: Code
    /// What went wrong, where, and what to do.
    public let message: String

    public init(_ code: Code, _ message: String = "") {
        self.code = code
        self.message = message
    }

    public var description: String { message.isEmpty ? "SKTestError \(code)" : message }
}
