import Foundation
import StoreCore
import StoreKitModel

/// StoreKit 2's `AppStore`.
public enum AppStore {
    /// StoreKit 2's `AppStore.Environment`: `Xcode` for the store in this process, `Sandbox` or
    /// `Production` as `storefront serve --environment` says.
    public struct Environment: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let production = Environment(rawValue: "Production")
        public static let sandbox = Environment(rawValue: "Sandbox")
        public static let xcode = Environment(rawValue: "Xcode")
    }

    /// Whether the account signed in may pay: false for a restricted account (parental
    /// controls) or an account whose payments are turned off.
    public static var canMakePayments: Bool {
        get async {
            guard let store = try? await StoreKitCall.store() else { return false }
            return store.account.paymentsAllowed
        }
    }

    /// Brings the app's transactions up to date with the store. There is nothing to copy here
    /// (every call reads the store), so it checks the store answers and throws as StoreKit
    /// would when it does not.
    public static func sync() async throws {
        let store = try await StoreKitCall.store()
        let controls = try await StoreKitCall.run { try await store.backend.controls() }
        if let simulated = controls.apiErrors[.appStoreSync] { throw StoreKitErrors.mapped(simulated) }
        _ = try await StoreKitCall.run { try await store.backend.transactions(account: store.account.name) }
    }
}

/// StoreKit 2's `Storefront`: where the account buys.
public struct Storefront: Identifiable, Hashable, Sendable {
    /// ISO 3166-1 alpha-3 (`USA`).
    public let countryCode: String
    /// Apple's number for the storefront (`143441`), or the country code for one a catalog made up.
    public let id: String
    /// The storefront's currency, where the store knows it.
    public let currency: Locale.Currency?

    init(countryCode: String, id: String, currency: String?) {
        self.countryCode = countryCode
        self.id = id
        self.currency = currency.map { Locale.Currency($0) }
    }

    /// The account's storefront now.
    public static var current: Storefront? {
        get async {
            guard let store = try? await StoreKitCall.store(), let storefront = try? await store.storefrontNow() else {
                return nil
            }
            return Storefront(
                countryCode: storefront.id, id: StorefrontRegistry.appleNumber(of: storefront.id) ?? storefront.id,
                currency: storefront.currency)
        }
    }
}
