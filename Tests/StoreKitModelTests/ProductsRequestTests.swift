import Foundation
import StoreKitModel
import Testing

/// A catalog selling in USA and JPN: `gems` everywhere, `legacy` removed, `pro` not sold in JPN,
/// and `promo` with no JPN price.
private enum RequestCatalog {
    static let usa = Storefront(id: "USA", currency: "USD", locale: "en_US")
    static let japan = Storefront(id: "JPN", currency: "JPY", locale: "ja_JP")

    static func product(_ id: String, prices: [String: Decimal], unavailableIn: Set<String> = [], removed: Bool = false)
        -> Product
    {
        let text = LocalizedText(["en": id])
        return Product(
            id: id, type: .nonConsumable, title: text, description: text, prices: prices,
            unavailableIn: unavailableIn, removed: removed)
    }

    static let catalog = Catalog(
        bundleId: "com.example.request", languages: ["en"], defaultStorefront: "USA", storefronts: [usa, japan],
        accounts: [], subscriptionGroups: [],
        products: [
            product("gems", prices: ["USA": 1, "JPN": 160]),
            product("legacy", prices: ["USA": 2, "JPN": 300], removed: true),
            product("pro", prices: ["USA": 50], unavailableIn: ["JPN"]),
            product("promo", prices: ["USA": 3]),
        ])
}

@Test func knownProductIsFound() {
    let response = RequestCatalog.catalog.request(ids: ["gems"], storefront: RequestCatalog.japan)
    #expect(response.products.map(\.id) == ["gems"])
    #expect(response.invalidProductIdentifiers.isEmpty)
    #expect(response.unavailableInStorefront.isEmpty)
    #expect(response.storefront == RequestCatalog.japan)
}

@Test func unknownProductIsInvalid() {
    let response = RequestCatalog.catalog.request(ids: ["nope"], storefront: RequestCatalog.usa)
    #expect(response.products.isEmpty)
    #expect(response.invalidProductIdentifiers == ["nope"])
    #expect(response.unavailableInStorefront.isEmpty)
}

@Test func removedProductIsInvalidButNotUnavailable() {
    let response = RequestCatalog.catalog.request(ids: ["legacy"], storefront: RequestCatalog.usa)
    #expect(response.products.isEmpty)
    #expect(response.invalidProductIdentifiers == ["legacy"])
    #expect(response.unavailableInStorefront.isEmpty)
}

@Test func productNotSoldInTheStorefrontIsInvalidAndUnavailable() {
    let response = RequestCatalog.catalog.request(ids: ["pro", "promo"], storefront: RequestCatalog.japan)
    #expect(response.products.isEmpty)
    #expect(response.invalidProductIdentifiers == ["pro", "promo"])
    #expect(response.unavailableInStorefront == ["pro", "promo"])
}

@Test func sameProductIsFoundInAnotherStorefront() {
    let response = RequestCatalog.catalog.request(ids: ["pro"], storefront: RequestCatalog.usa)
    #expect(response.products.map(\.id) == ["pro"])
    #expect(response.invalidProductIdentifiers.isEmpty)
}

@Test func duplicatesCollapseToTheFirstOccurrence() {
    let response = RequestCatalog.catalog.request(
        ids: ["gems", "nope", "gems", "pro", "nope", "pro"], storefront: RequestCatalog.japan)
    #expect(response.products.map(\.id) == ["gems"])
    #expect(response.invalidProductIdentifiers == ["nope", "pro"])
    #expect(response.unavailableInStorefront == ["pro"])
}

@Test func orderFollowsTheRequestNotTheCatalog() {
    let response = RequestCatalog.catalog.request(
        ids: ["promo", "x", "pro", "legacy", "gems"], storefront: RequestCatalog.usa)
    #expect(response.products.map(\.id) == ["promo", "pro", "gems"])
    #expect(response.invalidProductIdentifiers == ["x", "legacy"])
}

