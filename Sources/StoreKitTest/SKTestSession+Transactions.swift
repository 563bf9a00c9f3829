import Foundation
import StoreCore
@_spi(Storefront) import StoreKit
import StoreKitModel

/// The transaction manager's actions, as `SKTestSession` names them: each is the store's own
/// action, the one the terminal's manager and `storefront manage` perform.
extension SKTestSession {
    /// Buys as if outside the app (on another device): the app hears it through `Transaction.updates`.
    public func buyProduct(identifier: String, options: Set<StoreKit.Product.PurchaseOption> = [])
        async throws
        -> StoreKit.Transaction
    {
        try await store.buyOutsideTheApp(identifier, options: options)
    }

    /// Every transaction of the account, newest first.
    public func allTransactions() -> [SKTestTransaction] {
        let store = store
        let transactions =
            (try? BlockingCall.run { try await store.backend.transactions(account: store.account.name) }) ?? []
        return transactions.compactMap(SKTestTransaction.init)
    }

    public func clearTransactions() { _ = try? perform(.clearAll) }

    public func resetToDefaultState() { _ = try? perform(.resetToDefaults) }

    public func deleteTransaction(identifier: Int) throws { try perform(.delete(String(identifier))) }

    public func refundTransaction(identifier: Int) throws { try perform(.refund(String(identifier))) }

    public func approveAskToBuyTransaction(identifier: Int) throws {
        try perform(.approveAskToBuy(String(identifier)))
    }

    public func declineAskToBuyTransaction(identifier: Int) throws {
        try perform(.declineAskToBuy(String(identifier)))
    }

    public func resolveIssueForTransaction(identifier: Int) throws { try perform(.resolveIssue(String(identifier))) }

    public func requestPriceIncreaseConsentForTransaction(identifier: Int) throws {
        try perform(.priceIncrease(String(identifier), .request))
    }

    public func enableAutoRenewForTransaction(identifier: Int) throws {
        try perform(.setAutoRenew(String(identifier), true))
    }

    public func disableAutoRenewForTransaction(identifier: Int) throws {
        try perform(.setAutoRenew(String(identifier), false))
    }

    public func expireSubscription(productIdentifier: String) throws {
        try perform(.expireSubscription(try latestSubscription(productIdentifier)))
    }

    public func forceRenewalOfSubscription(productIdentifier: String) throws {
        try perform(.forceRenewal(try latestSubscription(productIdentifier)))
    }

    func perform(_ action: ManageAction) throws {
        let store = store
        do {
            _ = try BlockingCall.run { try await store.backend.perform(action) }
        } catch let failure as StoreFailure where failure.kind == .notFound {
            throw SKTestError(.noTransactionFound, failure.message)
        } catch let failure as StoreFailure {
            throw SKTestError(.invalidAction, failure.message)
        }
    }

    /// The account's latest transaction of an auto-renewable product.
    func latestSubscription(_ productID: String) throws -> String {
        guard store.catalog.product(id: productID)?.type == .autoRenewable else {
            throw SKTestError(.invalidProductType, "\(productID) is not an auto-renewable subscription of the catalog")
        }
        let store = store
        let transactions = try BlockingCall.run { try await store.backend.transactions(account: store.account.name) }
        guard let latest = transactions.first(where: { $0.productId == productID && $0.state == .purchased }) else {
            throw SKTestError(.noSubscriptionFound, "the account has no subscription to \(productID)")
        }
        return latest.id
    }
}

/// StoreKitTest's `SKTestTransaction`: a transaction as the test environment lists it.
public struct SKTestTransaction: Sendable, Hashable {
    public let identifier: Int
    public let originalTransactionIdentifier: Int
    public let productIdentifier: String
    public let state: SKPaymentTransactionState
    public let purchaseDate: Date
    public let expirationDate: Date?
    public let revocationDate: Date?
    public let pendingAskToBuyConfirmation: Bool

    init?(_ transaction: StoreKitModel.Transaction) {
        guard let id = Int(transaction.id), let original = Int(transaction.originalId),
            let state = SKPaymentTransactionState(rawValue: transaction.state.rawValue)
        else { return nil }
        identifier = id
        originalTransactionIdentifier = original
        productIdentifier = transaction.productId
        self.state = state
        purchaseDate = transaction.purchaseDate
        expirationDate = transaction.terms?.expirationDate
        revocationDate = transaction.terms?.revocation?.date
        pendingAskToBuyConfirmation = transaction.state == .deferred
    }
}
