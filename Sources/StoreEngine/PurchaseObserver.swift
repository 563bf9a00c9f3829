import Foundation
import StoreKitModel

/// One step the app took for a transaction, for the UI and the headless commands to show.
public enum AppStep: Sendable, Hashable {
    case delivered(transactionId: String, firstTime: Bool)
    case verified(transactionId: String)
    case verificationRejected(transactionId: String, reason: String)
    case verificationDeferred(transactionId: String, reason: String)
    case finished(transactionId: String)
    case waitingForApproval(transactionId: String)
    case showError(transactionId: String, error: StoreError)
}

/// What a careful iOS app does with each transaction update (reference §2): deliver once per
/// transaction id, keep a durable record until the server verifies, finish only after
/// verification; show failures (not cancellations) and finish them; leave deferred ones alone.
public struct PurchaseObserver: Sendable {
    public let store: any StoreBackend
    public let ledger: AppLedger
    public let catalog: Catalog

    public init(store: any StoreBackend, ledger: AppLedger, catalog: Catalog) {
        self.store = store
        self.ledger = ledger
        self.catalog = catalog
    }

    public func handle(_ update: TransactionUpdate) async throws -> [AppStep] {
        let transaction = update.transaction
        switch transaction.state {
        case .purchasing:
            return []
        case .deferred:
            return [.waitingForApproval(transactionId: transaction.id)]
        case .failed:
            try await store.finish(transactionId: transaction.id)
            let error = transaction.error ?? .storeKit(.unknown)
            let shown: [AppStep] = error == .storeKit(.paymentCancelled) ? [] : [.showError(transactionId: transaction.id, error: error)]
            return shown + [.finished(transactionId: transaction.id)]
        case .purchased, .restored:
            return try await deliverVerifyFinish(update)
        }
    }

    private func deliverVerifyFinish(_ update: TransactionUpdate) async throws -> [AppStep] {
        let transaction = update.transaction
        let record = try ledger.recordAndDeliver(update, product: catalog.product(id: transaction.productId), at: Date())
        var steps: [AppStep] = [.delivered(transactionId: transaction.id, firstTime: record.delivered)]
        guard let receipt = update.receipt else {
            return steps + [.verificationDeferred(transactionId: transaction.id, reason: "no receipt was delivered with the transaction")]
        }
        switch try await store.verify(receipt: receipt, transactionId: transaction.id, productId: transaction.productId, claim: record.claim) {
        case .verified:
            try ledger.mark(transaction.id, status: "verified")
            steps.append(.verified(transactionId: transaction.id))
        case .rejected(_, let reason):
            try ledger.mark(transaction.id, status: "rejected", error: reason)
            steps.append(.verificationRejected(transactionId: transaction.id, reason: reason))
        case .retryLater(let reason):
            try ledger.mark(transaction.id, status: "unverified", error: reason)
            return steps + [.verificationDeferred(transactionId: transaction.id, reason: reason)]
        }
        try await store.finish(transactionId: transaction.id)
        try ledger.mark(transaction.id, status: "finished")
        return steps + [.finished(transactionId: transaction.id)]
    }
}
