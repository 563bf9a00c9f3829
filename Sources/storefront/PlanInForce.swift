import StoreKitModel

/// The plan a subscription's auto-renew switch acts on: its chain's latest purchase, as the
/// store's manager finds it. A command names the subscription by any of its transactions, often
/// the original one, whose product an upgrade or a crossgrade has since replaced.
enum PlanInForce {
    /// `transactions` newest first, as `StoreBackend.transactions(account:)` lists them.
    static func transaction(named id: String, among transactions: [Transaction]) -> Transaction? {
        guard let named = transactions.first(where: { $0.id == id }) else { return nil }
        return transactions.first {
            $0.originalId == named.originalId && $0.payment.account == named.payment.account
                && $0.state == .purchased
        } ?? named
    }
}
