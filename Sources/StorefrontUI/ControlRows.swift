import CellGrid
import StoreCore
import StoreKitModel

/// The rows of the test-controls panel: each reads its value from `TestControls` and steps it.
public enum ControlRow: Int, CaseIterable, Sendable {
    case nextOutcome, latency, askToBuy, paymentsAllowed, timeRate, verification, dropOrderIds, storefront, account

    static let outcomes: [PaymentOutcome] = [.success, .cancel, .deferred, .interrupted]
        + SKErrorCode.allCases.filter { $0 != .paymentCancelled }.map(PaymentOutcome.fail)
        + URLErrorCode.allCases.map(PaymentOutcome.network)
    static let latencies = [0, 250, 500, 1_000, 2_000, 5_000, 10_000]
    static let verifications: [VerificationFailure?] = [nil, .unreachable]
        + VerifyStatus.allCases.filter { $0 != .valid }.map(VerificationFailure.status)

    public func label(_ strings: UIStrings) -> String {
        switch self {
        case .nextOutcome: strings.controlNextOutcome
        case .latency: strings.controlLatency
        case .askToBuy: strings.controlAskToBuy
        case .paymentsAllowed: strings.controlPaymentsAllowed
        case .timeRate: strings.controlTimeRate
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
        case .latency: return "\(controls.latencyMilliseconds) ms"
        case .askToBuy: return strings.onOff(controls.askToBuy)
        case .paymentsAllowed: return strings.onOff(controls.paymentsAllowed)
        case .timeRate: return strings.timeRate(controls.timeRate)
        case .verification: return strings.verification(controls.verificationFailure)
        case .dropOrderIds: return strings.onOff(controls.dropOrderIds)
        case .storefront: return "\(state.storefront.id) (\(state.storefront.currency))"
        case .account: return state.account.name
        }
    }

    /// The controls with this row stepped forward (+1) or back (-1); nil for rows that open a picker.
    func step(_ controls: TestControls, by delta: Int) -> TestControls? {
        var next = controls
        switch self {
        case .nextOutcome: next.nextOutcome = Self.cycle(Self.outcomes, controls.nextOutcome, delta)
        case .latency: next.latencyMilliseconds = Self.cycle(Self.latencies, controls.latencyMilliseconds, delta)
        case .askToBuy: next.askToBuy.toggle()
        case .paymentsAllowed: next.paymentsAllowed.toggle()
        case .timeRate: next.timeRate = Self.cycle(TimeRate.allCases, controls.timeRate, delta)
        case .verification: next.verificationFailure = Self.cycle(Self.verifications, controls.verificationFailure, delta)
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

extension Reducer {
    static func controlsKey(_ state: inout AppState, _ key: Key, _ selection: Int) -> [Effect] {
        let rows = ControlRow.allCases
        let row = rows[max(0, min(rows.count - 1, selection))]
        let command = KeyBindings.command(for: key, in: .controls)
        if command != state.armed { state.armed = nil }
        switch command {
        case .up: state.sheet = .testControls(selection: max(0, selection - 1))
        case .down: state.sheet = .testControls(selection: min(rows.count - 1, selection + 1))
        case .toggle:
            let delta = key == .left ? -1 : 1
            if let next = row.step(state.controls, by: delta) {
                state.controls = next
                return [.setControls(next)]
            }
            return mainCommand(&state, row == .storefront ? .storefront : .account)
        case .reset:
            guard state.armed == .reset else {
                state.armed = .reset
                say(&state, UIStrings(state.language).pressAgainToReset, .warning)
                return []
            }
            state.armed = nil
            state.progress = [:]
            return [.manage(.resetToDefaults), .refresh(account: state.account.name)]
        case .close: state.sheet = nil
        case .quit: return quit(&state)
        case .help: state.sheet = .help
        default: break
        }
        return []
    }

    static func managerKey(_ state: inout AppState, _ key: Key, _ selection: Int) -> [Effect] {
        let count = state.history.count
        let command = KeyBindings.command(for: key, in: .manager)
        if command != state.armed { state.armed = nil }
        let selected = state.history.indices.contains(selection) ? state.history[selection] : nil
        let action: ManageAction?
        switch command {
        case .up: state.sheet = .transactionManager(selection: max(0, selection - 1)); return []
        case .down: state.sheet = .transactionManager(selection: max(0, min(count - 1, selection + 1))); return []
        case .top: state.sheet = .transactionManager(selection: 0); return []
        case .bottom: state.sheet = .transactionManager(selection: max(0, count - 1)); return []
        case .close: state.sheet = nil; return []
        case .quit: return quit(&state)
        case .help: state.sheet = .help; return []
        case .approve: action = selected.map { .approveAskToBuy($0.id) }
        case .decline: action = selected.map { .declineAskToBuy($0.id) }
        case .resolve: action = selected.map { .resolveIssue($0.id) }
        case .refund: action = selected.map { .refund($0.id) }
        case .expire: action = selected.map { .expireSubscription($0.id) }
        case .renew: action = selected.map { .forceRenewal($0.id) }
        case .delete: action = selected.map { .delete($0.id) }
        case .clearAll:
            guard state.armed == .clearAll else {
                state.armed = .clearAll
                say(&state, UIStrings(state.language).pressAgainToClear, .warning)
                return []
            }
            state.armed = nil
            state.progress = [:]
            action = .clearAll
        default: return []
        }
        guard let action else { return [] }
        return [.manage(action), .refresh(account: state.account.name)]
    }
}
