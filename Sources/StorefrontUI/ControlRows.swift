import CellGrid
import StoreCore
import StoreKitModel

/// The rows of the test-controls panel: each reads its value from `TestControls` and steps it.
public enum ControlRow: Int, CaseIterable, Sendable {
    case nextOutcome, everyPurchase, productOutcome, latency, askToBuy, paymentsAllowed, timeRate, verification,
        dropOrderIds, storefront, account, billingIssues, gracePeriod, apiErrors, apiErrorCode, autoApproveRefunds

    static let outcomes: [PaymentOutcome] =
        [.success, .cancel, .deferred, .interrupted]
        + SKErrorCode.allCases.filter { $0 != .paymentCancelled }.map(PaymentOutcome.fail)
        + URLErrorCode.allCases.map(PaymentOutcome.network)
    /// The selected product's row steps through no outcome of its own, then every outcome.
    static let productOutcomes: [PaymentOutcome?] = [nil] + outcomes.map(Optional.some)
    /// The errors an API can be given: every SKError and URLError code.
    static let apiErrorCodes: [StoreError] =
        SKErrorCode.allCases.map(StoreError.storeKit) + URLErrorCode.allCases.map(StoreError.network)
    static let latencies = [0, 250, 500, 1_000, 2_000, 5_000, 10_000]
    static let verifications: [VerificationFailure?] =
        [nil, .unreachable]
        + VerifyStatus.allCases.filter { $0 != .valid }.map(VerificationFailure.status)

    public func label(_ strings: UIStrings) -> String {
        switch self {
        case .nextOutcome: strings.controlNextOutcome
        case .everyPurchase: strings.controlEveryPurchase
        case .productOutcome: strings.controlProductOutcome
        case .apiErrorCode: strings.controlAPIErrorCode
        case .autoApproveRefunds: strings.controlAutoApproveRefunds
        case .latency: strings.controlLatency
        case .askToBuy: strings.controlAskToBuy
        case .paymentsAllowed: strings.controlPaymentsAllowed
        case .timeRate: strings.controlTimeRate
        case .billingIssues: strings.controlBillingIssues
        case .gracePeriod: strings.controlGracePeriod
        case .apiErrors: strings.controlAPIErrors
        case .verification: strings.controlVerification
        case .dropOrderIds: strings.controlDropOrderIds
        case .storefront: strings.controlStorefront
        case .account: strings.controlAccount
        }
    }

    public func value(_ state: AppState) -> String {
        let controls = state.controls
        let strings = UIStrings(state.language)
        switch self {
        case .nextOutcome: return strings.outcome(controls.nextOutcome)
        case .everyPurchase: return strings.outcomeScope(everyPurchase: controls.everyPurchase)
        case .productOutcome:
            guard let product = state.selectedProduct else { return strings.none }
            let outcome = controls.productOutcomes[product.id].map(strings.outcome) ?? strings.none
            return "\(product.title.text(in: state.language)): \(outcome)"
        case .apiErrorCode:
            guard let error = controls.apiErrors.values.first else { return strings.none }
            return strings.outcome(PaymentOutcome(failure: error))
        case .autoApproveRefunds: return strings.onOff(controls.autoApproveRefunds)
        case .latency: return "\(controls.latencyMilliseconds) ms"
        case .askToBuy: return strings.onOff(controls.askToBuy)
        case .paymentsAllowed: return strings.onOff(controls.paymentsAllowed)
        case .timeRate: return strings.timeRate(controls.timeRate)
        case .billingIssues: return strings.onOff(controls.billingIssues)
        case .gracePeriod: return strings.onOff(controls.gracePeriod)
        case .apiErrors:
            guard !controls.apiErrors.isEmpty else { return strings.none }
            return controls.apiErrors.sorted { $0.key.rawValue < $1.key.rawValue }
                .map {
                    "\($0.key.rawValue): \($0.value.domain == "SKErrorDomain" ? "SKError" : "URLError") \($0.value.code)"
                }.joined(separator: ", ")
        case .verification: return strings.verification(controls.verificationFailure)
        case .dropOrderIds: return strings.onOff(controls.dropOrderIds)
        case .storefront: return "\(state.storefront.id) (\(state.storefront.currency))"
        case .account: return state.account.name
        }
    }

