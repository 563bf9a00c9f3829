import Foundation

/// A transaction made outside the device, as Xcode 26's transaction manager creates one "to test
/// in-app purchases made outside of the device": a product bought by an account at a chosen date
/// in the past, with an app account token, an offer and auto-renew as the tester sets them. The
/// store dates the purchase then and works out what followed (renewals, expiry) under its time rate.
public struct TransactionCreation: Sendable, Hashable {
    public var productId: String
    public var account: String
    public var purchaseDate: Date
    public var appAccountToken: UUID?
    /// A promotional, win-back or offer-code offer of the product, by its id.
    public var offerId: String?
    /// Off: the customer turned auto-renew off; the subscription ends with its first period.
    public var autoRenew: Bool

    public init(
        productId: String, account: String, purchaseDate: Date, appAccountToken: UUID? = nil, offerId: String? = nil,
        autoRenew: Bool = true
    ) {
        self.productId = productId
        self.account = account
        self.purchaseDate = purchaseDate
        self.appAccountToken = appAccountToken
        self.offerId = offerId
        self.autoRenew = autoRenew
    }

    /// How the command line, scenarios and tapes spell it (`create PRODUCT --account A --date D`).
    public static let dateOption = "--date"
    public static let accountOption = "--account"
    public static let tokenOption = "--app-account-token"
    public static let offerOption = "--offer"
    public static let autoRenewOption = "--auto-renew"

    /// What `--date` and `purchaseDate` take, for messages.
    public static let dateInWords =
        "an ISO 8601 date and time with its zone (2026-01-15T10:00:00Z) or milliseconds since 1970"

    /// A purchase date as the command line and `/admin` take it: ISO 8601 with a time and a zone
    /// (fractional seconds allowed), or whole milliseconds since 1970; nil for anything else.
    public static func date(from text: String) -> Date? {
        guard !text.isEmpty, text.count <= 40 else { return nil }
        if text.allSatisfy({ $0.isASCII && $0.isNumber }), let milliseconds = Int64(text) {
            return Date(epochMilliseconds: milliseconds)
        }
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }

    /// The date as the words that asked for it show it: `2026-01-15T10:00:00Z`.
    public static func text(of date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        return formatter.string(from: date)
    }

    /// The words that ask for it, as `storefront manage` takes them.
    public var words: [String] {
        ["create", productId, Self.accountOption, account, Self.dateOption, Self.text(of: purchaseDate)]
            + (appAccountToken.map { [Self.tokenOption, $0.uuidString.lowercased()] } ?? [])
            + (offerId.map { [Self.offerOption, $0] } ?? [])
            + (autoRenew ? [] : [Self.autoRenewOption, Switch.off.rawValue])
    }
}
