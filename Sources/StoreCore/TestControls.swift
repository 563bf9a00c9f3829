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
    /// Xcode's `interruptedPurchasesEnabled`: every purchase is interrupted until turned off, and
    /// each is completed by resolving its issue.
    public var interruptedPurchases: Bool = false
    /// The sandbox's Display Win-back Offer Sheet switch (its Account Settings): on, an account
    /// that becomes eligible for a win-back offer is sent StoreKit's `winBackOffer` message once;
    /// off, none is sent, as for an app that suppresses the sheet to show offers its own way.
    public var winBackMessages: Bool = true

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

/// Every test control, one row each, in the order the TUI's sheet shows them: the command line,
/// `/admin/controls`, the store's settings, the sheet, scenarios, tapes and the docs' table all
/// read this, as `KeyBindings.table` is read for keys. A new control is a field above, a row here
/// and the behaviour that reads the field; `UPDATE_DOCS=1 swift test --filter ControlDocTests`
/// then writes its line into docs/api.md and docs/openapi.json.
extension TestControls {
    public static let table: [ControlSetting] = [
        .value(
            "next-outcome", \.nextOutcome, wire: "nextOutcome", stored: "next",
            label: ("Purchase outcome", "购买结果"),
            doc: "how the next payment ends; it applies to one payment, then returns to `success`",
            accepted: PaymentOutcome.accepted, carried: .text(omittedWhenEmpty: false), schema: .outcome,
            parse: { token, _ in PaymentOutcome(token: token) }, text: { $0.token }, store: { $0.token },
            restore: { PaymentOutcome(token: $0) }, display: { .outcome($0) }, step: .cycle(sheetOutcomes)),
        .flag(
            "every-purchase", \.everyPurchase, wire: "everyPurchase", stored: "everyPurchase",
            label: ("Outcome applies to", "结果适用于"),
            doc: "`nextOutcome` stays for every payment until changed (Xcode's fail-transactions switch)",
            words: (on: ("every purchase", "每次购买"), off: ("next purchase only", "仅下一次购买"))),
        .paired(
            "product-outcome", \.productOutcomes, wire: "productOutcomes", stored: "products",
            doc: "every payment of that product ends so, until none",
            usage: ("PRODUCT_ID", "OUTCOME|none", "a product id and an outcome (or none)"),
            keys: .products, values: .outcome,
            set: { productId, token, catalog throws(ValueProblem) in
                guard catalog.product(id: productId) != nil else {
                    throw ValueProblem(productId, "not a product of this catalog; see storefront products")
                }
                if token == "none" { return (productId, nil) }
                guard let outcome = PaymentOutcome(token: token) else {
                    throw ValueProblem(
                        token, "expected \(PaymentOutcome.alternatives(PaymentOutcome.tokenForms + ["none"]))")
                }
                return (productId, outcome)
            },
            text: { ($0, $1.token) }, restore: { product, token in PaymentOutcome(token: token).map { (product, $0) } },
            sheet: [
                SheetRow(
                    id: "product-outcome", label: ("Selected product", "所选商品"),
                    display: { .productOutcome($0.productOutcomes) },
                    step: .change { controls, delta, product in
                        guard let product else { return controls }
                        var next = controls
                        next.productOutcomes[product] = SheetStep.cycle(
                            sheetProductOutcomes, controls.productOutcomes[product], delta)
                        return next
                    })
            ]),
        .value(
            "latency", \.latencyMilliseconds, wire: "latencyMilliseconds", stored: "latency",
            label: ("Latency", "延迟"), doc: "how long every payment takes to end, in milliseconds",
            accepted: "milliseconds, 0 to \(latencyLimit)", carried: .integer, schema: .integer(0...latencyLimit),
            parse: { value, _ in Int(value).flatMap { (0...latencyLimit).contains($0) ? $0 : nil } },
            text: { String($0) }, store: { String($0) }, restore: { Int($0) }, display: { .milliseconds($0) },
            step: .cycle([0, 250, 500, 1_000, 2_000, 5_000, 10_000])),
        .flag(
            "ask-to-buy", \.askToBuy, wire: "askToBuy", stored: "askToBuy", label: ("Ask to Buy", "购买请求"),
            doc: "every purchase waits for a parent to `approve` or `decline` it, as an Ask to Buy account's does"),
        .flag(
            "payments-allowed", \.paymentsAllowed, wire: "paymentsAllowed", stored: "paymentsAllowed",
            label: ("Payments allowed", "允许付款"),
            doc: "off, every payment fails with SKError 4 (`paymentNotAllowed`), as on a device Screen Time restricts"),
        .value(
            "time-rate", \.timeRate, wire: "timeRate", stored: "timeRate", label: ("Time rate", "时间速率"),
            doc:
                "how fast subscriptions renew: Xcode's `SKTestSession.TimeRate` by token (`2s`) or raw value (durations in docs/catalog-format.md, \"Time rates\"); a change applies at once to the periods in force, what is left of each measured in the new rate",
            accepted: "one of \(TimeRate.allCases.map(\.token).joined(separator: ", "))",
            carried: .text(omittedWhenEmpty: false),
            schema: .oneOf(
                TimeRate.allCases.map(\.token) + TimeRate.allCases.map(\.rawValue).sorted().map { String($0) }),
            parse: { token, _ in TimeRate(token: token) }, text: { $0.token }, store: { String($0.rawValue) },
            restore: { Int($0).flatMap(TimeRate.init(storedRawValue:)) }, display: { .timeRate($0) },
            step: .cycle(TimeRate.allCases)),
        .value(
            "verification", \.verificationFailure, wire: "verification", stored: "verification",
            label: ("Receipt verification", "收据验证"),
            doc: "how receipt verification answers the app's server: as it should, not at all, or with that status",
            accepted: "ok, unreachable or a verifyReceipt status such as 21003",
            carried: .text(omittedWhenEmpty: false),
            schema: .oneOf(["ok"] + sheetVerifications.compactMap { $0?.token }),
            parse: { token, _ in token == "ok" ? .some(nil) : VerificationFailure(token: token).map { .some($0) } },
            text: { $0?.token ?? "ok" }, store: { $0?.token },
            restore: { VerificationFailure(token: $0).map { .some($0) } }, display: { .verification($0) },
            step: .cycle(sheetVerifications)),
        .flag(
            "drop-order-id", \.dropOrderIds, wire: "dropOrderIds", stored: "dropOrderIds",
            label: ("Drop applicationUsername", "丢弃 applicationUsername"),
            doc: "every update comes back without `applicationUsername`, as field reports describe"),
        .value(
            "storefront", \.storefront, wire: "storefront", stored: "storefront", label: ("Storefront", "店面"),
            doc: "the storefront purchases are made in; empty, the account's own",
            accepted: "a storefront of the catalog (ISO 3166 alpha-3), or an empty value for the account's own",
            carried: .text(omittedWhenEmpty: true), schema: .storefront,
            parse: { value, catalog throws(ValueProblem) in
                guard !value.isEmpty else { return .some(nil) }
                guard catalog.storefront(id: value.uppercased()) != nil else {
                    throw ValueProblem(
                        value,
                        "not a storefront of this catalog (it has \(catalog.storefronts.map(\.id).joined(separator: ", ")))"
                    )
                }
                return value.uppercased()
            },
            text: { $0 ?? "" }, store: { $0 }, restore: { $0 }, display: { _ in .storefront },
            step: .picker(.storefront)),
        .value(
            "account", \.account, wire: "account", stored: "account", label: ("Account", "账户"),
            doc:
                "the account commands act for when they name none (the default `--account`); empty, the catalog's default",
            accepted: "an account of the catalog, or an empty value for the catalog's default",
            carried: .text(omittedWhenEmpty: true), schema: .account,
            parse: { value, catalog throws(ValueProblem) in
                guard !value.isEmpty else { return .some(nil) }
                guard catalog.account(named: value) != nil else {
                    throw ValueProblem(
                        value,
                        "not an account of this catalog (it has \(catalog.accounts.map(\.name).joined(separator: ", ")))"
                    )
                }
                return value
            },
            text: { $0 ?? "" }, store: { $0 }, restore: { $0 }, display: { _ in .account }, step: .picker(.account)),
        .flag(
            "billing-issues", \.billingIssues, wire: "billingIssues", stored: "billingIssues",
            label: ("Billing retry on renewal", "续订时扣费失败"),
            doc: "renewals fail to bill and enter billing retry: 60 days in real time, each rate's own length otherwise"
        ),
        .flag(
            "grace-period", \.gracePeriod, wire: "gracePeriod", stored: "gracePeriod",
            label: ("Billing grace period", "扣费宽限期"),
            doc:
                "access continues while a billing issue is open: 6 days for weekly subscriptions, 16 for the rest, in real time"
        ),
        .paired(
            "api-error", \.apiErrors, wire: "apiErrors", stored: "apiErrors",
            doc: "that StoreKit call fails so, until none (Xcode's per-API simulated errors)",
            usage: ("API", "fail:CODE|network[:CODE]|cancel|none", "an API and an error (or none)"),
            keys: .oneOf(SimulatedAPI.allCases.map(\.rawValue)), values: .failure,
            set: { name, token, _ throws(ValueProblem) in
                guard let api = SimulatedAPI(rawValue: name) else {
                    throw ValueProblem(
                        name, "expected one of \(SimulatedAPI.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                if token == "none" { return (api, nil) }
                guard let error = PaymentOutcome(token: token)?.failure else {
                    throw ValueProblem(token, "expected fail:CODE, network[:CODE], cancel or none")
                }
                return (api, error)
            },
            text: { ($0.rawValue, PaymentOutcome(failure: $1).token) },
            restore: { name, token in
                guard let api = SimulatedAPI(rawValue: name), let error = PaymentOutcome(token: token)?.failure else {
                    return nil
                }
                return (api, error)
            },
            sheet: [
                SheetRow(
                    id: "api-error", label: ("API errors (until off)", "API 错误（持续）"),
                    display: { .apiErrors($0.apiErrors) },
                    step: .change { controls, delta, _ in
                        // The API steps; the code chosen on the next line stays (SKError 0 until one is).
                        let code = controls.apiErrors.values.first ?? .storeKit(.unknown)
                        let choices: [[SimulatedAPI: StoreError]] = [[:]] + SimulatedAPI.allCases.map { [$0: code] }
                        var next = controls
                        next.apiErrors = SheetStep.cycle(choices, controls.apiErrors, delta)
                        return next
                    }),
                SheetRow(
                    id: "api-error-code", label: ("API error code", "API 错误代码"),
                    display: { .apiErrorCode($0.apiErrors.values.first) },
                    step: .change { controls, delta, _ in
                        // Every API set gets the code: one code at a time here, a mix with `manage set api-error`.
                        guard let current = controls.apiErrors.values.first else { return controls }
                        let code = SheetStep.cycle(sheetAPIErrorCodes, current, delta)
                        var next = controls
                        next.apiErrors = controls.apiErrors.mapValues { _ in code }
                        return next
                    }),
            ]),
        .flag(
            "auto-approve-refunds", \.autoApproveRefunds, wire: "autoApproveRefunds", stored: "autoApproveRefunds",
            label: ("Auto-approve refunds", "自动批准退款"),
            doc: "a refund request is granted at once; off, it waits for `refund` or `decline-refund`"),
        .flag(
            "interrupted-purchases", \.interruptedPurchases, wire: "interruptedPurchases",
            stored: "interruptedPurchases", label: ("Interrupted purchases", "中断购买"),
            doc: "every purchase is interrupted until turned off: it fails, and `resolve` completes it"),
        .flag(
            "win-back-messages", \.winBackMessages, wire: "winBackMessages", stored: "winBackMessages",
            label: ("Win-back offer messages", "赢回优惠消息"),
            doc:
                "an account that becomes eligible for a win-back offer gets StoreKit's `winBackOffer` message once (the sandbox's Display Win-back Offer Sheet); off, none is sent"
        ),
    ]

    /// The longest latency a payment may be given.
    public static let latencyLimit = 600_000

    /// The outcomes the sheet steps through.
    static let sheetOutcomes: [PaymentOutcome] =
        [.success, .cancel, .deferred, .interrupted]
        + SKErrorCode.allCases.filter { $0 != .paymentCancelled }.map(PaymentOutcome.fail)
        + URLErrorCode.allCases.map(PaymentOutcome.network)
    /// The selected product's line steps through no outcome of its own, then every outcome.
    static let sheetProductOutcomes: [PaymentOutcome?] = [nil] + sheetOutcomes.map(Optional.some)
    /// The errors an API can be given: every SKError and URLError code.
    static let sheetAPIErrorCodes: [StoreError] =
        SKErrorCode.allCases.map(StoreError.storeKit) + URLErrorCode.allCases.map(StoreError.network)
    static let sheetVerifications: [VerificationFailure?] =
        [nil, .unreachable] + VerifyStatus.allCases.filter { $0 != .valid }.map(VerificationFailure.status)
}
