import StoreKitModel

/// One test control, by the name `storefront manage set NAME VALUE` uses, with the one parser of
/// its value that the command line and the server's `/admin/controls` share.
public enum ControlSetting: String, CaseIterable, Sendable, Hashable {
    case askToBuy = "ask-to-buy"
    case paymentsAllowed = "payments-allowed"
    case timeRate = "time-rate"
    case storefront
    case account
    case dropOrderId = "drop-order-id"
    case nextOutcome = "next-outcome"
    case latency
    case verification
    case billingIssues = "billing-issues"
    case gracePeriod = "grace-period"
    case everyPurchase = "every-purchase"
    case autoApproveRefunds = "auto-approve-refunds"

    /// The field of `PUT /admin/controls` that carries this setting.
    public var wireField: String {
        switch self {
        case .askToBuy: "askToBuy"
        case .paymentsAllowed: "paymentsAllowed"
        case .timeRate: "timeRate"
        case .storefront: "storefront"
        case .account: "account"
        case .dropOrderId: "dropOrderIds"
        case .nextOutcome: "nextOutcome"
        case .latency: "latencyMilliseconds"
        case .verification: "verification"
        case .billingIssues: "billingIssues"
        case .gracePeriod: "gracePeriod"
        case .everyPurchase: "everyPurchase"
        case .autoApproveRefunds: "autoApproveRefunds"
        }
    }

    /// What a value may be, for help texts and error messages.
    public var accepted: String {
        switch self {
        case .askToBuy, .paymentsAllowed, .dropOrderId, .billingIssues, .gracePeriod, .everyPurchase,
            .autoApproveRefunds:
            Switch.inWords
        case .timeRate: "one of \(TimeRate.allCases.map(\.token).joined(separator: ", "))"
        case .storefront: "a storefront of the catalog (ISO 3166 alpha-3), or an empty value for the account's own"
        case .account: "an account of the catalog, or an empty value for the catalog's default"
        case .nextOutcome: PaymentOutcome.accepted
        case .latency: "milliseconds, 0 to \(TestControls.latencyLimit)"
        case .verification: "ok, unreachable or a verifyReceipt status such as 21003"
        }
    }

    /// Sets this control in `controls` from its textual value; `controls` is unchanged on a problem.
    public func apply(_ value: String, to controls: inout TestControls, catalog: Catalog) throws(ControlProblem) {
        switch self {
        case .askToBuy: controls.askToBuy = try flag(value)
        case .paymentsAllowed: controls.paymentsAllowed = try flag(value)
        case .dropOrderId: controls.dropOrderIds = try flag(value)
        case .billingIssues: controls.billingIssues = try flag(value)
        case .gracePeriod: controls.gracePeriod = try flag(value)
        case .everyPurchase: controls.everyPurchase = try flag(value)
        case .autoApproveRefunds: controls.autoApproveRefunds = try flag(value)
        case .timeRate: controls.timeRate = try parsed(value, TimeRate(token: value))
        case .nextOutcome: controls.nextOutcome = try parsed(value, PaymentOutcome(token: value))
        case .latency:
            controls.latencyMilliseconds = try parsed(
                value, Int(value).flatMap { (0...TestControls.latencyLimit).contains($0) ? $0 : nil })
        case .verification:
            controls.verificationFailure = value == "ok" ? nil : try parsed(value, VerificationFailure(token: value))
        case .storefront:
            guard !value.isEmpty else {
                controls.storefront = nil
                return
            }
            guard catalog.storefront(id: value.uppercased()) != nil else {
                throw problem(
                    value,
                    "not a storefront of this catalog (it has \(catalog.storefronts.map(\.id).joined(separator: ", ")))"
                )
            }
            controls.storefront = value.uppercased()
        case .account:
            guard !value.isEmpty else {
                controls.account = nil
                return
            }
            guard catalog.account(named: value) != nil else {
                throw problem(
                    value,
                    "not an account of this catalog (it has \(catalog.accounts.map(\.name).joined(separator: ", ")))")
            }
            controls.account = value
        }
    }

    /// The textual value of this control in `controls`, as `apply` reads it.
    public func value(in controls: TestControls) -> String {
        switch self {
        case .askToBuy: Switch(controls.askToBuy).rawValue
        case .paymentsAllowed: Switch(controls.paymentsAllowed).rawValue
        case .dropOrderId: Switch(controls.dropOrderIds).rawValue
        case .billingIssues: Switch(controls.billingIssues).rawValue
        case .gracePeriod: Switch(controls.gracePeriod).rawValue
        case .everyPurchase: Switch(controls.everyPurchase).rawValue
        case .autoApproveRefunds: Switch(controls.autoApproveRefunds).rawValue
        case .timeRate: controls.timeRate.token
        case .nextOutcome: controls.nextOutcome.token
        case .latency: String(controls.latencyMilliseconds)
        case .verification: controls.verificationFailure?.token ?? "ok"
        case .storefront: controls.storefront ?? ""
        case .account: controls.account ?? ""
        }
    }