    /// The rows whose value differs from the catalog's defaults, as "label value": what a
    /// presenter should know is in force. The storefront and account show in the header.
    public static func changed(_ state: AppState) -> [String] {
        guard !atDefaults(state) else { return [] }
        var defaults = state
        defaults.controls = TestControls(seed: state.catalog.settings)
        defaults.controls.storefront = state.controls.storefront
        defaults.controls.account = state.controls.account
        let strings = UIStrings(state.language)
        var changed = allCases.filter { $0 != .storefront && $0 != .account && $0.value(state) != $0.value(defaults) }
            .map { "\($0.label(strings)): \($0.value(state))" }
        if !state.controls.productOutcomes.isEmpty {
            changed.append(strings.productOutcomesSet(state.controls.productOutcomes.count))
        }
        return changed
    }

    /// Every control as the catalog seeds it (the storefront and account aside): no line to show.
    /// Checked for every layout, so it compares values without building any text.
    static func atDefaults(_ state: AppState) -> Bool {
        var defaults = TestControls(seed: state.catalog.settings)
        defaults.storefront = state.controls.storefront
        defaults.account = state.controls.account
        return defaults == state.controls
    }

    /// The controls with this row stepped forward (+1) or back (-1); nil for rows that open a picker.
    /// `product`: the product selected in the list, whose own outcome the product row sets.
    func step(_ controls: TestControls, by delta: Int, product: String? = nil) -> TestControls? {
        var next = controls
        switch self {
        case .nextOutcome: next.nextOutcome = Self.cycle(Self.outcomes, controls.nextOutcome, delta)
        case .everyPurchase: next.everyPurchase.toggle()
        case .productOutcome:
            guard let product else { return controls }
            next.productOutcomes[product] = Self.cycle(Self.productOutcomes, controls.productOutcomes[product], delta)
        case .apiErrorCode:
            // Every API set gets the code: one code at a time here, a mix with `manage set api-error`.
            guard let current = controls.apiErrors.values.first else { return controls }
            let code = Self.cycle(Self.apiErrorCodes, current, delta)
            next.apiErrors = controls.apiErrors.mapValues { _ in code }
        case .autoApproveRefunds: next.autoApproveRefunds.toggle()
        case .latency: next.latencyMilliseconds = Self.cycle(Self.latencies, controls.latencyMilliseconds, delta)
        case .askToBuy: next.askToBuy.toggle()
        case .paymentsAllowed: next.paymentsAllowed.toggle()
        case .timeRate: next.timeRate = Self.cycle(TimeRate.allCases, controls.timeRate, delta)
        case .billingIssues: next.billingIssues.toggle()
        case .gracePeriod: next.gracePeriod.toggle()
        case .apiErrors:
            // The API steps; the code chosen on the next row stays (SKError 0 until one is).
            let code = controls.apiErrors.values.first ?? .storeKit(.unknown)
            let choices: [[SimulatedAPI: StoreError]] = [[:]] + SimulatedAPI.allCases.map { [$0: code] }
            next.apiErrors = Self.cycle(choices, controls.apiErrors, delta)
        case .verification:
            next.verificationFailure = Self.cycle(Self.verifications, controls.verificationFailure, delta)
        case .dropOrderIds: next.dropOrderIds.toggle()
        case .storefront, .account: return nil
        }
        return next
    }

    static func cycle<T: Equatable>(_ values: [T], _ current: T, _ delta: Int) -> T {
        guard !values.isEmpty else { return current }
        let index = values.firstIndex(of: current) ?? 0
        return values[((index + delta) % values.count + values.count) % values.count]
    }
}
