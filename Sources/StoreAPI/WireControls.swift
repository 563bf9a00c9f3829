import StoreCore
import StoreKitModel

/// The test controls on the wire, with the same tokens as `storefront manage set`.
/// `PUT /admin/controls` takes the whole object; a field left out keeps its current value.
public struct WireControls: Codable, Sendable, Hashable {
    /// `success`, `cancel`, `fail:CODE`, `network[:CODE]`, `deferred`, `interrupted`.
    public var nextOutcome: String?
    public var productOutcomes: [String: String]?
    public var latencyMilliseconds: Int?
    public var askToBuy: Bool?
    public var paymentsAllowed: Bool?
    /// Xcode's raw value (0–6, 10–13, 15, 1000–1005) or a token (`2s`, `monthly-30s`, `1h-day`).
    public var timeRate: String?
    /// An empty string clears the setting (the account's own storefront applies again).
    public var storefront: String?
    /// An empty string clears the setting.
    public var account: String?
    /// `ok`, `unreachable`, or a verifyReceipt status such as `21003`.
    public var verification: String?
    public var dropOrderIds: Bool?
    public var billingIssues: Bool?
    public var gracePeriod: Bool?
    /// On, `nextOutcome` applies to every payment until changed (Xcode's fail-transactions switch).
    public var everyPurchase: Bool?
    /// On, refund requests are granted at once; off, they wait for the App Store's decision.
    public var autoApproveRefunds: Bool?
    /// API name → `fail:CODE`, `network[:CODE]` or `cancel`; the whole map replaces the current one.
    public var apiErrors: [String: String]?

    /// The body's fields, which the server checks a body against.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case nextOutcome, productOutcomes, latencyMilliseconds, askToBuy, paymentsAllowed, timeRate, storefront,
            account, verification
        case dropOrderIds, billingIssues, gracePeriod, apiErrors
        case everyPurchase, autoApproveRefunds
    }

    public init(_ controls: TestControls) {
        nextOutcome = controls.nextOutcome.token
        productOutcomes = controls.productOutcomes.mapValues(\.token)
        latencyMilliseconds = controls.latencyMilliseconds
        askToBuy = controls.askToBuy
        paymentsAllowed = controls.paymentsAllowed
        timeRate = controls.timeRate.token
        storefront = controls.storefront
        account = controls.account
        verification = controls.verificationFailure?.token ?? "ok"
        dropOrderIds = controls.dropOrderIds
        billingIssues = controls.billingIssues
        gracePeriod = controls.gracePeriod
        everyPurchase = controls.everyPurchase
        autoApproveRefunds = controls.autoApproveRefunds
        apiErrors = Dictionary(
            uniqueKeysWithValues: controls.apiErrors.map { ($0.key.rawValue, PaymentOutcome(failure: $0.value).token) })
    }

    /// `current` with every field this object sets, each parsed as `storefront manage set` parses
    /// it; the catalog checks storefronts, accounts and products.
    public func applied(to current: TestControls, catalog: Catalog) throws(ControlProblem) -> TestControls {
        var controls = current
        let settings: [(ControlSetting, String?)] = [
            (.nextOutcome, nextOutcome), (.latency, latencyMilliseconds.map(String.init)),
            (.askToBuy, askToBuy.map(Self.flag)),
            (.paymentsAllowed, paymentsAllowed.map(Self.flag)), (.timeRate, timeRate), (.storefront, storefront),
            (.account, account), (.verification, verification), (.dropOrderId, dropOrderIds.map(Self.flag)),
            (.billingIssues, billingIssues.map(Self.flag)), (.gracePeriod, gracePeriod.map(Self.flag)),
            (.everyPurchase, everyPurchase.map(Self.flag)), (.autoApproveRefunds, autoApproveRefunds.map(Self.flag)),
        ]
        for case (let setting, let value?) in settings {
            try setting.apply(value, to: &controls, catalog: catalog)
        }
        if let productOutcomes {
            controls.productOutcomes = [:]
            for (product, token) in productOutcomes.sorted(by: { $0.key < $1.key }) {
                try controls.setProductOutcome(product, token, catalog: catalog)
            }
        }
        if let apiErrors {
            controls.apiErrors = [:]
            for (api, token) in apiErrors.sorted(by: { $0.key < $1.key }) { try controls.setAPIError(api, token) }
        }
        return controls
    }

    private static func flag(_ on: Bool) -> String { Switch(on).rawValue }
}
