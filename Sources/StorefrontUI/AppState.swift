import CellGrid
import Foundation
import StoreCore
import StoreKitModel

/// Everything the screen shows, as plain values. `reduce` changes it; `view` draws it.
public struct AppState: Sendable, Equatable {
    public let catalog: Catalog
    /// "simulated store" or the remote store's address, for the header.
    public let storeLabel: String
    public var language: Language
    public var account: Account
    public var storefront: Storefront
    /// `--locale` when given; otherwise the storefront's own locale formats prices.
    public let localeOverride: String?
    public var asciiOnly: Bool
    public var size: TerminalSize
    public var now: Date
    /// Times in the transaction list; tests pin it so golden screens do not depend on the machine.
    /// The autoupdating zone is resolved when a time is first shown, not when the state is made
    /// (`.current` reads the system's zone at once: 0.4 ms of the first frame, which shows no time).
    public var timeZone: TimeZone = .autoupdatingCurrent

    public var catalogLoad: CatalogLoad = .loading
    public var list = ProductList()
    public var history: [Transaction] = []
    /// What the app has done for each transaction this session, keyed by transaction id.
    public var progress: [String: PurchaseProgress] = [:]
    public var pending: [PendingPayment] = []
    public var balances: [String: Int] = [:]
    public var entitlements: [Entitlement] = []
    public var controls = TestControls()
    /// The account's purchase of the app, once read (the account sheet shows it).
    public var appTransaction: AppTransactionInfo?
    public var sheet: Sheet?
    public var status: StatusMessage?
    /// The key-echo line for presenters (`--show-keys`); nil when off.
    public var keyEcho: KeyEcho?
    public var spinner = 0
    /// Payments added in this session that have not reached a final app step yet. The runner
    /// reports a payment added before any update of its transaction, so this is known in time.
    public var inFlight: Set<String> = []
    public var quitting = false
    /// Why the store cannot be read right now (a remote store is down); nil when it answers.
    public var storeProblem: String?
    /// Payments whose outcome the store could not tell before it went away: they may or may not
    /// have gone through, and are checked when it answers again.
    public var unconfirmed: [UnconfirmedPayment] = []
    /// A risky command pressed once (clear all, reset); pressing it again carries it out.
    public var armed: Command?
    /// The transaction an armed refund or delete is for, or the account an armed history clear
    /// is for: a second press acts only on it.
    public var armedTransaction: String?
    /// Which transactions the main screen's pane shows, and how far it is scrolled.
    public var transactionPane = TransactionPane()
    /// Whose transactions the manager lists: the signed-in account's, or every account's.
    public var managerView = ManagerView()
    /// Refunds this session asked for that wait for the App Store's decision, by transaction id:
    /// the manager shows them (with those the store reports, `waitingRefund(_:)`), and its approve
    /// and decline keys decide them.
    public var refundRequests: [String: WaitingRefund] = [:]
    /// StoreKit's messages shown this session: each once a launch, as StoreKit delivers them.
    public var messagesShown: Set<StoreMessage> = []
    /// Messages the App Store sent this account (a win-back offer's, a generic one), taken from
    /// the store and not shown yet, oldest first: the store gives each once, so they wait here
    /// while another sheet is open.
    public var messagesWaiting: [AppStoreMessage] = []
    /// Purchases the customer started on the App Store (`PurchaseIntent`), taken from the store
    /// and not offered yet, oldest first.
    public var intentsWaiting: [PurchaseIntentInfo] = []

    public init(
        catalog: Catalog, storeLabel: String, language: Language, account: Account, storefront: Storefront,
        localeOverride: String?, asciiOnly: Bool, size: TerminalSize, now: Date
    ) {
        self.catalog = catalog
        self.storeLabel = storeLabel
        self.language = language
        self.account = account
        self.storefront = storefront
        self.localeOverride = localeOverride
        self.asciiOnly = asciiOnly
        self.size = size
        self.now = now
    }

    public var locale: String { localeOverride ?? catalog.settings.locale ?? storefront.locale }

    public var priceFormatter: PriceFormatter {
        PriceFormatter(currency: storefront.currency, locale: locale, asciiOnly: asciiOnly)
    }

    /// What display prices are formatted for now.
    public var pricing: ProductList.Pricing {
        ProductList.Pricing(
            storefront: storefront.id, currency: storefront.currency, locale: locale, language: language,
            asciiOnly: asciiOnly)
    }

    public var selectedProduct: Product? { list.selected }

    /// The screen's layout now; the banner row exists while a payment is pending or unconfirmed,
    /// the controls line while a test control is not at its default.
    public var layout: Layout {
        Layout(size: size, banner: !pending.isEmpty || !unconfirmed.isEmpty, controls: !ControlRow.atDefaults(self))
    }

