/// An App Store country: ISO 3166-1 alpha-3 id, the ISO 4217 currency its prices are in, and
/// the locale prices are formatted with unless the user overrides it.
public struct Storefront: Sendable, Hashable, Codable {
    public let id: String
    public let currency: String
    public let locale: String

    public init(id: String, currency: String, locale: String) {
        self.id = id
        self.currency = currency
        self.locale = locale
    }
}

/// A test account, like the sandbox testers of App Store Connect.
public struct Account: Sendable, Hashable, Codable {
    /// The longest name a catalog accepts, in characters.
    public static let maxNameLength = 40

    public let name: String
    public let storefront: String
    /// A child in a Family Sharing group: purchases wait for a parent's approval (deferred).
    public let askToBuy: Bool
    /// False for an account under Screen Time restrictions: purchases fail with `paymentNotAllowed`.
    public let paymentsAllowed: Bool
    public let note: String
    /// The Family Sharing group the account belongs to: its members share each other's purchases
    /// of family-shareable products. nil: no family.
    public let family: String?

    public init(
        name: String, storefront: String, askToBuy: Bool = false, paymentsAllowed: Bool = true, note: String = "",
        family: String? = nil
    ) {
        self.name = name
        self.storefront = storefront
        self.askToBuy = askToBuy
        self.paymentsAllowed = paymentsAllowed
        self.note = note
        self.family = family
    }
}
