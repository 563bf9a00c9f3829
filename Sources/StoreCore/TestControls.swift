import StoreKitModel

/// The test controls of Xcode's `SKTestSession`, persisted with the store.
public struct TestControls: Sendable, Hashable {
    /// Applies to the next payment only, then returns to `success`.
    public var nextOutcome: PaymentOutcome = .success
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

    public init() {}

    /// Defaults seeded from a catalog's settings (a `.storekit` file's `_askToBuyEnabled`, `_timeRate`, …).
    public init(seed settings: CatalogSettings) {
        askToBuy = settings.askToBuy
        timeRate = settings.timeRate
        if settings.failTransactions { nextOutcome = .fail(.unknown) }
    }
}
