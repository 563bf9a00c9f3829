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
    /// Xcode's raw value (0, 10–14, 1000–1005) or a token (`2s`, `monthly-30s`).
    public var timeRate: String?
    /// An empty string clears the setting (the account's own storefront applies again).
    public var storefront: String?
    /// An empty string clears the setting.
    public var account: String?
    /// `ok`, `unreachable`, or a verifyReceipt status such as `21003`.
    public var verification: String?
    public var dropOrderIds: Bool?

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
    }

    /// A field that does not parse, named by its JSON key.
    public struct Problem: Error, Sendable, Hashable {
        public let field: String
        public let message: String
    }

    /// `current` with every field this object sets; the catalog checks storefronts, accounts and products.
    public func applied(to current: TestControls, catalog: Catalog) throws(Problem) -> TestControls {
        var controls = current
        if let nextOutcome {
            guard let outcome = PaymentOutcome(token: nextOutcome) else {
                throw Problem(field: "nextOutcome", message: "\(nextOutcome) is not an outcome; expected success, cancel, fail:CODE, network[:CODE], deferred or interrupted")
            }
            controls.nextOutcome = outcome
        }
        if let productOutcomes {
            var parsed: [String: PaymentOutcome] = [:]
            for (product, token) in productOutcomes {
                guard catalog.product(id: product) != nil else {
                    throw Problem(field: "productOutcomes", message: "\(product) is not a product of this catalog")
                }
                guard let outcome = PaymentOutcome(token: token) else {
                    throw Problem(field: "productOutcomes", message: "\(token) (for \(product)) is not an outcome")
                }
                parsed[product] = outcome
            }
            controls.productOutcomes = parsed
        }
        if let latencyMilliseconds {
            guard (0...600_000).contains(latencyMilliseconds) else {
                throw Problem(field: "latencyMilliseconds", message: "\(latencyMilliseconds) is out of range; expected 0 to 600000")
            }
            controls.latencyMilliseconds = latencyMilliseconds
        }
        if let askToBuy { controls.askToBuy = askToBuy }
        if let paymentsAllowed { controls.paymentsAllowed = paymentsAllowed }
        if let timeRate {
            guard let rate = TimeRate(token: timeRate) else {
                throw Problem(field: "timeRate", message: "\(timeRate) is not a time rate; expected one of \(TimeRate.allCases.map(\.token).joined(separator: ", "))")
            }
            controls.timeRate = rate
        }
        if let storefront, storefront.isEmpty {
            controls.storefront = nil
        } else if let storefront {
            guard catalog.storefront(id: storefront.uppercased()) != nil else {
                throw Problem(field: "storefront", message: "\(storefront) is not a storefront of this catalog")
            }
            controls.storefront = storefront.uppercased()
        }
        if let account, account.isEmpty {
            controls.account = nil
        } else if let account {
            guard catalog.account(named: account) != nil else {
                throw Problem(field: "account", message: "\(account) is not an account of this catalog")
            }
            controls.account = account
        }
        if let verification {
            if verification == "ok" {
                controls.verificationFailure = nil
            } else {
                guard let failure = VerificationFailure(token: verification) else {
                    throw Problem(field: "verification", message: "\(verification): expected ok, unreachable or a verifyReceipt status such as 21003")
                }
                controls.verificationFailure = failure
            }
        }
        if let dropOrderIds { controls.dropOrderIds = dropOrderIds }
        return controls
    }
}
