import CellGrid
import Foundation
import StoreCore
import StoreKitModel

/// Everything that can happen to the UI: keys, the clock, and the results of effects.
public enum Action: Sendable, Equatable {
    case key(Key)
    case resized(TerminalSize)
    case tick(Date)
    case productsLoaded(ProductsResponse)
    case productsFailed(String)
    /// A transaction update from the store's queue (this session's or an earlier run's).
    case transactionUpdate(TransactionUpdate)
    /// What the app did for a transaction (delivered, verified, finished, …).
    case appSteps([AppStep])
    case snapshot(StoreSnapshot)
    /// Every account's transactions, newest first, for the manager's all-accounts view.
    case everyAccountLoaded([Transaction], families: [String: String])
    /// What came of a transaction-manager action: done, or refused with the store's reason.
    case managed(ManageAction, ManageOutcome)
    /// The account's AppTransaction, as `AppTransaction.shared` gives the app at launch.
    case appTransactionLoaded(account: String, AppTransactionInfo)
    case paymentAdded(Transaction)
    /// Adding the payment failed because the store went away: it may have arrived before it did.
    /// `orderId` is the app's order, which the transaction would carry as `applicationUsername`.
    case paymentUnconfirmed(productId: String, quantity: Int, orderId: String, reason: String)
    case restoreFinished(RestoreResult)
    /// Re-reading the store failed (a remote store went away): shown until a read succeeds again.
    case refreshFailed(String)
    /// An effect failed outside StoreKit's error model (disk full, server down): shown, never fatal.
    case effectFailed(String)
    /// The retention message for cancelling `productId` (nil: none, or the store could not say).
    case cancellationMessage(productId: String, CancellationMessage?)
    /// The screen was saved: its files, without their extensions (`….txt`, `….ansi`, `….svg`).
    case screenSaved(String)
    /// Saving the screen failed: why.
    case screenNotSaved(String)
    /// The app crashed delivering a transaction (a scenario's app build): it stays unfinished.
    case appCrashed(AppCrashReport)
    /// The fixed app build is installed: no delivery crashes any more.
    case appFixed
}

/// A crash of the app while it delivered a transaction, as the crash screen shows it.
public struct AppCrashReport: Sendable, Hashable {
    public var transactionId: String
    public var productId: String
    /// How many times delivering this product has crashed the app, this one included.
    public var crashes: Int

    public init(transactionId: String, productId: String, crashes: Int) {
        self.transactionId = transactionId
        self.productId = productId
        self.crashes = crashes
    }
}

/// What the UI reads from the store and the ledger after a change.
public struct StoreSnapshot: Sendable, Equatable {
    public var history: [Transaction]
    public var pending: [PendingPayment]
    public var balances: [String: Int]
    public var entitlements: [Entitlement]
    public var controls: TestControls
    /// The account the snapshot was read for (nil: the one signed in), whose messages and
    /// purchase intents these are.
    public var account: String?
    /// Messages the App Store sent the account since the last read, taken from the store (each once).
    public var messages: [AppStoreMessage]
    /// Purchases the customer started on the App Store since the last read, taken from the store.
    public var intents: [PurchaseIntentInfo]

    public init(
        history: [Transaction], pending: [PendingPayment], balances: [String: Int], entitlements: [Entitlement],
        controls: TestControls, account: String? = nil, messages: [AppStoreMessage] = [],
        intents: [PurchaseIntentInfo] = []
    ) {
        self.history = history
        self.pending = pending
        self.balances = balances
        self.entitlements = entitlements
        self.controls = controls
        self.account = account
        self.messages = messages
        self.intents = intents
    }
}

/// Work the reducer asks for; the runner performs it off the UI loop and answers with actions.
public enum Effect: Sendable, Hashable {
    case loadProducts(storefront: String)
    /// Place the order and add the payment; `plan`: the billing plan chosen (nil pays up front).
    case buy(productId: String, quantity: Int, account: String, plan: BillingPlanType? = nil)
    /// Hand an update to the app's observer: deliver, verify, finish (or wait).
    case handle(TransactionUpdate)
    /// Re-read history, pending payments, wallet and controls for the account.
    case refresh(account: String)
    /// At launch and after an account switch: re-deliver what the queue holds unfinished.
    case replayUnfinished(account: String)
    /// At launch and after an account switch: read the account's AppTransaction.
    case loadAppTransaction(account: String)
    case restore(account: String)
    case setControls(TestControls)
    case manage(ManageAction)
    /// A transaction-manager action whose outcome is reported (`.managed`), so the manager
    /// confirms it or says why the store refused it.
    case manageAndReport(ManageAction)
    /// Read every account's transactions (`.everyAccountLoaded`).
    case loadEveryAccount
    /// The retention message the cancellation sheet shows (Apple's `userLocale` is `locale`).
    case loadCancellationMessage(account: String, productId: String, locale: String)
    case retryVerification(account: String)
    /// Buy with a promotional offer (signed as the app's server would) or a win-back offer.
    case buyWithOffer(productId: String, offerId: String, account: String, plan: BillingPlanType? = nil)
    /// Redeem an offer code: a payment for the product whose offer it is, carrying the code.
    case redeem(code: String, productId: String, account: String)
    /// Save what the screen shows (as text, ANSI and SVG) for a bug report: the screen of the
    /// state the action that asked for it left, which the runner draws then.
    case saveScreen
    /// Install the app build without its crash, so delivering no longer crashes.
    case fixApp
    case quit
}
