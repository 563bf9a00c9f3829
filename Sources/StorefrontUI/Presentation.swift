import StoreCore
import StoreKitModel

/// What the state's ids read as, and which of its entitlements a sheet lists: shared by the view,
/// which draws them, and the reducer, whose messages name the same products and whose keys move
/// through the same list, so the two cannot drift.
enum Presentation {
    /// A product's title in the language shown; its id when the catalog does not have it.
    static func title(_ state: AppState, product id: String) -> String {
        state.catalog.product(id: id)?.title.text(in: state.language) ?? id
    }

    /// The title of the product a transaction in the history is for; an empty title when the
    /// history does not hold the transaction.
    static func title(_ state: AppState, transaction id: String) -> String {
        title(state, product: productId(state, transaction: id) ?? "")
    }

    /// The product a transaction in the history is for.
    static func productId(_ state: AppState, transaction id: String) -> String? {
        state.history.first { $0.id == id }?.productId
    }

    /// What the app's list says of a transaction beyond its state: a closed Ask to Buy request
    /// is the store's side (the manager shows it), and the app still sees it deferred.
    static func appFailureContext(_ transaction: Transaction) -> FailureContext? {
        transaction.state == .deferred ? nil : transaction.failureContext
    }

    /// The account's auto-renewable subscriptions, as the manage-subscriptions sheet lists them.
    static func subscriptions(_ state: AppState) -> [Entitlement] {
        state.entitlements.filter { $0.type == .autoRenewable }
    }

    /// Where the subscription's latest payment stands in its 12-month commitment; nil when paid
    /// up front, or when the history does not hold that payment.
    static func commitment(_ state: AppState, _ entitlement: Entitlement) -> TransactionCommitment? {
        state.history.first { $0.id == entitlement.transactionId }?.terms?.commitment
    }

    /// Whether the customer has left auto-renew on. Mid-commitment StoreKit's `willAutoRenew`
    /// stays true after a cancellation (the months left are billed); only the commitment's own
    /// flag says the customer turned it off.
    static func autoRenewOn(_ renewal: RenewalInfo?, willAutoRenew: Bool) -> Bool {
        willAutoRenew && renewal?.commitment?.willAutoRenew != false
    }

    static func autoRenewOn(_ entitlement: Entitlement) -> Bool {
        autoRenewOn(entitlement.renewal, willAutoRenew: entitlement.willAutoRenew)
    }

    /// The commitment's words for a subscription line: "payment 4 of 12", and once auto-renew
    /// is off with payments left, that it ends after the last one.
    static func commitmentWords(_ state: AppState, _ entitlement: Entitlement, _ strings: UIStrings) -> String? {
        guard let commitment = commitment(state, entitlement) else { return nil }
        let progress = strings.commitmentProgress(commitment)
        guard entitlement.renewal?.commitment?.willAutoRenew == false,
            commitment.billingPeriodNumber < commitment.totalBillingPeriods
        else { return progress }
        return progress + ", " + strings.commitmentEnds(after: commitment.totalBillingPeriods)
    }

    /// The commitment of the subscription whose latest payment is `transactionId`, while it has
    /// payments left to bill: a cancellation then stops only what follows them.
    static func commitmentInForce(_ state: AppState, transactionId: String) -> TransactionCommitment? {
        guard let entitlement = state.entitlements.first(where: { $0.transactionId == transactionId }),
            let commitment = commitment(state, entitlement),
            commitment.billingPeriodNumber < commitment.totalBillingPeriods
        else { return nil }
        return commitment
    }
}