@Test func emptyRequestGetsAnEmptyResponse() {
    let response = RequestCatalog.catalog.request(ids: [], storefront: RequestCatalog.usa)
    #expect(response.products.isEmpty)
    #expect(response.invalidProductIdentifiers.isEmpty)
    #expect(response.unavailableInStorefront.isEmpty)
}

@Test func identifiersAreCaseSensitive() {
    let response = RequestCatalog.catalog.request(ids: ["GEMS"], storefront: RequestCatalog.usa)
    #expect(response.invalidProductIdentifiers == ["GEMS"])
}

@Test func allProductIdsIncludesRemovedProductsInCatalogOrder() {
    #expect(RequestCatalog.catalog.allProductIds == ["gems", "legacy", "pro", "promo"])
    let response = RequestCatalog.catalog.request(
        ids: RequestCatalog.catalog.allProductIds, storefront: RequestCatalog.japan)
    #expect(response.products.map(\.id) == ["gems"])
    #expect(response.invalidProductIdentifiers == ["legacy", "pro", "promo"])
    #expect(response.unavailableInStorefront == ["pro", "promo"])
}

/// Every id in catalog order takes a shortcut (no set, no lookups): its answer must be the one the
/// general path gives for the same ids written with a repeat, in both storefronts.
@Test func theWholeCatalogInOrderAnswersAsTheGeneralPath() {
    let catalog = RequestCatalog.catalog
    for storefront in [RequestCatalog.usa, RequestCatalog.japan] {
        let whole = catalog.request(ids: catalog.allProductIds, storefront: storefront)
        let general = catalog.request(ids: catalog.allProductIds + ["gems"], storefront: storefront)
        #expect(whole.products == general.products)
        #expect(whole.invalidProductIdentifiers == general.invalidProductIdentifiers)
        #expect(whole.unavailableInStorefront == general.unavailableInStorefront)
    }
    #expect(
        catalog.request(ids: catalog.allProductIds, storefront: RequestCatalog.japan).invalidProductIdentifiers == [
            "legacy", "pro", "promo",
        ])
}

/// A catalog built in code may repeat an id (the decoders refuse that, `Catalog.init` does not):
/// the shortcut must not apply, and the repeat collapses as in any request.
@Test func aCatalogWithARepeatedIdStillCollapsesTheRepeat() {
    let product = RequestCatalog.product("a", prices: ["USA": 1])
    let catalog = Catalog(
        bundleId: "com.example.repeat", languages: ["en"], defaultStorefront: "USA", storefronts: [RequestCatalog.usa],
        accounts: [], subscriptionGroups: [], products: [product, product])
    #expect(catalog.request(ids: ["a", "a"], storefront: RequestCatalog.usa).products.map(\.id) == ["a"])
}

/// The counts `storefront products --count-only` prints are those of the response itself, for
/// the whole catalog (asked for without a list of ids), for a list with repeats and unknown
/// ids, and for a catalog that repeats an id.
@Test func requestCountsAreTheResponsesCounts() {
    let repeated = RequestCatalog.product("a", prices: ["USA": 1])
    let catalogs = [
        RequestCatalog.catalog,
        Catalog(
            bundleId: "com.example.repeat", languages: ["en"], defaultStorefront: "USA",
            storefronts: [RequestCatalog.usa], accounts: [], subscriptionGroups: [], products: [repeated, repeated]),
    ]
    for catalog in catalogs {
        for storefront in [RequestCatalog.usa, RequestCatalog.japan] {
            for ids in [nil, catalog.allProductIds, ["gems", "nope", "gems", "pro", "a", "legacy", "promo"]] {
                let response = catalog.request(ids: ids ?? catalog.allProductIds, storefront: storefront)
                #expect(
                    catalog.requestCounts(ids: ids, storefront: storefront)
                        == ProductsResponse.Counts(response: response),
                    "\(ids ?? ["every id"]) in \(storefront.id)")
            }
        }
    }
}
