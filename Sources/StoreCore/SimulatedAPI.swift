import StoreKitModel

/// The StoreKit calls whose failure Xcode's test session simulates (`setSimulatedError(_:forAPI:)`),
/// by the names `manage set api-error` uses, every one of which Storefront can fail. A simulated
/// error stays until turned off.
public enum SimulatedAPI: String, CaseIterable, Sendable, Hashable, Codable {
    /// The products request fails (`request(_:didFailWithError:)`).
    case loadProducts = "load-products"
    /// Every payment fails with the error.
    case purchase
    /// The app's server cannot verify the purchase: the app must not deliver it.
    case verification
    /// Restore fails (`restoreCompletedTransactionsFailedWithError`).
    case appStoreSync = "app-store-sync"
    /// A subscription's status (its renewal info) cannot be read: the wallet and the
    /// subscriptions sheet say so instead of showing it.
    case subscriptionStatus = "subscription-status"
    /// `AppTransaction.shared` fails: `storefront app-transaction` and the TUI's account sheet
    /// say so instead of showing it. Only the device's call: the server's Get App Transaction
    /// Info still answers.
    case appTransaction = "app-transaction"
    /// The manage-subscriptions sheet does not open (the storefront's `u`).
    case manageSubscriptions = "manage-subscriptions"
    /// The refund request fails when submitted (the storefront's `f`).
    case refundRequest = "refund-request"
    /// The offer-code redemption sheet does not open (the storefront's `c`).
    case offerCodeRedeem = "offer-code-redeem"
}
