import ArgumentParser
import Foundation
import StoreClient
import StoreKitModel

/// Options every command shares: which catalog, storefront, locale and language.
struct CatalogOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Catalog: a products.json or .storekit file, or an http(s):// URL. Default: products.json, or the server's with --store.", valueName: "path|url"))
    var catalog: String?

    @Option(name: .long, help: ArgumentHelp("Storefront (ISO 3166-1 alpha-3, e.g. USA, JPN, DEU). Default: the account's, else the catalog's.", valueName: "iso3"))
    var storefront: String?

    @Option(name: .long, help: ArgumentHelp("Locale for formatting prices (e.g. ja_JP, de_DE). Default: the storefront's.", valueName: "id"))
    var locale: String?

    @Option(name: .long, help: ArgumentHelp("Language of titles and messages: en or zh-Hans. Default: from LC_ALL/LANG, else en.", valueName: "lang"))
    var lang: String?

    /// `defaultCatalog`: where the catalog comes from when `--catalog` is not given.
    /// `defaultRetryBudget`: how long that default is tried again when it cannot be downloaded yet
    /// (a store's own catalog, while the store restarts).
    func resolve(defaultCatalog: String = "products.json", defaultRetryBudget: Duration = .zero) async throws -> CatalogContext {
        let location = self.catalog ?? defaultCatalog
        guard let language = Language.resolve(flag: lang, environment: ProcessInfo.processInfo.environment) else {
            throw CommandFailure.usage("--lang \(lang ?? ""): unknown language; use en or zh-Hans")
        }
        let catalog: Catalog
        do {
            catalog = try await CatalogLoader.load(from: location, retryingFor: self.catalog == nil ? defaultRetryBudget : .zero,
                                                 fetcher: HTTPCatalogFetcher())
        } catch {
            throw CommandFailure.failure(String(describing: error))
        }
        let storefrontId = storefront?.uppercased() ?? catalog.defaultStorefront
        guard let storefront = catalog.storefront(id: storefrontId) else {
            let known = catalog.storefronts.map(\.id).joined(separator: ", ")
            throw CommandFailure.usage("--storefront \(storefrontId): not a storefront of this catalog (it has \(known))")
        }
        let localeId = locale ?? catalog.settings.locale ?? storefront.locale
        if let locale, !LocaleCatalog.isKnownLocale(locale) {
            throw CommandFailure.usage("--locale \(locale): not a locale this system knows (e.g. en_US, ja_JP, de_DE)")
        }
        return CatalogContext(catalog: catalog, storefront: storefront, locale: localeId, language: language)
    }
}

/// The resolved choices a command works with.
struct CatalogContext {
    let catalog: Catalog
    let storefront: StoreKitModel.Storefront
    let locale: String
    let language: Language

    var priceFormatter: PriceFormatter {
        PriceFormatter(currency: storefront.currency, locale: locale)
    }
}
