import Foundation
import StoreCore
import StoreKitModel

/// Whose transactions the manager lists. A parent approves a child's Ask to Buy from the
/// parent's own account, as on a device, so the manager can show every account's.
public struct ManagerView: Sendable, Hashable {
    /// Every account's transactions (`A`), not the signed-in account's alone.
    public var allAccounts = false
    /// Every account's transactions, newest first, as last read; empty until read.
    public var everyAccount: [Transaction] = []
    /// The family each account is in, as the store last said with every account's transactions
    /// (families are edited while the store runs); nil until read, when the catalog's stand.
    public var families: [String: String]?

    public init(allAccounts: Bool = false, everyAccount: [Transaction] = [], families: [String: String]? = nil) {
        self.allAccounts = allAccounts
        self.everyAccount = everyAccount
        self.families = families
    }
}

extension AppState {
    /// The family `account` is in: as the store last said, else as the catalog says.
    func family(of account: String) -> String? {
        guard let families = managerView.families else { return catalog.account(named: account)?.family }
        return families[account]
    }
}

/// What came of a transaction-manager action.
public enum ManageOutcome: Sendable, Hashable {
    /// Done; the transactions it changed or made (a renewal, an approved request).
    case done([Transaction])
    /// Refused, with the store's reason.
    case refused(String)
}

/// The inspector's state: the transaction, how far it is scrolled, and the manager's row it
/// came from, selected again when it closes.
public struct TransactionInspector: Sendable, Hashable {
    public var transactionId: String
    public var selection: Int
    public var scroll: Int

    public init(transactionId: String, selection: Int, scroll: Int = 0) {
        self.transactionId = transactionId
        self.selection = selection
        self.scroll = scroll
    }
}

/// What a transaction has become, beyond the payment queue's state: a refund, an upgrade, a
/// billing issue or an expiry changes nothing the queue reports, and the manager shows them.
enum TransactionStatus: Hashable {
    case queue(TransactionState)
    case renewed
    case refunded
    /// Taken back without a refund: a family member's shared copy, once sharing stopped or
    /// the purchase was refunded.
    case revoked
    case upgraded
    case billingRetry
    case gracePeriod
    case expired
    case interrupted
    /// In force, with an offer taken on it that the next renewal takes.
    case offerWaiting
    /// The customer asked for a refund, which waits for the App Store's decision.
    case refundRequested
}

extension Presentation {
    /// The manager's transactions, in its order: the signed-in account's first, then in the
    /// all-accounts view each other account's, in the catalog's order.
    static func managerRows(_ state: AppState) -> [Transaction] {
        managerGroups(state).flatMap { $0.transactions }
    }

    /// The manager's transactions by account; one group, the signed-in account's, unless the
    /// all-accounts view is on.
    static func managerGroups(_ state: AppState) -> [(account: String, transactions: [Transaction])] {
        let own = (account: state.account.name, transactions: state.history)
        guard state.managerView.allAccounts else { return [own] }
        let others = Dictionary(grouping: state.managerView.everyAccount.filter { $0.payment.account != own.account }) {
            $0.payment.account
        }
        let known = state.catalog.accounts.map(\.name)
        let order = known + others.keys.filter { !known.contains($0) }.sorted()
        return [own] + order.compactMap { name in others[name].map { (account: name, transactions: $0) } }
    }

    /// The App Store order a transaction is, as `transactions --json` reports it: a charged
    /// purchase's or renewal's. A restored copy carries its original's payment and no order of
    /// its own; a failed or waiting transaction was never charged.
    static func appStoreOrderId(_ transaction: Transaction) -> String? {
        transaction.state == .purchased ? OrderId.of(transactionId: transaction.id) : nil
    }

    /// The manager's selected transaction, if the list has one there.
    static func managerSelected(_ state: AppState, _ selection: Int) -> Transaction? {
        let rows = managerRows(state)
        return rows.indices.contains(selection) ? rows[selection] : nil
    }

    /// Each transaction's status, for rows read together: a subscription's expiry is its
    /// latest period's alone (the earlier ones ended as they renewed).
    static func statuses(_ state: AppState, _ rows: [Transaction]) -> [String: TransactionStatus] {
        var subscriptions: Set<String> = []
        var latest: Set<String> = []
        let newestFirst = rows.sorted { ($0.purchaseDate, $0.id) > ($1.purchaseDate, $1.id) }
        for transaction in newestFirst where transaction.terms?.expirationDate != nil {
            if subscriptions.insert(transaction.payment.account + " " + transaction.originalId).inserted {
                latest.insert(transaction.id)
            }
        }
        var statuses: [String: TransactionStatus] = [:]
        for transaction in rows {
            statuses[transaction.id] = status(state, transaction, latest: latest.contains(transaction.id))
        }
        return statuses
    }

    /// `latest`: the subscription's latest period, which carries its billing issue or expiry.
    static func status(_ state: AppState, _ transaction: Transaction, latest: Bool) -> TransactionStatus {
        let terms = transaction.terms
        if terms?.revocation != nil { return terms?.ownership.isCopy == true ? .revoked : .refunded }
        if terms?.upgrade != nil { return .upgraded }
        if state.waitingRefund(transaction) != nil { return .refundRequested }
        if transaction.state == .failed, transaction.failureContext == .interrupted { return .interrupted }
        if latest, transaction.state.hasReceipt, let expires = terms?.expirationDate {
            let renewal = state.entitlements.first { $0.transactionId == transaction.id }?.renewal
            if renewal?.isInBillingRetry == true {
                return renewal?.gracePeriodExpirationDate.map { $0 > state.now } == true ? .gracePeriod : .billingRetry
            }
            if expires <= state.now { return .expired }
            if renewal?.renewalOffer != nil { return .offerWaiting }
        }
        return terms?.isRenewal == true ? .renewed : .queue(transaction.state)
    }

    /// The subscription a transaction belongs to, while the signed-in account has it.
    static func subscription(_ state: AppState, of transaction: Transaction) -> Entitlement? {
        state.entitlements.first {
            $0.type == .autoRenewable && $0.originalTransactionId == transaction.originalId
                && transaction.payment.account == state.account.name
        }
    }
}

extension AppState {
    /// The refund waiting on `transaction`: as the store reports it, which covers a request made
    /// outside this terminal (`manage request-refund`, another client of a served store), else
    /// as this session asked for it before the store's list was read again.
    func waitingRefund(_ transaction: Transaction) -> WaitingRefund? {
        transaction.refundRequest ?? refundRequests[transaction.id]
    }
}
