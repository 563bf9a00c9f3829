import CellGrid
import StoreCore

extension Reducer {
    /// The cancellation sheet: Enter confirms the cancellation, Esc keeps the subscription; both
    /// go back to the subscriptions sheet. Confirming does not wait for the message.
    static func cancelSubscriptionKey(_ state: inout AppState, _ key: Key, _ sheet: CancelSubscription) -> [Effect] {
        let strings = UIStrings(state.language)
        switch KeyBindings.command(for: key, in: .subscriptions) {
        case .toggle:
            state.sheet = .manageSubscriptions(selection: sheet.selection)
            let title = Presentation.title(state, product: sheet.productId)
            // Mid-commitment the months left are still billed: the message says when it ends.
            let commitment = Presentation.commitmentInForce(state, transactionId: sheet.transactionId)
            say(
                &state,
                commitment.map { strings.cancelledCommitment(title, total: $0.totalBillingPeriods) }
                    ?? strings.cancelledSubscription(title))
            return [.manage(.setAutoRenew(sheet.transactionId, false)), .refresh(account: state.account.name)]
        case .close:
            state.sheet = .manageSubscriptions(selection: sheet.selection)
            say(&state, strings.keptSubscription(Presentation.title(state, product: sheet.productId)))
            return []
        case .quit: return quit(&state)
        default: return []
        }
    }
}
