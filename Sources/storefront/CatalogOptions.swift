import ArgumentParser
import Foundation
import StoreClient
import StoreCore
import StoreKitModel

/// Options every command shares: which catalog, storefront, locale and language.
struct CatalogOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Catalog: a products.json or .storekit file, or an http(s):// URL. Default: products.json, or the server's with --store.",
            valueName: "path|url"))
    var catalog: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Storefront (ISO 3166-1 alpha-3, e.g. USA, JPN, DEU). Default: the account's, else the catalog's.",
            valueName: "iso3"))
    var storefront: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Locale for formatting prices (e.g. ja_JP, de_DE). Default: the storefront's.", valueName: "id"))
    var locale: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Language of titles and messages: en or zh-Hans. Default: from LC_ALL/LANG, else en.", valueName: "lang"))
    var lang: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Seconds a --catalog URL may take, from the request to its last byte. Default: 60.", valueName: "seconds"))
    var catalogTimeout: Double?

    /// `defaultCatalog`: where the catalog comes from when `--catalog` is not given.
    /// `defaultRetryBudget`: how long that default is tried again when it cannot be downloaded yet
    /// (a store's own catalog, while the store restarts).
    /// `store`: the remote store the default catalog comes from; its requests' timeout bounds each
    /// try, and a download that never gets an answer says the store is unreachable.
    /// `--lang`, else the environment's language, else English.
    func language() throws -> Language {
        guard let language = Language.resolve(flag: lang, environment: ProcessInfo.processInfo.environment) else {
            throw CommandFailure.usage("--lang \(lang ?? ""): unknown language; use en or zh-Hans")
        }
        return language
    }

    /// The catalog and where it is sold: `--storefront`, else `account`'s storefront, else the
    /// catalog's default.
    func resolve(
        defaultCatalog: String = "products.json", defaultRetryBudget: Duration = .zero,
        store: (url: String, requestTimeout: Duration)? = nil, account: String? = nil
    ) async throws -> CatalogContext {
        let location = self.catalog ?? defaultCatalog
        if let catalogTimeout, !(catalogTimeout > 0 && catalogTimeout <= 3600) {
            throw CommandFailure.usage(
                "--catalog-timeout \(catalogTimeout): expected seconds, more than 0 and at most 3600")
        }
        let fromStore = self.catalog == nil ? store : nil
        let timeout =
            fromStore?.requestTimeout ?? catalogTimeout.map { Duration.milliseconds(Int64($0 * 1000)) }
            ?? HTTPCatalogFetcher.defaultTimeout
        let language = try language()
        let catalog: Catalog
        let budget = self.catalog == nil ? defaultRetryBudget : .zero
        do {
            let load = { @Sendable in
                try await CatalogLoader.load(
                    from: location, retryingFor: budget, fetcher: HTTPCatalogFetcher(timeout: timeout))
            }
            // A store's catalog is its first request: the store's whole retry budget, not a try more.
            catalog = try await fromStore == nil ? load() : withDeadline(max(budget, .seconds(1)), load)
        } catch let error as CatalogError where error.unreachable && fromStore != nil {
            throw unreachable(fromStore?.url ?? location, error.problems.first?.message ?? "no answer", budget: budget)
        } catch is DeadlineExceeded {
            throw unreachable(fromStore?.url ?? location, "no answer", budget: budget)
        } catch {
            throw CommandFailure.catalog(error)
        }
        let storefrontId =
            storefront?.uppercased() ?? account.flatMap(catalog.account(named:))?.storefront
            ?? catalog.defaultStorefront
        guard let storefront = catalog.storefront(id: storefrontId) else {
            let known = catalog.storefronts.map(\.id).joined(separator: ", ")
            throw CommandFailure.usage(
                "--storefront \(storefrontId): not a storefront of this catalog (it has \(known))")
        }
        let localeId = locale ?? catalog.settings.locale ?? storefront.locale
        if let locale, !LocaleCatalog.isKnownLocale(locale) {
            throw CommandFailure.usage("--locale \(locale): not a locale this system knows (e.g. en_US, ja_JP, de_DE)")
        }
        return CatalogContext(catalog: catalog, storefront: storefront, locale: localeId, language: language)
    }

    private func unreachable(_ url: String, _ reason: String, budget: Duration) -> CommandFailure {
        let why =
            reason.hasPrefix("could not be downloaded: ")
            ? String(reason.dropFirst("could not be downloaded: ".count)) : reason
        return CommandFailure.failure(
            "store unreachable at \(URLCredentials.redacted(url)): \(why) (tried for \(budget.components.seconds) s; "
                + "STOREFRONT_RETRY_SECONDS sets how long). Is `storefront serve` running there?")
    }
}

/// The resolved choices a command works with.
struct CatalogContext {
    let catalog: Catalog
    let storefront: Storefront
    let locale: String
    let language: Language

    /// What the catalog's import changed or left out, in one line; nil when nothing.
    var notice: String? {
        catalog.settings.notices.isEmpty ? nil : "catalog: " + catalog.settings.notices.joined(separator: "; ")
    }

    var priceFormatter: PriceFormatter {
        PriceFormatter(currency: storefront.currency, locale: locale)
    }
}
