import Foundation

/// The purchases `Product.purchase` is waiting for. A purchase's own transaction is the
/// purchase's result, never an update too (StoreKit: "after a successful in-app purchase on the
/// same device, StoreKit returns the transaction through `PurchaseResult.success`"). The store
/// may publish it before the purchase learns its id, so a listener that meets a transaction of
/// a product being bought waits for those purchases to end before deciding.
actor InFlightPurchases {
    static let shared = InFlightPurchases()

    private var running: [UUID: String] = [:]
    /// By store and transaction id: every store numbers its transactions from the same start.
    private var claimed: Set<String> = []
    private var waiting: [(product: String, continuation: CheckedContinuation<Void, Never>)] = []

    func begin(productID: String) -> UUID {
        let token = UUID()
        running[token] = productID
        return token
    }

    /// The purchase ended; `transactionID` is the one it returned as its result.
    func end(_ token: UUID, returned transaction: (store: String, id: UInt64)?) {
        if let transaction { claimed.insert("\(transaction.store)/\(transaction.id)") }
        running[token] = nil
        let products = Set(running.values)
        var kept: [(product: String, continuation: CheckedContinuation<Void, Never>)] = []
        for entry in waiting {
            if products.contains(entry.product) { kept.append(entry) } else { entry.continuation.resume() }
        }
        waiting = kept
    }

    /// Whether a purchase returned this transaction, once no purchase of its product is running.
    func wasReturned(_ transactionID: UInt64, store: String, productID: String) async -> Bool {
        if running.values.contains(productID) {
            await withCheckedContinuation { waiting.append((product: productID, continuation: $0)) }
        }
        return claimed.contains("\(store)/\(transactionID)")
    }
}
