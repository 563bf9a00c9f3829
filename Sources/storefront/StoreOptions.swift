import AppSide
import ArgumentParser
import Foundation
import LocalState
import SQLiteStore
import StoreClient
import StoreCore
import StoreEngine
import StoreKitModel

/// Options of the commands that talk to a store: the catalog's, plus state directory and account,
/// and `--store URL` to use a `storefront serve` instead of the simulated store in this process.
struct StoreOptions: ParsableArguments {
    @OptionGroup var catalog: CatalogOptions

    @Option(
        name: .long,
        help: ArgumentHelp(
            "State directory. Default: $STOREFRONT_HOME, else $XDG_DATA_HOME/storefront, else ~/.local/share/storefront.",
            valueName: "dir"))
    var state: String?

    @Option(
        name: .long,
        help: ArgumentHelp("Test account (see products.json). Default: the catalog's first.", valueName: "name"))
    var account: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Use the store served at this URL (storefront serve) instead of the simulated store in this process. Default: $STOREFRONT_STORE. Requests are retried with backoff for up to $STOREFRONT_RETRY_SECONDS (default 30).",
            valueName: "url"))
    var store: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Admin token of the --store server, for test controls and the transaction manager. Default: $STOREFRONT_ADMIN_TOKEN.",
            valueName: "token"))
    var adminToken: String?

    /// The server URL, from `--store` or `$STOREFRONT_STORE`; nil for the simulated store.
    func storeURL(_ environment: [String: String]) throws -> String? {
        try Self.storeURL(flag: store, environment)
    }

    /// `--store` (or `$STOREFRONT_STORE`) checked and without a trailing slash; nil for none.
    static func storeURL(flag: String?, _ environment: [String: String]) throws -> String? {
        guard let url = flag ?? environment["STOREFRONT_STORE"].flatMap({ $0.isEmpty ? nil : $0 }) else { return nil }
        guard CatalogLoader.isURL(url), URL(string: url)?.host != nil else {
            throw CommandFailure.usage(
                "--store \(URLCredentials.redacted(url)): expected the server's URL, e.g. http://127.0.0.1:8080")
        }
        return url.hasSuffix("/") ? String(url.dropLast()) : url
    }

    /// Opens the store (simulated, or remote with --store) and the app's ledger, and completes
    /// what an earlier process left half done. `--storefront` applies to this command only;
    /// `manage set storefront` persists. `follow`: the remote store's updates follow only the
    /// session's account (headless commands); the TUI, which switches accounts, follows all.
    /// `retryBudget`: how long one call to a remote store keeps retrying; the TUI keeps it short,
    /// since it shows "store unreachable" and tries again on its own, and its effects run in order.
    /// `resuming`: complete what an earlier process left half done before returning; the TUI says
    /// false and calls `StoreSession.resume` after its first frame.
    /// `announcing`: say the session's notices on stderr (the TUI shows them instead).
    func open(
        followAccountOnly: Bool = true, retryBudget: Duration? = nil, resuming: Bool = true,
        announcing: Bool = true
    ) async throws -> StoreSession {
        let environment = ProcessInfo.processInfo.environment
        let remoteURL = try storeURL(environment)
        var policy = RetryPolicy.standard
        if let retryBudget { policy.budget = retryBudget }
        if let seconds = environment["STOREFRONT_RETRY_SECONDS"].flatMap(Double.init), seconds >= 0 {
            policy.budget = .milliseconds(Int64(seconds * 1000))
        }
        if state?.isEmpty == true {
            throw CommandFailure.usage("--state needs a directory; an empty value would quietly use the default one")
        }
        let directory = StateDirectory.resolve(flag: state, environment: environment)
        var notices: [String]
        do {
            notices = try directory.tightenPermissions()
        } catch let failure as StoreFailure {
            throw CommandFailure.failure(failure.message)
        }
        // The databases need no catalog: they open beside it, each under a lock file of its own (see
        // `DurablePool`). Should the catalog fail, leaving this scope still waits for them, so no
        // database is left half created.
        async let storeDatabase = remoteURL == nil ? StoreDatabase(storage: SQLiteStorage.store(in: directory)) : nil
        async let appLedger = AppLedger(state: directory)
        // The store's catalog is its first request: retried like the others, so a client launched
        // while the server restarts waits for it.
        let context = try await catalog.resolve(
            defaultCatalog: remoteURL.map { "\($0)/v1/catalog" } ?? "products.json",
            defaultRetryBudget: remoteURL == nil ? .zero : policy.budget,
            store: remoteURL.map { (url: $0, requestTimeout: policy.requestTimeout) })
        do {
            let opened = try await appLedger
            let store: any StoreBackend
            let controls: TestControls
            let label: String
            if let remoteURL {
                let token = adminToken ?? environment["STOREFRONT_ADMIN_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
                let probe = RemoteStore(url: remoteURL, catalog: context.catalog, adminToken: token, policy: policy)
                controls = try await probe.controls()
                let name = account ?? controls.account ?? context.catalog.defaultAccount.name
                store = RemoteStore(
                    url: remoteURL, catalog: context.catalog, adminToken: token,
                    followedAccount: followAccountOnly ? name : nil,
                    policy: policy)
                // Shown in the title bar, on saved screens and in reports: never a password or token.
                label = "remote store \(URLCredentials.redacted(remoteURL))"
            } else {
                // Opened above whenever there is no remote URL.
                guard let database = try await storeDatabase else {
                    throw StoreFailure("internal error: the store database was not opened")
                }
                let local = try SimulatedStore(
                    catalog: context.catalog, database: database,
                    storefrontOverride: catalog.storefront.map { _ in context.storefront.id })
                controls = local.openingControls
                if resuming { try await local.resume() }
                store = local
                label = "simulated store"
            }
            let (ledger, storeChange) = try opened.bound(to: try await store.storeId())
            if let storeChange { notices.append(storeChange.message) }
            if let notice = context.notice { notices.append(notice) }
            if announcing { for notice in notices { Console.err("storefront: note: \(notice)") } }
            let name = account ?? controls.account ?? context.catalog.defaultAccount.name
            guard let account = context.catalog.account(named: name) else {
                let known = context.catalog.accounts.map(\.name).joined(separator: ", ")
                throw CommandFailure.usage("--account \(name): not an account of this catalog (it has \(known))")
            }
            let storefrontId =
                catalog.storefront.map { _ in context.storefront.id } ?? controls.storefront ?? account.storefront
            let storefront = context.catalog.storefront(id: storefrontId) ?? context.storefront
            let locale = catalog.locale ?? context.catalog.settings.locale ?? storefront.locale
            return StoreSession(
                context: context, store: store, storeLabel: label, account: account, storefront: storefront,
                locale: locale,
                ledger: ledger, observer: PurchaseObserver(store: store, ledger: ledger, catalog: context.catalog),
                notices: notices, stateDirectory: directory.url, controls: controls)
        } catch let failure as StoreFailure {
            throw CommandFailure.failure(failure.message)
        }
    }
}

