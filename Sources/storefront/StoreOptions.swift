import ArgumentParser
import Foundation
import StoreEngine
import StoreKitModel

/// Options of the commands that talk to a store: the catalog's, plus state directory and account.
struct StoreOptions: ParsableArguments {
    @OptionGroup var catalog: CatalogOptions

    @Option(name: .long, help: ArgumentHelp("State directory. Default: $STOREFRONT_HOME, else $XDG_DATA_HOME/storefront, else ~/.local/share/storefront.", valueName: "dir"))
    var state: String?

    @Option(name: .long, help: ArgumentHelp("Test account (see products.json). Default: the catalog's first.", valueName: "name"))
    var account: String?

    /// Opens the simulated store and the app's ledger, and completes what an earlier process
    /// left half done. `--storefront` applies to this command only; `manage set storefront` persists.
    func open() async throws -> StoreSession {
        let context = try await catalog.resolve()
        let directory = StateDirectory.resolve(flag: state, environment: ProcessInfo.processInfo.environment)
        do {
            let store = try SimulatedStore(catalog: context.catalog, state: directory, storefrontOverride: catalog.storefront.map { _ in context.storefront.id })
            let controls = try await store.controls()
            let name = account ?? controls.account ?? context.catalog.defaultAccount.name
            guard let account = context.catalog.account(named: name) else {
                let known = context.catalog.accounts.map(\.name).joined(separator: ", ")
                throw CommandFailure.usage("--account \(name): not an account of this catalog (it has \(known))")
            }
            try await store.resume()
            let ledger = try AppLedger(state: directory)
            let storefrontId = catalog.storefront.map { _ in context.storefront.id } ?? controls.storefront ?? account.storefront
            let storefront = context.catalog.storefront(id: storefrontId) ?? context.storefront
            let locale = catalog.locale ?? context.catalog.settings.locale ?? storefront.locale
            return StoreSession(context: context, store: store, account: account, storefront: storefront, locale: locale, ledger: ledger,
                                observer: PurchaseObserver(store: store, ledger: ledger, catalog: context.catalog))
        } catch let failure as StoreFailure {
            throw CommandFailure.failure(failure.message)
        }
    }
}

/// An opened store with the app side beside it, as a command works with them.
struct StoreSession {
    let context: CatalogContext
    let store: SimulatedStore
    let account: Account
    /// Where this account buys: `--storefront`, else the store's setting, else the account's own.
    let storefront: StoreKitModel.Storefront
    /// `--locale`, else the catalog's, else the storefront's.
    let locale: String
    let ledger: AppLedger
    let observer: PurchaseObserver

    var language: Language { context.language }

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
    let orderId: String?
    let error: ErrorJSON?

    init(_ transaction: Transaction, language: Language) {
        transactionId = transaction.id
        originalTransactionId = transaction.originalId
        productId = transaction.productId
        state = transaction.state.name
        quantity = transaction.quantity
        purchaseDate = transaction.purchaseDate.formatted(.iso8601)
        finished = transaction.finished
        orderId = transaction.payment.applicationUsername
        error = transaction.error.map { ErrorJSON($0, language: language) }
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
