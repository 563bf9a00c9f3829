import CellGrid
import StoreCore
import StoreKitModel

extension Reducer {
    /// The transaction manager: move, then act on the selected transaction; refunding, deleting
    /// and clearing all ask twice.
    static func managerKey(_ state: inout AppState, _ key: Key, _ selection: Int) -> [Effect] {
        let count = state.history.count
        let command = KeyBindings.command(for: key, in: .manager)
        if command != state.armed {
            state.armed = nil
            state.armedTransaction = nil
        }
        let selected = state.history.indices.contains(selection) ? state.history[selection] : nil
        // A refund waiting for the App Store's decision is what approve and decline decide first.
        if command == .approve || command == .decline, let selected, state.refundRequests[selected.id] != nil {
            return decideRefund(&state, selected.id, approve: command == .approve)
        }
        let action: ManageAction?
        switch command {
        case .up:
            state.sheet = .transactionManager(selection: max(0, selection - 1))
            return []
        case .down:
            state.sheet = .transactionManager(selection: max(0, min(count - 1, selection + 1)))
            return []
        case .top:
            state.sheet = .transactionManager(selection: 0)
            return []
        case .bottom:
            state.sheet = .transactionManager(selection: max(0, count - 1))
            return []
        case .close:
            state.sheet = nil
            return []
        case .quit: return quit(&state)
        case .help:
            state.sheet = .help(scroll: 0)
            return []
        case .approve: action = selected.map { .approveAskToBuy($0.id) }
        case .decline:
            guard let selected else { return [] }
            action =
                selected.state == .deferred || renewal(state, selected)?.priceIncreaseStatus != .pending
                ? .declineAskToBuy(selected.id) : .priceIncrease(selected.id, .decline)
        case .autoRenew:
            guard let selected, let renewal = renewal(state, selected) else { return [] }
            action = .setAutoRenew(
                selected.id, !Presentation.autoRenewOn(renewal, willAutoRenew: renewal.willAutoRenew))
        case .priceIncrease:
            guard let selected, let renewal = renewal(state, selected) else { return [] }
            action = .priceIncrease(selected.id, renewal.priceIncreaseStatus == .pending ? .consent : .request)
        case .resolve: action = selected.map { .resolveIssue($0.id) }
        case .refund, .delete:
            // Neither can be undone: the first press says what the second will do.
            guard let selected else { return [] }
            // Armed for this transaction only: a refresh between the presses can move another one
            // under the selection.
            guard state.armed == command, state.armedTransaction == selected.id, let command else {
                state.armed = command
                state.armedTransaction = selected.id
                say(
                    &state, UIStrings(state.language).pressAgain(command ?? .delete, transactionId: selected.id),
                    .warning)
                return []
            }
            state.armed = nil
            state.armedTransaction = nil
            action = command == .refund ? .refund(selected.id) : .delete(selected.id)
        case .expire: action = selected.map { .expireSubscription($0.id) }
        case .renew: action = selected.map { .forceRenewal($0.id) }
        case .stopSharing: action = selected.map { .stopSharing($0.id) }
        case .clearAll:
            guard state.armed == .clearAll else {
                state.armed = .clearAll
                say(&state, UIStrings(state.language).pressAgainToClear, .warning)
                return []
            }
            state.armed = nil
            // Nothing of this session is in flight any more: the quit question and the purchase
            // messages must not wait for transactions that are gone.
            state.progress = [:]
            state.inFlight = []
            say(&state, UIStrings(state.language).clearedAll)
            action = .clearAll
        default: return []
        }
        guard let action else { return [] }
        return [.manage(action), .refresh(account: state.account.name)]
    }

    /// The App Store's decision on a refund this session asked for: granted for the reason the
    /// customer gave, or declined (servers hear REFUND or REFUND_DECLINED).
    static func decideRefund(_ state: inout AppState, _ id: String, approve: Bool) -> [Effect] {
        guard let reason = state.refundRequests.removeValue(forKey: id) else { return [] }
        let strings = UIStrings(state.language)
        let title = Presentation.title(state, transaction: id)
        say(&state, approve ? strings.refundApproved(title) : strings.refundDeclined(title))
        let action: ManageAction = approve ? .refund(id, reason: reason.revocationReason) : .declineRefund(id)
        return [.manage(action), .refresh(account: state.account.name)]
    }

    /// The renewal info of the subscription `transaction` belongs to, while the account has it.
    static func renewal(_ state: AppState, _ transaction: Transaction) -> RenewalInfo? {
        state.entitlements.first { $0.productId == transaction.productId && $0.type == .autoRenewable }?.renewal
    }
}