/// An opened store with the app side beside it, as a command works with them.
struct StoreSession {
    let context: CatalogContext
    let store: any StoreBackend
    /// "simulated store" or "remote store URL", for the TUI's title bar.
    let storeLabel: String
    let account: Account
    /// Where this account buys: `--storefront`, else the store's setting, else the account's own.
    let storefront: Storefront
    /// `--locale`, else the catalog's, else the storefront's.
    let locale: String
    let ledger: AppLedger
    let observer: PurchaseObserver
    /// What opening found and changed that the user should hear once: another store met by the
    /// app's ledger, permissions made private.
    let notices: [String]
    /// The state directory the app's ledger (and the simulated store) live in.
    let stateDirectory: URL
    /// The store's test controls when the session opened: what a later change is measured from.
    let controls: TestControls

    var language: Language { context.language }

    /// Completes purchases an earlier process left in `purchasing` and renews what is due (see
    /// `SimulatedStore.resume`); a remote store's server does this itself.
    func resume() async throws {
        try await (store as? SimulatedStore)?.resume()
    }

    var priceFormatter: PriceFormatter {
        PriceFormatter(currency: storefront.currency, locale: locale)
    }
}

/// JSON shape of a transaction in `storefront transactions --json` and the other store commands.
struct TransactionJSON: Encodable {
    let transactionId: String
    let originalTransactionId: String
    let productId: String
    let state: String
    let quantity: Int
    let purchaseDate: String
    let finished: Bool
    /// `app`, or `server` when the app's server finished it with Finish Transaction.
    let finishedBy: String?
    /// The app's order id (`applicationUsername`), when it gave one.
    let orderId: String?
    /// The App Store's order id of a charged purchase or renewal (`M` and nine characters), what
    /// a customer's receipt email shows and Look Up Order ID takes; absent for copies and failures.
    let appStoreOrderId: String?
    let error: ErrorJSON?
    /// What was charged (an exact decimal string, quantity included): "0" for a free trial,
    /// a restore, or something owned bought again. Absent until purchased or restored.
    let price: String?
    let currency: String?
    let expirationDate: String?
    /// `introductory`, `promotional`, `code` or `winBack`.
    let offerType: String?
    let offerId: String?
    let offerPaymentMode: String?
    let revocationDate: String?
    /// `other` or `developerIssue`.
    let revocationReason: String?
    /// A prorated refund's share in thousandths of a percent (25500 for 25.5 %), as Apple signs it.
    let revocationPercentage: Int?
    /// When the App Store reversed a refund of it (REFUND_REVERSED).
    let refundReversalDate: String?
    /// A refund the customer asked for that the App Store has not decided: why, as
    /// `manage request-refund --reason` spells it, and when.
    let refundRequestReason: String?
    let refundRequestDate: String?
    /// `purchase` or `renewal` (a subscription's automatic renewal); with the price.
    let transactionReason: String?
    /// `interrupted`, with a failed state; `declined` or `askToBuyExpired`, the store's side of a
    /// deferred Ask to Buy request that the app still sees deferred.
    let failureContext: String?
    /// True on a subscription a higher level replaced (StoreKit 2's `isUpgraded`); absent otherwise.
    let isUpgraded: Bool?
    /// The unused part of its period refunded at the upgrade.
    let upgradeRefund: String?
    /// Auto-renewable subscriptions: `upFront` or `monthly` (with a 12-month commitment).
    let billingPlanType: String?
    /// A monthly payment's place in its commitment.
    let commitmentInfo: CommitmentJSON?

