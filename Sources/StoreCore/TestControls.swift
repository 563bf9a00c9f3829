import StoreKitModel

/// The test controls of Xcode's `SKTestSession`, persisted with the store.
public struct TestControls: Sendable, Hashable {
    /// Applies to the next payment only, then returns to `success` (unless `everyPurchase`).
    public var nextOutcome: PaymentOutcome = .success
    /// Xcode's fail-transactions switch: on, `nextOutcome` stays for every payment until changed.
    public var everyPurchase: Bool = false
    /// On, a refund request is granted as soon as it is made, as Xcode's test environment does;
    /// off, it waits for the App Store's decision (`refund` grants it, `declineRefund` refuses it).
    public var autoApproveRefunds: Bool = false
    /// Applies to every payment of a product until removed.
    public var productOutcomes: [String: PaymentOutcome] = [:]
    public var latencyMilliseconds: Int = 0
    public var askToBuy: Bool = false
    public var paymentsAllowed: Bool = true
    public var timeRate: TimeRate = .realTime
    public var storefront: String?
    public var account: String?
    public var verificationFailure: VerificationFailure?
    /// Field reports: `applicationUsername` can come back empty; on, every update drops it.
    public var dropOrderIds: Bool = false
    /// Xcode's billing retry on renewal: renewals fail to bill, and the subscription enters
    /// billing retry until the issue is resolved or retrying ends.
    public var billingIssues: Bool = false
    /// Xcode's billing grace period: while a billing issue is open, access continues for the
    /// grace period.
    public var gracePeriod: Bool = false
    /// Xcode's per-API simulated errors: each stays on until turned off (unlike `nextOutcome`).
    public var apiErrors: [SimulatedAPI: StoreError] = [:]

    public init() {}

    /// Defaults seeded from a catalog's settings (a `.storekit` file's `_askToBuyEnabled`, `_timeRate`, …).
    public init(seed settings: CatalogSettings) {
        askToBuy = settings.askToBuy
        billingIssues = settings.billingIssues
        gracePeriod = settings.gracePeriod
        timeRate = settings.timeRate
        for name in settings.apiErrors {
            guard let api = SimulatedAPI(rawValue: name) else { continue }
            apiErrors[api] = .storeKit(.unknown)
        }
    }
}