    /// What the store will charge this account for `product` now on `plan` (what it owns, its
    /// offers).
    public func quote(_ product: Product, quantity: Int, plan: BillingPlanType = .upFront) -> PurchaseQuote {
        PurchaseRules.quote(
            product, quantity: quantity, storefront: storefront.id,
            holdings: Holdings(entitlements: entitlements, history: history, catalog: catalog, at: now),
            catalog: catalog, plan: plan)
    }

    /// The billing plans the buyer may choose for `product` here: up front alone, or also monthly
    /// with a 12-month commitment (never in the United States or Singapore).
    public func billingPlans(_ product: Product) -> [BillingPlanType] {
        product.type == .autoRenewable && product.billingPrice(.monthly, in: storefront.id) != nil
            ? [.upFront, .monthly] : [.upFront]
    }

    public func displayPrice(_ product: Product) -> String {
        priceFormatter.displayPrice(of: product, in: storefront.id, language: language) ?? "—"
    }
}

/// A payment the store went away in the middle of: asked for (`orderId`, the app's order, which
/// the transaction carries as `applicationUsername`) or seen `purchasing` (`transactionId`).
public struct UnconfirmedPayment: Sendable, Hashable {
    public var productId: String
    public var quantity: Int
    public var orderId: String?
    public var transactionId: String?
    public var since: Date

    public init(productId: String, quantity: Int, orderId: String?, transactionId: String?, since: Date) {
        self.productId = productId
        self.quantity = quantity
        self.orderId = orderId
        self.transactionId = transactionId
        self.since = since
    }
}

/// The main screen's transactions: all, or one kind, newest first, scrolled by `scroll` rows.
public struct TransactionPane: Sendable, Hashable {
    public enum Filter: Int, Sendable, Hashable, CaseIterable {
        case all
        /// Purchased or restored.
        case purchases
        case failures
        /// Not finished and not failed: purchasing, waiting for a parent, or left unfinished.
        case pending

        func includes(_ transaction: Transaction) -> Bool {
            switch self {
            case .all: true
            case .purchases: transaction.state == .purchased || transaction.state == .restored
            case .failures: transaction.state == .failed
            case .pending: transaction.state != .failed && !transaction.finished
            }
        }

        var next: Filter { Filter(rawValue: (rawValue + 1) % Filter.allCases.count) ?? .all }
    }

    public var filter: Filter = .all
    public var scroll = 0

    public init(filter: Filter = .all, scroll: Int = 0) {
        self.filter = filter
        self.scroll = scroll
    }

    public func shown(_ history: [Transaction]) -> [Transaction] {
        filter == .all ? history : history.filter(filter.includes)
    }
}

/// The products request, as the catalog pane shows it.
public enum CatalogLoad: Sendable, Hashable {
    case loading
    case loaded(invalidIds: [String])
    case failed(String)
}

/// The live phase of one transaction, from the queue's state and the app's steps.
public enum PurchaseProgress: Sendable, Hashable {
    case purchasing
    case deferred
    case delivered
    case verifying
    case verified
    case finished
    case failed(StoreError)
    case unverified(String)
    case rejected(String)
    /// The App Store refunded it: what it granted is withdrawn.
    case revoked
    /// The app crashed delivering it: it stays unfinished, and comes back at the next launch.
    case crashed
    /// A higher level of its group replaced this subscription; `refunded`: its unused part was
    /// worth something (not a free trial) and was refunded.
    case upgraded(refunded: Bool)
}

/// The overlay on top of the main screen; one at a time, so sheets never overlap.
public enum Sheet: Sendable, Hashable {
    case confirmPurchase(ConfirmPurchase)
    /// The selected product's every field: the list shows only what fits a row.
    case productDetails
    case error(ErrorSheet)
    /// The key list, scrolled down by `scroll` rows.
    case help(scroll: Int)
    case pendingPayments
    case storefrontPicker(selection: Int)
    case accountPicker(selection: Int)
    case testControls(selection: Int)
    case transactionManager(selection: Int)
    /// Every field of one transaction, opened from the manager's row (`TransactionInspector`).
    case transactionInspector(TransactionInspector)
    case quitConfirm
    case restoreResult(RestoreResult)
    /// StoreKit's manage-subscriptions sheet: the account's subscriptions, to cancel or resume.
    case manageSubscriptions(selection: Int)
    /// StoreKit's refund-request sheet for one transaction, with the reason chosen.
    case refundRequest(RefundRequest)
    /// The App Store's cancellation sheet: the retention message, then the customer confirms.
    case cancelSubscription(CancelSubscription)
    /// StoreKit's offer-code redemption sheet, with the code typed so far.
    case redeemCode(String)
    /// A known code's offer, its terms shown before it is redeemed.
    case redeemOffer(String)
    /// The app crashed delivering a transaction: launch it again, or install the fixed build.
    case appCrashed(AppCrashReport)
    /// One of StoreKit's own messages (`Message`): the store shows it over the app.
    case storeMessage(StoreMessage)
    /// An Ask to Buy account's purchase: the child asks a parent before the request is sent.
    case askPermission(ConfirmPurchase)
    /// The manager's picker: the family an account moves to, or the account a purchase is
    /// assigned to.
    case managerPicker(ManagerPicker)
    /// The transaction manager's form for a transaction made outside the device.
    case createTransaction(CreateTransactionForm)
    /// A message the App Store sent the account (`Message`): a win-back offer's, or a generic one.
    case sentMessage(AppStoreMessage)
    /// A purchase the customer started on the App Store (`PurchaseIntent`): the app offers to
    /// complete it with the intent's offer.
    case promotedPurchase(PurchaseIntentInfo)
}

