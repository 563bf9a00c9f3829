import CellGrid
import StoreCore
import StoreKitModel

extension Reducer {
    /// The first of StoreKit's messages the account's subscriptions call for and this session has
    /// not shown: a price increase waiting for consent, or a renewal that could not bill; else
    /// the first message the App Store sent the account (a win-back offer's, a generic one); else
    /// the first purchase the customer started on the App Store. Shown only over the main
    /// screen, never over a sheet the user is working in: what waits shows when it closes.
    static func showStoreMessage(_ state: inout AppState) {
        guard state.sheet == nil, state.layout.fits else { return }
        if let due = state.entitlements.lazy.compactMap(storeMessage).first(where: {
            !state.messagesShown.contains($0)
        }) {
            state.messagesShown.insert(due)
            state.sheet = .storeMessage(due)
        } else if !state.messagesWaiting.isEmpty {
            state.sheet = .sentMessage(state.messagesWaiting.removeFirst())
        } else if !state.intentsWaiting.isEmpty {
            state.sheet = .promotedPurchase(state.intentsWaiting.removeFirst())
        }
    }

    /// What a read of the store took for the account: the messages and purchase intents it
    /// gives once, kept until they can be shown. A read for another account (made before a
    /// switch) gives nothing here.
    static func keepTaken(_ state: inout AppState, _ snapshot: StoreSnapshot) {
        guard snapshot.account == nil || snapshot.account == state.account.name else { return }
        state.messagesWaiting += snapshot.messages
        state.intentsWaiting += snapshot.intents
    }

    /// A message the App Store sent: Enter takes a win-back offer (the purchase sheet opens on
    /// it) or closes a generic message; Esc leaves the offer (StoreKit shows it no more).
    static func sentMessageKey(_ state: inout AppState, _ key: Key, _ message: AppStoreMessage) -> [Effect] {
        switch (KeyBindings.command(for: key, in: .storeMessage), message.reason) {
        case (.yes?, .winBackOffer):
            guard let productId = message.productId else {
                state.sheet = nil
                return []
            }
            return beginPurchase(&state, productId: productId, offerId: message.offerId)
        case (.yes?, _), (.close?, _):
            state.sheet = nil
            return []
        case (.quit?, _):
            return quit(&state)
        default:
            return []
        }
    }

    /// A purchase started on the App Store: Enter completes it in the app, as StoreKit's
    /// `purchase` on the intent's product with its offer (the purchase sheet opens on it); Esc
    /// leaves it.
    static func promotedPurchaseKey(_ state: inout AppState, _ key: Key, _ intent: PurchaseIntentInfo) -> [Effect] {
        switch KeyBindings.command(for: key, in: .storeMessage) {
        case .yes?:
            return beginPurchase(&state, productId: intent.productId, offerId: intent.offerId)
        case .close?:
            state.sheet = nil
            say(
                &state,
                UIStrings(state.language).promotedNotBought(Presentation.title(state, product: intent.productId)))
            return []
        case .quit?:
            return quit(&state)
        default:
            return []
        }
    }

    /// Closes a message whose condition has ended since it was shown (the retry billed or gave
    /// up, the increase was answered elsewhere): Enter would act on what no longer is, and the
    /// store's refusal would follow the sheet's own "done".
    static func closeEndedStoreMessage(_ state: inout AppState) {
        guard case .storeMessage(let shown)? = state.sheet,
            !state.entitlements.contains(where: { storeMessage($0) == shown })
        else { return }
        state.sheet = nil
        let title = Presentation.title(state, product: shown.productId)
        say(&state, UIStrings(state.language).storeMessageEnded(title, shown.reason))
    }

    /// The message an entitlement calls for, if any (`Entitlement.messageReason`).
    static func storeMessage(_ entitlement: Entitlement) -> StoreMessage? {
        entitlement.messageReason.map {
            StoreMessage(reason: $0, transactionId: entitlement.transactionId, productId: entitlement.productId)
        }
    }

    /// Enter accepts (consents, or resolves the billing issue), `d` declines a price increase,
    /// Esc leaves it for later (it shows again at the next launch).
    static func storeMessageKey(_ state: inout AppState, _ key: Key, _ message: StoreMessage) -> [Effect] {
        let strings = UIStrings(state.language)
        let title = Presentation.title(state, product: message.productId)
        let action: ManageAction
        switch (KeyBindings.command(for: key, in: .storeMessage), message.reason) {
        case (.yes?, .priceIncreaseConsent):
            action = .priceIncrease(message.transactionId, .consent)
            say(&state, strings.priceIncreaseAccepted(title))
        case (.decline?, .priceIncreaseConsent):
            action = .priceIncrease(message.transactionId, .decline)
            say(&state, strings.priceIncreaseDeclined(title))
        case (.yes?, .billingIssue):
            action = .resolveIssue(message.transactionId)
            say(&state, strings.billingIssueResolved(title))
        case (.close?, _):
            state.sheet = nil
            return []
        case (.quit?, _):
            return quit(&state)
        default:
            return []
        }
        state.sheet = nil
        return [.manage(action), .refresh(account: state.account.name)]
    }

    /// The child's side of Ask to Buy: Ask sends the request (the payment is added and waits,
    /// deferred), Not Now sends nothing.
    static func askPermissionKey(_ state: inout AppState, _ key: Key, _ confirm: ConfirmPurchase) -> [Effect] {
        switch KeyBindings.command(for: key, in: .storeMessage) {
        case .yes?:
            var asked = confirm
            asked.permissionAsked = true
            return confirmPurchase(&state, asked)
        case .close?:
            state.sheet = nil
            say(&state, UIStrings(state.language).permissionNotAsked)
            return []
        case .quit?:
            return quit(&state)
        default:
            return []
        }
    }

    /// Whether a purchase by this account waits for a parent: the account is a child's, or the
    /// Ask to Buy control is on.
    static func asksToBuy(_ state: AppState) -> Bool {
        state.controls.askToBuy || state.account.askToBuy
    }
}