    init(_ transaction: Transaction, language: Language) {
        transactionId = transaction.id
        originalTransactionId = transaction.originalId
        productId = transaction.productId
        state = transaction.state.name
        quantity = transaction.quantity
        purchaseDate = transaction.purchaseDate.formatted(.iso8601)
        finished = transaction.finished
        finishedBy = transaction.finishedBy?.rawValue
        orderId = transaction.payment.applicationUsername
        appStoreOrderId = transaction.state == .purchased ? OrderId.of(transactionId: transaction.id) : nil
        error = transaction.error.map { ErrorJSON($0, language: language) }
        let terms = transaction.terms
        price = terms?.price.exactString
        currency = terms?.currency
        expirationDate = terms?.expirationDate?.formatted(.iso8601)
        offerType = terms?.offer?.type.rawValue
        offerId = terms?.offer?.id
        offerPaymentMode = terms?.offer?.paymentMode.rawValue
        revocationDate = terms?.revocation?.date.formatted(.iso8601)
        revocationReason = terms?.revocation?.reason.name
        revocationPercentage = terms?.revocation?.percentage?.milliunits
        refundReversalDate = terms?.refundReversalDate?.formatted(.iso8601)
        refundRequestReason = transaction.refundRequest?.reason.rawValue
        refundRequestDate = transaction.refundRequest?.requestedAt.formatted(.iso8601)
        transactionReason = terms.map { $0.isRenewal ? "renewal" : "purchase" }
        failureContext = transaction.failureContext?.rawValue
        isUpgraded = terms?.upgrade.map { _ in true }
        upgradeRefund = terms?.upgrade?.refund.exactString
        billingPlanType = terms?.billingPlan?.rawValue
        commitmentInfo = terms?.commitment.map(CommitmentJSON.init)
    }
}

struct ErrorJSON: Encodable {
    let code: Int
    let domain: String
    let name: String
    let message: String

    init(_ error: StoreError, language: Language) {
        code = error.code
        domain = error.domain
        name = error.name
        message = error.text(in: language).message
    }
}