    private func flag(_ value: String) throws(ControlProblem) -> Bool {
        guard let setting = Switch(rawValue: value) else {
            throw problem(value, "expected \(Switch.inWords), got \(value)", echo: false)
        }
        return setting.isOn
    }

    private func parsed<T>(_ value: String, _ result: T?) throws(ControlProblem) -> T {
        guard let result else { throw problem(value, "expected \(accepted)") }
        return result
    }

    private func problem(_ value: String, _ message: String, echo: Bool = true) -> ControlProblem {
        ControlProblem(setting: rawValue, field: wireField, value: echo ? value : nil, message: message)
    }
}

/// A test control set per product or per API: `manage set` takes the product or the API, then
/// its value.
public enum PairedControl: String, CaseIterable, Sendable, Hashable {
    case productOutcome = "product-outcome"
    case apiError = "api-error"

    /// The field of `PUT /admin/controls` that carries this control's map.
    public var wireField: String {
        switch self {
        case .productOutcome: "productOutcomes"
        case .apiError: "apiErrors"
        }
    }

    /// Sets the value of `key` (a product id, an API name) in `controls`; `none` removes it.
    public func apply(_ key: String, _ value: String, to controls: inout TestControls, catalog: Catalog)
        throws(ControlProblem)
    {
        switch self {
        case .productOutcome: try controls.setProductOutcome(key, value, catalog: catalog)
        case .apiError: try controls.setAPIError(key, value)
        }
    }

    func problem(_ value: String, _ message: String) -> ControlProblem {
        ControlProblem(setting: rawValue, field: wireField, value: value, message: message)
    }
}

/// A test control by the name `storefront manage set` and a scenario's `set` give it: a setting
/// with one value, or a paired control with two.
public enum ControlName: Sendable, Hashable, CaseIterable {
    case setting(ControlSetting)
    case paired(PairedControl)

    public static var allCases: [ControlName] {
        ControlSetting.allCases.map(ControlName.setting) + PairedControl.allCases.map(ControlName.paired)
    }

    public init?(_ name: String) {
        if let setting = ControlSetting(rawValue: name) {
            self = .setting(setting)
        } else if let paired = PairedControl(rawValue: name) {
            self = .paired(paired)
        } else {
            return nil
        }
    }

    public var name: String {
        switch self {
        case .setting(let setting): setting.rawValue
        case .paired(let paired): paired.rawValue
        }
    }

    /// How many values it takes.
    public var valueCount: Int {
        switch self {
        case .setting: 1
        case .paired: 2
        }
    }

    /// Sets it in `controls` from its values, checked against `catalog`; `controls` is unchanged
    /// on a problem.
    public func apply(_ values: [String], to controls: inout TestControls, catalog: Catalog) throws(ControlProblem) {
        switch self {
        case .setting(let setting) where values.count == 1:
            try setting.apply(values[0], to: &controls, catalog: catalog)
        case .paired(let paired) where values.count == 2:
            try paired.apply(values[0], values[1], to: &controls, catalog: catalog)
        case .setting(let setting):
            throw ControlProblem(
                setting: name, field: setting.wireField, value: nil, message: "takes one value, found \(values.count)")
        case .paired(let paired):
            throw ControlProblem(
                setting: name, field: paired.wireField, value: nil, message: "takes two values, found \(values.count)")
        }
    }
}

extension TestControls {
    /// The longest latency a payment may be given.
    public static let latencyLimit = 600_000

    /// Every payment of `productId` ends with `token` (an outcome, or `none` to remove it).
    public mutating func setProductOutcome(_ productId: String, _ token: String, catalog: Catalog)
        throws(ControlProblem)
    {
        guard catalog.product(id: productId) != nil else {
            throw PairedControl.productOutcome.problem(
                productId, "not a product of this catalog; see storefront products")
        }
        if token == "none" {
            productOutcomes[productId] = nil
            return
        }
        guard let outcome = PaymentOutcome(token: token) else {
            throw PairedControl.productOutcome.problem(
                token, "expected \(PaymentOutcome.alternatives(PaymentOutcome.tokenForms + ["none"]))")
        }
        productOutcomes[productId] = outcome
    }
}

/// A test control's value that does not parse: which control, the value, and what it accepts.
public struct ControlProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The name `manage set` uses.
    public let setting: String
    /// The JSON field of `PUT /admin/controls`.
    public let field: String
    public let value: String?
    public let message: String

    public init(setting: String, field: String, value: String?, message: String) {
        self.setting = setting
        self.field = field
        self.value = value
        self.message = message
    }

    /// "700000: expected milliseconds, 0 to 600000", for an answer that names the field apart.
    public var valueAndMessage: String {
        value.map { "\($0): \(message)" } ?? message
    }

    /// "latency 700000: expected milliseconds, 0 to 600000".
    public var description: String {
        "\(setting)\(value.map { " \($0)" } ?? ""): \(message)"
    }
}
