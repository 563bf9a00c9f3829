import CellGrid
import StoreCore
import StoreKitModel

/// StoreKit's own sheets an app opens: manage subscriptions (`showManageSubscriptions`) and the
/// refund request (`beginRefundRequest`). A simulated error for either fails it as StoreKit would.
extension Reducer {
    /// Apple's refund-request reasons, in the order its sheet lists them.
    static let refundReasonCount = RefundRequestReason.allCases.count

    static func openSubscriptions(_ state: inout AppState) {
        if let error = state.controls.apiErrors[.manageSubscriptions] {
            state.sheet = .error(ErrorSheet(kind: .store(error), productId: nil, call: .manageSubscriptions))
            return
        }
        state.sheet = .manageSubscriptions(selection: 0)
    }

    /// The refund request for the selected product's latest purchase that was not refunded.
    static func openRefundRequest(_ state: inout AppState, transactionId: String? = nil) {
        let id =
            transactionId
            ?? state.selectedProduct.flatMap { product in
                state.history.first {
                    $0.productId == product.id && $0.state == .purchased && $0.terms?.revocation == nil
                }?.id
            }
        guard let id else {
            say(&state, UIStrings(state.language).nothingToRefund, .warning)
            return
        }
        state.sheet = .refundRequest(RefundRequest(transactionId: id))
    }

    static func openRedeemCode(_ state: inout AppState) {
        if let error = state.controls.apiErrors[.offerCodeRedeem] {
            state.sheet = .error(ErrorSheet(kind: .store(error), productId: nil, call: .offerCodeRedeem))
            return
        }
        state.sheet = .redeemCode("")
    }

    /// Typing a code as it was given (printable ASCII: App Store Connect's codes, or a
    /// `.storekit` offer's reference name); Enter redeems it for the product whose offer it is. A
    /// code no product has is StoreKit's `invalidOfferIdentifier`; whether it is still good is the
    /// store's to say.
    static func redeemCodeKey(_ state: inout AppState, _ key: Key, _ code: String) -> [Effect] {
        switch key {
        case .character(let character)
        where character.isASCII && !character.isNewline && (character.asciiValue ?? 0) >= 0x20 && code.count < 100:
            state.sheet = .redeemCode(code + String(character))
        case .backspace, .control("h"):
            state.sheet = .redeemCode(String(code.dropLast()))
        case .enter where !code.isEmpty:
            // A code no product has says so here, the sheet kept to correct it; a known one
            // shows its offer's terms first.
            guard state.catalog.productRedeemed(by: code) != nil else {
                say(&state, UIStrings(state.language).unknownCode(code), .warning)
                return []
            }
            state.sheet = .redeemOffer(code)
        case .escape: state.sheet = nil
        case .control("c"): return quit(&state)
        default: break
        }
        return []
    }

    /// The code's offer on screen: Enter redeems it, Esc goes back to the code.
    static func redeemOfferKey(_ state: inout AppState, _ key: Key, _ code: String) -> [Effect] {
        switch key {
        case .enter:
            guard let product = state.catalog.productRedeemed(by: code) else { return [] }
            state.sheet = nil
            say(&state, UIStrings(state.language).redeeming(code, product.title.text(in: state.language)))
            return [.redeem(code: code, productId: product.id, account: state.account.name)]
        case .escape: state.sheet = .redeemCode(code)
        case .control("c"): return quit(&state)
        default: break
        }
        return []
    }

    static func subscriptionsKey(_ state: inout AppState, _ key: Key, _ selection: Int) -> [Effect] {
        let list = Presentation.subscriptions(state)
        let selected = list.indices.contains(selection) ? list[selection] : nil
        switch KeyBindings.command(for: key, in: .subscriptions) {
        case .up: state.sheet = .manageSubscriptions(selection: max(0, selection - 1))
        case .down: state.sheet = .manageSubscriptions(selection: max(0, min(list.count - 1, selection + 1)))
        case .toggle:
            guard let selected, selected.isActive(at: state.now) else { return [] }
            guard Presentation.autoRenewOn(selected) else {
                say(&state, UIStrings(state.language).resumed(Presentation.title(state, product: selected.productId)))
                return [.manage(.setAutoRenew(selected.transactionId, true)), .refresh(account: state.account.name)]
            }
            // As the App Store does, cancelling first shows the developer's retention message.
            state.sheet = .cancelSubscription(
                CancelSubscription(
                    transactionId: selected.transactionId, productId: selected.productId, selection: selection))
            return [
                .loadCancellationMessage(
                    account: state.account.name, productId: selected.productId,
                    locale: state.locale.replacingOccurrences(of: "_", with: "-"))
            ]
        case .requestRefund:
            guard let selected else { return [] }
            openRefundRequest(&state, transactionId: selected.transactionId)
        case .close: state.sheet = nil
        case .quit: return quit(&state)
        case .help: state.sheet = .help(scroll: 0)
        default: break
        }
        return []
    }

    /// Choose a reason, then Enter submits (servers hear CONSUMPTION_REQUEST with it; it waits for
    /// the App Store's decision unless refunds are approved at once) or Esc cancels (`userCancelled`).
    static func refundRequestKey(_ state: inout AppState, _ key: Key, _ request: RefundRequest) -> [Effect] {
        let strings = UIStrings(state.language)
        var request = request
        switch KeyBindings.command(for: key, in: .subscriptions) {
        case .up: request.reason = max(0, request.reason - 1)
        case .down: request.reason = min(refundReasonCount - 1, request.reason + 1)
        case .toggle:
            if let error = state.controls.apiErrors[.refundRequest] {
                state.sheet = .error(ErrorSheet(kind: .store(error), productId: nil, call: .refundRequest))
                return []
            }
            state.sheet = nil
            let title = Presentation.title(state, transaction: request.transactionId)
            let reason = RefundRequestReason.allCases[min(request.reason, refundReasonCount - 1)]
            // The store grants it at once when told to (a test control); otherwise it waits for
            // the App Store's decision, which the transaction manager makes.
            if state.controls.autoApproveRefunds {
                say(&state, strings.refundSubmitted(title))
            } else {
                state.refundRequests[request.transactionId] = WaitingRefund(reason: reason, requestedAt: state.now)
                say(&state, strings.refundWaiting(title))
            }
            return [
                .manage(.requestRefund(request.transactionId, reason: reason)), .refresh(account: state.account.name),
            ]
        case .close:
            state.sheet = nil
            say(&state, strings.refundCancelled)
            return []
        case .quit: return quit(&state)
        default: return []
        }
        state.sheet = .refundRequest(request)
        return []
    }
}