/// A choice the transaction manager asks for before it acts: the family an account moves to
/// (the families there are, or none), or the account a purchase is assigned to. Esc goes back to
/// the manager's row.
public struct ManagerPicker: Sendable, Hashable {
    public enum Purpose: Sendable, Hashable {
        /// Moves `account` to the family chosen.
        case family(account: String)
        /// Assigns transaction `transactionId`, bought by `purchaser`, to the account chosen.
        case assign(transactionId: String, purchaser: String)
    }

    public var purpose: Purpose
    public var selection: Int
    /// The manager's selection to go back to.
    public var managerSelection: Int

    public init(_ purpose: Purpose, selection: Int, managerSelection: Int) {
        self.purpose = purpose
        self.selection = selection
        self.managerSelection = managerSelection
    }
}

/// A message StoreKit shows over the app (`Message.Reason`) about one subscription.
public struct StoreMessage: Sendable, Hashable {
    public typealias Reason = StoreMessageReason

    public var reason: Reason
    /// The subscription's latest period, which the manage actions take.
    public var transactionId: String
    public var productId: String

    public init(reason: Reason, transactionId: String, productId: String) {
        self.reason = reason
        self.transactionId = transactionId
        self.productId = productId
    }
}

/// The cancellation sheet's state: the subscription, the row of the subscriptions sheet it came
/// from, and the retention message the store chose, while it is asked for and once it answered.
public struct CancelSubscription: Sendable, Hashable {
    public enum Message: Sendable, Hashable {
        case loading
        case none
        case shown(CancellationMessage)
    }

    public var transactionId: String
    public var productId: String
    public var selection: Int
    public var message: Message

    public init(transactionId: String, productId: String, selection: Int, message: Message = .loading) {
        self.transactionId = transactionId
        self.productId = productId
        self.selection = selection
        self.message = message
    }
}

/// The refund-request sheet's state: the transaction, and which of Apple's reasons is chosen.
public struct RefundRequest: Sendable, Hashable {
    public var transactionId: String
    public var reason: Int

    public init(transactionId: String, reason: Int = 0) {
        self.transactionId = transactionId
        self.reason = reason
    }
}

public struct ConfirmPurchase: Sendable, Hashable {
    public var productId: String
    public var quantity: Int
    /// Transactions already pending for this product: the sheet names them and asks again.
    public var pendingIds: [String]
    /// The user confirmed once despite a pending payment; the next confirmation pays.
    public var acknowledged = false
    /// A promotional or win-back offer chosen with `o`; nil for none (an eligible account still
    /// gets the introductory offer).
    public var offerId: String?
    /// How the subscription is paid, chosen with `b` where the monthly plan is offered.
    public var billingPlan: BillingPlanType
    /// An Ask to Buy account asked a parent (the Ask Permission sheet): the request may be sent.
    public var permissionAsked = false

    public init(
        productId: String, quantity: Int, pendingIds: [String], acknowledged: Bool = false, offerId: String? = nil,
        billingPlan: BillingPlanType = .upFront
    ) {
        self.productId = productId
        self.quantity = quantity
        self.pendingIds = pendingIds
        self.acknowledged = acknowledged
        self.offerId = offerId
        self.billingPlan = billingPlan
    }
}

public struct ErrorSheet: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case store(StoreError)
        /// An interrupted purchase: failed with `error` for now, waiting for the user's action.
        case interrupted(StoreError)
        case verification(reason: String)
        case failure(String)
    }

    public var kind: Kind
    public var productId: String?
    /// The StoreKit call that failed, which the sheet's title names.
    public var call: SimulatedAPI

    public init(kind: Kind, productId: String?, call: SimulatedAPI = .purchase) {
        self.kind = kind
        self.productId = productId
        self.call = call
    }
}

public enum RestoreResult: Sendable, Hashable {
    case restored([String])
    case nothing
    case failed(StoreError)
}

public struct StatusMessage: Sendable, Hashable {
    public enum Level: Sendable, Hashable { case info, warning, error }

    public var text: String
    public var level: Level
    public var expires: Date

    public init(text: String, level: Level, expires: Date) {
        self.text = text
        self.level = level
        self.expires = expires
    }
}
